#!/usr/bin/env bash
# scripts/arm64_osds.sh - Debian's arm64 ceph-osd (and its ceph-osd-dbg where
# Debian builds one) unpacked on this x86 host, so that tests can derive the
# offsets from AArch64 code and check them against arm64 DWARF
# (tests/integration/test_dwarf_arm64.sh).  Nothing is installed or run: the
# packages are only unpacked with dpkg-deb -x.
#
# Usage: arm64_osds.sh RELEASE
#   Fetches and unpacks RELEASE once, then prints its root on the last line
#   of stdout (ROOT/usr/bin/ceph-osd, and with -dbg
#   ROOT/usr/lib/debug/.build-id/XX/YYYY.debug).  Progress goes to stderr.
#
#   release    Debian suite               Ceph
#   pacific    bookworm(-security)        16.2.15
#   reef       trixie                     18.2.x
#   tentacle   sid                        20.2.x
#
# Layout under $OSDHIST_ARM64 (default /var/cache/osdhist/arm64):
#   NAME/root/      the unpacked packages
#   NAME/VERSION    "package version" of each package unpacked
#   NAME/NODBG      present when Debian has no arm64 ceph-osd-dbg for it
#   NAME/complete   written last: a NAME/ without it is fetched again
#   NAME.lock       flock(1): concurrent callers fetch a release only once
#
# apt runs with a private configuration and state (under NAME.build/apt,
# removed at the end): the host's dpkg architectures, sources and package
# lists are never touched, so no `dpkg --add-architecture arm64` is needed.
#
# Needs: apt, dpkg-deb, debian-archive-keyring, util-linux (flock), and
# http://deb.debian.org/debian.
set -euo pipefail

PROG=arm64_osds.sh
MIRROR=${OSDHIST_MIRROR:-http://deb.debian.org/debian}
SECURITY=${OSDHIST_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
BASE=${OSDHIST_ARM64:-/var/cache/osdhist/arm64}

log() { echo "$PROG: $*" >&2; }
die() { echo "$PROG: error: $*" >&2; exit 1; }

usage() { sed -n '/^# Usage:/,/^# Layout/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; }

# sources.list lines of a release (one suite, plus security for stable)
sources_of() { # NAME
    local o="[arch=arm64 signed-by=$KEYRING]"
    case $1 in
        pacific) echo "deb $o $MIRROR bookworm main"
                 echo "deb $o $SECURITY bookworm-security main" ;;
        reef) echo "deb $o $MIRROR trixie main" ;;
        tentacle) echo "deb $o $MIRROR sid main" ;;
        *) return 1 ;;
    esac
}

# APT=(apt-get ...), APT_CACHE=(apt-cache ...): with a private configuration
# and state under DIR, arm64 only
set_apt() { # DIR
    local d=$1
    mkdir -p "$d/etc/apt.conf.d" "$d/etc/preferences.d" "$d/etc/sources.list.d" \
        "$d/state/lists/partial" "$d/cache/archives/partial"
    : >"$d/state/status"
    APT_OPTS=(-o "Dir::Etc=$d/etc" -o "Dir::Etc::SourceList=$d/etc/sources.list"
        -o "Dir::Etc::SourceParts=$d/etc/sources.list.d"
        -o "Dir::Etc::Parts=$d/etc/apt.conf.d" -o "Dir::Etc::PreferencesParts=$d/etc/preferences.d"
        -o "Dir::State=$d/state" -o "Dir::State::status=$d/state/status"
        -o "Dir::Cache=$d/cache"
        -o APT::Architecture=arm64 -o APT::Architectures::=arm64
        # sid's Release carries a Valid-Until that an archive snapshot outlives
        -o Acquire::Check-Valid-Until=false
        -o Acquire::Languages=none)
    APT=(apt-get -q "${APT_OPTS[@]}")
    APT_CACHE=(apt-cache "${APT_OPTS[@]}")
}

# unpack NAME.deb files of DIR into ROOT, recording "package version"
unpack() { # DIR ROOT VERSIONFILE
    local deb
    for deb in "$1"/*.deb; do
        dpkg-deb -x "$deb" "$2" || die "dpkg-deb -x $deb failed"
        dpkg-deb -f "$deb" Package Version | paste -sd' ' | sed 's/^Package: //; s/ Version: / /' >>"$3"
    done
}

fetch() { # NAME DEST
    local name=$1 dest=$2 t0=$SECONDS tmp=$2.build mb dbg=ceph-osd-dbg
    if [ -e "$tmp" ]; then
        log "$name: removing a half-fetched $tmp"
        rm -rf -- "$tmp"
    fi
    mkdir -p "$tmp/debs" "$tmp/root"
    set_apt "$tmp/apt"
    sources_of "$name" >"$tmp/apt/etc/sources.list"
    log "$name: apt-get update (arm64, private state) ..."
    "${APT[@]}" update >"$tmp/apt.log" 2>&1 ||
        die "$name: apt-get update failed: $(grep -E '^(E|W):' "$tmp/apt.log" | tail -n 1); full log: $tmp/apt.log"
    # ceph-osd-dbg: Debian builds it for some releases on arm64 only
    if ! "${APT_CACHE[@]}" show "$dbg:arm64" >/dev/null 2>&1; then
        log "$name: Debian has no arm64 $dbg for this release: only ceph-osd"
        dbg=
    fi
    log "$name: apt-get download ceph-osd${dbg:+ $dbg} (arm64) ..."
    (cd "$tmp/debs" && "${APT[@]}" download "ceph-osd:arm64" ${dbg:+"$dbg:arm64"}) >>"$tmp/apt.log" 2>&1 ||
        die "$name: apt-get download failed: $(grep -E '^(E|W):' "$tmp/apt.log" | tail -n 1); full log: $tmp/apt.log"
    mb=$(du -cm "$tmp"/debs/*.deb | tail -n 1 | cut -f1)
    log "$name: downloaded $mb MB in $((SECONDS - t0)) s; unpacking ..."
    unpack "$tmp/debs" "$tmp/root" "$tmp/VERSION"
    [ -x "$tmp/root/usr/bin/ceph-osd" ] || die "$name: the ceph-osd package holds no usr/bin/ceph-osd"
    [ -n "$dbg" ] || echo "Debian has no arm64 ceph-osd-dbg for $name" >"$tmp/NODBG"
    rm -rf -- "$tmp/debs" "$tmp/apt"
    # the stamp last, then into place in one rename
    date -u +%FT%TZ >"$tmp/complete"
    mv -T -- "$tmp" "$dest"
    log "$name: ready in $((SECONDS - t0)) s, $mb MB downloaded, $(du -sm "$dest" | cut -f1) MB unpacked: $(paste -sd, "$dest/VERSION")"
}

main() {
    local name dest
    case ${1:-} in
        -h|--help) usage; exit 0 ;;
        "") usage; exit 2 ;;
    esac
    [ $# -eq 1 ] || die "one release at a time: $PROG pacific|reef|tentacle"
    name=$1
    sources_of "$name" >/dev/null || die "unknown release '$name': use pacific, reef or tentacle"
    dest=$BASE/$name
    if [ ! -f "$dest/complete" ]; then
        command -v dpkg-deb >/dev/null || die "dpkg-deb not found: apt-get install dpkg"
        [ -r "$KEYRING" ] || die "$KEYRING missing: apt-get install debian-archive-keyring"
        mkdir -p "$BASE" 2>/dev/null && [ -w "$BASE" ] ||
            die "cannot write $BASE: run as root, or set OSDHIST_ARM64 to a writable directory"
        exec 9>"$BASE/$name.lock"
        flock 9
        # someone else may have fetched it while we waited
        if [ ! -f "$dest/complete" ]; then
            if [ -e "$dest" ]; then
                log "$name: $dest is incomplete (no stamp): fetching again"
                rm -rf -- "$dest"
            fi
            fetch "$name" "$dest"
        fi
        exec 9>&-
    fi
    echo "$dest/root"
}

main "$@"
