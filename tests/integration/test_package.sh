#!/bin/bash
# Issue 14: `dpkg-buildpackage -b -us -uc` builds osdhist_*.deb from this
# tree (copied to a temp dir: nothing is left in the tree), lintian finds no
# error, and the package installs into a clean Debian 12 chroot, where the
# installed osdhist answers --version and --help and its unit passes
# systemd-analyze verify; then it purges without a trace.  No cluster.
#
# The chroot (debootstrap --variant=minbase bookworm + systemd, with
# bookworm-backports for libbpf1 >= 1.4) is built once and cached in
# $OSDHIST_CHROOTS/pkgtest/root (default /var/cache/osdhist/chroots); each
# run installs the package, checks, and purges it again, under pkgtest.lock.
# packages: dpkg-dev debhelper fakeroot lintian debootstrap util-linux systemd
. "$(dirname "$0")/../lib.sh"

BASE=${OSDHIST_CHROOTS:-/var/cache/osdhist/chroots}
CH=$BASE/pkgtest
ROOT=$CH/root
MIRROR=http://deb.debian.org/debian

lib_mktemp B -d
mkdir "$B/src"
# The working tree as it is (tracked and new files, not what .gitignore
# names: no build/, no ./osdhist), so the package is built from scratch.
(cd "$LIB_ROOT" && git ls-files -co --exclude-standard -z | tar --null -cf - -T -) |
	tar -xf - -C "$B/src"
before=$(cd "$LIB_ROOT" && git status --porcelain --ignored | sort)
(cd "$B/src" && dpkg-buildpackage -b -us -uc) >"$B/build.log" 2>&1
rc=$?
check_eq "dpkg-buildpackage -b -us -uc: exit 0" "$rc" 0
[ "$rc" = 0 ] || tail -30 "$B/build.log" | sed 's/^/    /'
deb=$(ls "$B"/osdhist_*_amd64.deb 2>/dev/null)
check "it made osdhist_*_amd64.deb ($(basename "${deb:-none}"))" [ -f "$deb" ]
[ -f "$deb" ] || finish
check_eq "the build left the tree as it was" \
	"$(cd "$LIB_ROOT" && git status --porcelain --ignored | sort)" "$before"
check "the unit tests ran during the build (dh_auto_test)" \
	grep -q '^\[  PASSED  \]' "$B/build.log"

# lintian on the .changes (the .deb and its -dbgsym); as root it says so.
lintian --fail-on error "$B"/osdhist_*_amd64.changes >"$B/lintian" 2>&1
rc=$?
sed 's/^/    lintian: /' "$B/lintian"
check_eq "lintian: no error (exit 0)" "$rc" 0
check_eq "lintian: no E: line" "$(grep -c '^E:' "$B/lintian")" 0

contents=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|')
for f in /usr/bin/osdhist /usr/lib/systemd/system/osdhist.service \
	/usr/share/man/man8/osdhist.8.gz /usr/share/osdhist/grafana/osdhist.json \
	/usr/share/osdhist/prometheus/osdhist.rules.yml /usr/share/doc/osdhist/copyright; do
	check "the package holds $f" grep -qx "$f" <<<"$contents"
done
check "the package depends on no Ceph package" \
	bash -c "! dpkg-deb -f '$deb' Depends | grep -q ceph"

# --- the clean chroot
in_root() {	# CMD...: in $ROOT, /proc mounted in a private mount namespace
	unshare -m --propagation private sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && exec chroot "$r" "$@"' sh "$ROOT" \
		env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
		DEBIAN_FRONTEND=noninteractive "$@"
}
build_chroot() {
	rm -rf -- "$CH.build"
	mkdir -p "$CH.build"
	echo "# debootstrap bookworm into $CH (once; a few minutes)"
	debootstrap --variant=minbase --include=systemd bookworm "$CH.build/root" "$MIRROR" \
		>"$CH.build/debootstrap.log" 2>&1 || return 1
	cat >"$CH.build/root/etc/apt/sources.list.d/bookworm-backports.sources" <<-EOF
	Types: deb
	URIs: $MIRROR
	Suites: bookworm-backports
	Components: main
	Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOF
	ROOT=$CH.build/root in_root apt-get update -q >>"$CH.build/debootstrap.log" 2>&1 || return 1
	ROOT=$CH.build/root in_root apt-get clean
	rm -rf -- "$CH"
	mv "$CH.build" "$CH"
	touch "$CH/complete"
}
mkdir -p "$BASE"
exec 9>"$CH.lock"
flock 9
if [ ! -e "$CH/complete" ] && ! build_chroot; then
	tail -5 "$CH.build/debootstrap.log" >&2
	fail "building the chroot $CH failed (log above)"
	finish
fi
check "the chroot has no osdhist and no Ceph before" \
	bash -c "! chroot '$ROOT' dpkg-query -W osdhist ceph-osd ceph-common >/dev/null 2>&1"
cp "$deb" "$ROOT/tmp/"
debname=$(basename "$deb")
# libbpf1 >= 1.4 is in bookworm-backports, which apt never picks by itself:
# -t, as the README tells operators.
install_deb() {
	in_root apt-get install -y -q --no-install-recommends -t bookworm-backports "/tmp/$debname" 2>&1
}
out=$(install_deb); rc=$?
if [ "$rc" != 0 ] && grep -q "Unable to locate\|not installable\|Failed to fetch" <<<"$out"; then
	in_root apt-get update -q >/dev/null 2>&1	# stale lists
	out=$(install_deb); rc=$?
fi
check_eq "apt-get install ./$debname in the chroot: exit 0" "$rc" 0
[ "$rc" = 0 ] || tail -10 <<<"$out" | sed 's/^/    /'
check_eq "... and it pulled in no Ceph package" \
	"$(chroot "$ROOT" dpkg-query -W -f '${Package}\n' 'ceph*' 2>/dev/null | wc -l)" 0

v=$(in_root /usr/bin/osdhist --version 2>&1); rc=$?
check_eq "installed osdhist --version: exit 0" "$rc" 0
check "... prints 'osdhist VERSION' of the package ($v)" \
	[ "$v" = "osdhist $(dpkg-deb -f "$deb" Version)" ]
h=$(in_root /usr/bin/osdhist --help 2>&1); rc=$?
check_eq "installed osdhist --help: exit 0" "$rc" 0
check "... shows the usage and the Prometheus options" \
	bash -c 'grep -q "^Usage: osdhist" <<<"$1" && grep -q -- "--prometheus" <<<"$1"' _ "$h"
check "the man page is installed" [ -f "$ROOT/usr/share/man/man8/osdhist.8.gz" ]
check "the unit is installed, not enabled (a deliberate act on a Ceph host)" \
	bash -c "[ -f '$ROOT/usr/lib/systemd/system/osdhist.service' ] &&
		! ls '$ROOT'/etc/systemd/system/*.wants/osdhist.service 2>/dev/null"
out=$(systemd-analyze verify --man=no --root="$ROOT" osdhist.service 2>&1); rc=$?
check_eq "systemd-analyze verify of the installed unit: exit 0" "$rc" 0
check_eq "... with no message" "$out" ""
check_eq "the unit runs the installed binary" \
	"$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$ROOT/usr/lib/systemd/system/osdhist.service")" \
	/usr/bin/osdhist

# Purge: the chroot is clean again for the next run.
in_root apt-get purge -y -q --autoremove osdhist >/dev/null 2>&1
rm -f "$ROOT/tmp/$debname"
check "purged: no osdhist file left in the chroot" \
	bash -c "! chroot '$ROOT' dpkg-query -W osdhist >/dev/null 2>&1 &&
		[ ! -e '$ROOT/usr/bin/osdhist' ] && [ ! -e '$ROOT/usr/share/osdhist' ]"
finish
