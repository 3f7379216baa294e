#!/bin/bash
# Issues 14 and 27: `dpkg-buildpackage -b -us -uc` builds osdhist_*.deb
# once from this tree (copied to a temp dir: nothing is left in the tree),
# lintian finds no error, and the one package, which carries the static
# binary and depends on no library, installs with apt-get in a clean Debian
# 12 root and in the Debian 13 (trixie, Ceph 18.2.7) and unstable (sid, Ceph
# 20.2.4) release chroots.  In each, the installed osdhist answers --version
# and --inspects that release's own ceph-osd, its unit passes that release's
# systemd-analyze verify; then it purges, leaving the file list as it was.
# No cluster.
#
# Every install happens in a throwaway overlayfs view of the chroot (ov_up,
# tests/lib.sh): the cached chroots are never written.  The clean root
# (debootstrap --variant=minbase bookworm + systemd) is built once and
# cached in $OSDHIST_CHROOTS/pkgtest/root (default /var/cache/osdhist/chroots);
# the release chroots are scripts/chroots.sh's (chroot_dir).
# packages: dpkg-dev debhelper fakeroot lintian debootstrap util-linux systemd binutils
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pkgcheck.sh"

BASE=${OSDHIST_CHROOTS:-/var/cache/osdhist/chroots}
CH=$BASE/pkgtest
ROOT=$CH/root
MIRROR=http://deb.debian.org/debian

lib_mktemp B -d
mkdir "$B/src"
tree_copy "$B/src"
before=$(cd "$LIB_ROOT" && git status --porcelain --ignored | sort)
# make static keeps its libmicrohttpd build here (MHD_CACHE, see Makefile)
(cd "$B/src" && MHD_CACHE=${OSDHIST_MHD_CACHE:-/var/cache/osdhist/mhd} \
	dpkg-buildpackage -b -us -uc) >"$B/build.log" 2>&1
rc=$?
grep '^make static: ' "$B/build.log" | sed 's/^/# /'
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

check_deb "$deb"
mkdir "$B/x" && dpkg-deb -x "$deb" "$B/x"
check "its /usr/bin/osdhist is static: 'file' says static-pie linked" \
	grep -q 'static-pie linked' <<<"$(file "$B/x/usr/bin/osdhist")"
check_no_libs "$B/x/usr/bin/osdhist" "... "

# --- the clean bookworm root
build_chroot() {
	rm -rf -- "$CH.build"
	mkdir -p "$CH.build"
	echo "# debootstrap bookworm into $CH (once; a few minutes)"
	debootstrap --variant=minbase --include=systemd bookworm "$CH.build/root" "$MIRROR" \
		>"$CH.build/debootstrap.log" 2>&1 || return 1
	chroot "$CH.build/root" apt-get clean
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
exec 9>&-

debname=$(basename "$deb")
version=$(dpkg-deb -f "$deb" Version)
# what changes in a root when a package comes and goes, by design: dpkg's and
# apt's state and logs; /run is a tmpfs on a booted system (systemd-analyze
# writes there); /tmp holds the .deb
listing() {
	ov_run find / -xdev \( -path /proc -o -path /tmp -o -path /run -o -path /var/lib/dpkg \
		-o -path /var/lib/apt -o -path /var/cache/apt -o -path /var/log \) -prune -o -print |
		LC_ALL=C sort
}

no_osdhist() { ! ov_run dpkg-query -W osdhist >/dev/null 2>&1; }

try_release() { # NAME (Debian suite) LOWER INSPECT (a ceph-osd path in the root) CEPH (version)
	local name=$1 lower=$2 inspect=$3 ceph=$4 out rc v before pkgs
	echo "# $name: $lower"
	if ! ov_up "$name" "$lower"; then
		fail "$name: no overlay view of $lower"
		return
	fi
	ov_ns cp "$deb" "$OV_ROOT/tmp/"
	[ "$inspect" != /tmp/ceph-osd ] || ov_ns cp /usr/bin/ceph-osd "$OV_ROOT/tmp/ceph-osd"
	check "$name: no osdhist installed before" no_osdhist
	lib_mktemp before
	listing >"$before"
	pkgs=$(ov_run dpkg-query -W -f '${Package}\n' | sort)

	out=$(ov_run apt-get install -y -q --no-install-recommends "/tmp/$debname" 2>&1); rc=$?
	check_eq "$name: apt-get install ./$debname: exit 0" "$rc" 0
	[ "$rc" = 0 ] || { tail -10 <<<"$out" | sed 's/^/    /'; ov_down; return; }
	check_eq "$name: ... it installed osdhist and nothing else" \
		"$(comm -13 <(echo "$pkgs") <(ov_run dpkg-query -W -f '${Package}\n' | sort) | tr '\n' ' ')" "osdhist "

	v=$(ov_run /usr/bin/osdhist --version 2>&1); rc=$?
	check_eq "$name: installed osdhist --version: exit 0" "$rc" 0
	check_eq "$name: ... prints 'osdhist VERSION' of the package" "$v" "osdhist $version"
	out=$(ov_run /usr/bin/osdhist --help 2>&1); rc=$?
	check "$name: installed osdhist --help: exit 0, usage and the Prometheus options" \
		bash -c '[ "$1" = 0 ] && grep -q "^Usage: osdhist" <<<"$2" && grep -q -- "--prometheus" <<<"$2"' _ "$rc" "$out"
	out=$(ov_run /usr/bin/osdhist --inspect "$inspect" 2>&1); rc=$?
	check_eq "$name: osdhist --inspect $inspect: exit 0 ($out)" "$rc" 0
	check "$name: ... Ceph $ceph, traceable" grep -q "Ceph $ceph, x86-64: traceable" <<<"$out"
	check "$name: the man page is installed" ov_run test -f /usr/share/man/man8/osdhist.8.gz
	check "$name: the unit is installed, not enabled (a deliberate act on a Ceph host)" \
		ov_run sh -c '[ -f /usr/lib/systemd/system/osdhist.service ] &&
			! ls /etc/systemd/system/*.wants/osdhist.service 2>/dev/null'
	check_eq "$name: the unit runs the installed binary" \
		"$(ov_run sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' /usr/lib/systemd/system/osdhist.service)" \
		/usr/bin/osdhist
	# that release's own systemd-analyze: installed here if the root lacks it
	if ! ov_run sh -c 'command -v systemd-analyze' >/dev/null; then
		echo "# $name: no systemd-analyze in the root: apt-get install systemd (in the view)"
		ov_run sh -c 'apt-get update -q && apt-get install -y -q --no-install-recommends systemd' \
			>"$OV_DIR/systemd.log" 2>&1 ||
			tail -5 "$OV_DIR/systemd.log" | sed 's/^/    /'
	fi
	if ov_run sh -c 'command -v systemd-analyze' >/dev/null; then
		out=$(ov_run systemd-analyze verify --man=no osdhist.service 2>&1); rc=$?
		check_eq "$name: systemd-analyze verify osdhist.service ($(ov_run systemd-analyze --version | head -1)): exit 0" "$rc" 0
		# newer systemd also says what it thinks of the other units it loads
		# (sid's xfsprogs units: "CPUAccounting= has been removed"): shown,
		# not ours; every other line is
		others=$(grep -E '^/[^:]+:[0-9]+: ' <<<"$out" | grep -v '/osdhist\.service:')
		[ -z "$others" ] || sed "s/^/    $name, about another unit: /" <<<"$others"
		check_eq "$name: ... with no message about osdhist.service" \
			"$(grep -vxF -f <(echo "$others") <<<"$out")" ""
	else
		fail "$name: no systemd-analyze in the root, and installing systemd there failed (above)"
	fi

	out=$(ov_run apt-get purge -y -q --autoremove osdhist 2>&1); rc=$?
	check_eq "$name: apt-get purge osdhist: exit 0" "$rc" 0
	check "$name: purged: dpkg knows no osdhist" no_osdhist
	out=$(diff "$before" <(listing))
	check_eq "$name: purged: the root's file list is as before the install" "$out" ""
	ov_down
}

try_release bookworm "$ROOT" /tmp/ceph-osd \
	"$(dpkg-query -W -f '${Version}' ceph-osd | sed 's/[+-].*//')"
for rel in reef tentacle; do
	if ! r=$(chroot_dir "$rel"); then
		fail "$rel: no release chroot (scripts/chroots.sh $rel failed, see above)"
		continue
	fi
	suite=trixie; [ "$rel" = reef ] || suite=sid
	try_release "$suite" "$r" /usr/bin/ceph-osd \
		"$(chroot_version "$rel" | awk '{print $3}')"
done
finish
