#!/usr/bin/env bash
# scripts/chroots.sh - Debian chroots holding newer Ceph releases than the
# host's, so that tests can run real reef / tentacle OSDs on this Debian 12
# host (scripts/cluster.sh start DIR --root "$(scripts/chroots.sh reef)").
#
# Usage: chroots.sh [reef|tentacle|all]...     (default: all)
#   Builds each missing chroot once, then prints the chroot root of each
#   release named, one per line, on stdout.  Progress goes to stderr.
#
#   release    Debian suite   Ceph
#   reef       trixie         18.2.x
#   tentacle   sid            20.2.x
#
# Layout under $OSDHIST_CHROOTS (default /var/cache/osdhist/chroots):
#   NAME/root/      the chroot (debootstrap --variant=minbase + ceph-osd,
#                   ceph-mon, ceph-mgr, ceph-common, ceph-osd-dbg, no
#                   recommends; apt's package cache emptied)
#   NAME/VERSION    "package version" per installed ceph package, then the
#                   line "ceph-osd --version" prints inside the chroot
#   NAME/complete   written last: a NAME/ without it is rebuilt from scratch
#   NAME.lock       flock(1): concurrent callers build a release only once
#
# ceph-osd-dbg (DWARF of ceph-osd, ~650 MB, a test oracle) lands in
# root/usr/lib/debug/.build-id/XX/YYYY.debug (XX/YYYY: ceph-osd's build id).
# The chroot is only ever used with mounts made inside a private mount
# namespace (unshare -m), so nothing is ever mounted under it on the host.
#
# Needs: debootstrap, debian-archive-keyring (trixie's keys), util-linux
# (unshare, flock), root, and http://deb.debian.org/debian.
set -euo pipefail

PROG=chroots.sh
MIRROR=http://deb.debian.org/debian
BASE=${OSDHIST_CHROOTS:-/var/cache/osdhist/chroots}
PKGS="ceph-osd ceph-mon ceph-mgr ceph-common ceph-osd-dbg"

log() { echo "$PROG: $*" >&2; }
die() { echo "$PROG: error: $*" >&2; exit 1; }

# Long steps run in a process group of their own, so that a TERM or INT to
# this script alone (not to its group) ends debootstrap/apt and their dpkgs
# too, instead of leaving them writing into a tree the next run removes.
CHILD=
on_signal() { # EXIT-CODE
    trap '' INT TERM
    [ -z "$CHILD" ] || { kill -TERM -- "-$CHILD" 2>/dev/null || true; wait "$CHILD" 2>/dev/null || true; }
    log "interrupted; the half-built chroot is removed by the next run"
    exit "$1"
}
trap 'on_signal 130' INT
trap 'on_signal 143' TERM
step() { # LOG CMD... : run CMD in its own session, output appended to LOG
    local log=$1 rc=0; shift
    setsid "$@" >>"$log" 2>&1 </dev/null &
    CHILD=$!
    wait "$CHILD" || rc=$?
    CHILD=
    return "$rc"
}

suite_of() {
    case $1 in
        reef) echo trixie ;;
        tentacle) echo sid ;;
        *) die "unknown release '$1': use reef, tentacle or all" ;;
    esac
}

# IN_ROOT=(command prefix) that runs CMD... inside ROOT, with /proc mounted
# in a private mount namespace: the mount vanishes with the namespace,
# whatever happens to us.  A clean environment: no host locale or PATH.
set_in_root() { # ROOT
    # shellcheck disable=SC2016
    IN_ROOT=(unshare -m --propagation private sh -c '
        r=$1; shift
        mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' sh "$1"
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8
        DEBIAN_FRONTEND=noninteractive)
}

# Something mounted at or under PATH in any mount namespace we can see?
# (Never by us; but rm -rf must not walk into someone's bind mount.)
mounted_under() { # PATH
    cat /proc/[0-9]*/mountinfo 2>/dev/null | awk -v p="$1" '
        $5 == p || index($5, p "/") == 1 { found = 1 } END { exit !found }'
}

build() { # NAME SUITE DEST
    local name=$1 suite=$2 dest=$3 t0=$SECONDS t
    local tmp=$dest.build root
    root=$tmp/root
    if [ -e "$tmp" ]; then
        mounted_under "$tmp" && die "$tmp has something mounted under it; unmount it, then rerun"
        log "$name: removing a half-built $tmp"
        rm -rf -- "$tmp"
    fi
    mkdir -p "$tmp"

    log "$name: debootstrap --variant=minbase $suite from $MIRROR ..."
    # debootstrap checks the Release signature but not Valid-Until, so an
    # archive snapshot whose sid Release has expired still bootstraps.
    # Two stages, so that dpkg runs with unsafe-io from the first package
    # on: its fsync per file is most of the time on a busy disk, and a
    # chroot that a crash leaves half-built has no stamp and is rebuilt.
    set_in_root "$root"
    if ! step "$tmp/debootstrap.log" debootstrap --foreign --variant=minbase "$suite" "$root" "$MIRROR"; then
        die "$name: debootstrap $suite failed: $(tail -n 1 "$tmp/debootstrap.log"); full log: $tmp/debootstrap.log"
    fi
    mkdir -p "$root/etc/dpkg/dpkg.cfg.d"
    echo force-unsafe-io >"$root/etc/dpkg/dpkg.cfg.d/osdhist-unsafe-io"
    if ! step "$tmp/debootstrap.log" "${IN_ROOT[@]}" /debootstrap/debootstrap --second-stage; then
        die "$name: debootstrap --second-stage failed: $(tail -n 1 "$tmp/debootstrap.log"); full log: $tmp/debootstrap.log"
    fi
    t=$SECONDS
    log "$name: base system in $((t - t0)) s"

    # no daemon is ever started by a package's maintainer scripts here
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    # sid's Release carries a Valid-Until that an archive snapshot outlives
    cat >"$root/etc/apt/apt.conf.d/99osdhist" <<'EOF'
// written by osdhist scripts/chroots.sh
Acquire::Check-Valid-Until "false";
APT::Install-Recommends "false";
APT::Install-Suggests "false";
EOF
    log "$name: apt-get install $PKGS ..."
    # shellcheck disable=SC2086
    if ! { step "$tmp/apt.log" "${IN_ROOT[@]}" apt-get update -q &&
           step "$tmp/apt.log" "${IN_ROOT[@]}" apt-get install -y -q $PKGS &&
           step "$tmp/apt.log" "${IN_ROOT[@]}" apt-get clean; }; then
        die "$name: apt-get install in the chroot failed: $(grep -E '^E:' "$tmp/apt.log" | tail -n 1); full log: $tmp/apt.log"
    fi
    log "$name: ceph installed in $((SECONDS - t)) s"

    # shellcheck disable=SC2016,SC2086  # dpkg's format, not ours
    "${IN_ROOT[@]}" dpkg-query -W -f '${Package} ${Version}\n' $PKGS >"$tmp/VERSION"
    "${IN_ROOT[@]}" ceph-osd --version >>"$tmp/VERSION"
    # the stamp last, then into place in one rename
    date -u +%FT%TZ >"$tmp/complete"
    mv -T -- "$tmp" "$dest"
    log "$name: built in $((SECONDS - t0)) s, $(du -sm "$dest" | cut -f1) MB: $(tail -n 1 "$dest/VERSION")"
}

ensure() { # NAME : build if needed, print the root
    local name=$1 suite dest
    suite=$(suite_of "$name")
    dest=$BASE/$name
    if [ ! -f "$dest/complete" ]; then
        [ "$(id -u)" = 0 ] || die "building the $name chroot needs root (run as root: $0 $name)"
        command -v debootstrap >/dev/null || die "debootstrap not found: apt-get install debootstrap (or run scripts/setup.sh)"
        mkdir -p "$BASE"
        exec 9>"$BASE/$name.lock"
        flock 9
        # someone else may have built it while we waited
        if [ ! -f "$dest/complete" ]; then
            if [ -e "$dest" ]; then
                mounted_under "$dest" && die "$dest is incomplete and has something mounted under it; unmount it, then rerun"
                log "$name: $dest is incomplete (no stamp): rebuilding"
                rm -rf -- "$dest"
            fi
            build "$name" "$suite" "$dest"
        fi
        exec 9>&-
    fi
    echo "$dest/root"
}

main() {
    local names=() n
    [ $# -gt 0 ] || set -- all
    for n in "$@"; do
        case $n in
            all) names+=(reef tentacle) ;;
            -h|--help) sed -n '/^# Usage:/,/^# Layout/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 0 ;;
            *) suite_of "$n" >/dev/null; names+=("$n") ;;
        esac
    done
    for n in "${names[@]}"; do ensure "$n"; done
}

main "$@"
