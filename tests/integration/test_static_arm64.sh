#!/bin/bash
# Issue 42: `make static ARCH=arm64` cross-builds build/arm64/osdhist-static,
# an AArch64 static-pie binary (Debian's gcc-aarch64-linux-gnu, the arm64
# .a files through multiarch, libmicrohttpd cross-configured), and it runs
# here under qemu-user-static: --version, --help, --inspect.  `make rpm
# ARCH=arm64` and `dpkg-buildpackage -a arm64` pack it as the x86 packages
# are packed (test_static, test_package), for aarch64/arm64.  No cluster:
# nothing arm64 is traced here (no arm64 kernel); the BPF object's side is
# test_arm64_bpf.
#
# --inspect of Debian's arm64 ceph-osd of pacific, reef and tentacle
# (scripts/arm64_osds.sh RELEASE prints the root it unpacked them in) must
# say traceable with the offsets the x86 osdhist derives from the same
# binary.
# packages: scripts/setup.sh static-arm64, rpm rpmlint dpkg-dev debhelper lintian file binutils
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../pkgcheck.sh"

BIN=$LIB_ROOT/build/arm64/osdhist-static
QEMU=qemu-aarch64-static
version="osdhist $(cd "$LIB_ROOT" && dpkg-parsechangelog -S Version)"
lib_mktemp B -d

if ! "$LIB_ROOT/scripts/setup.sh" static-arm64 >"$B/setup.log" 2>&1; then
	fail "scripts/setup.sh static-arm64"
	tail -5 "$B/setup.log" | sed 's/^/    /'
	finish
fi

make_static "$BIN" "$B/make.log" ARCH=arm64 || finish
desc=$(file -b "$BIN")
check "'file' says ARM aarch64, static-pie linked ($(cut -d, -f1-5 <<<"$desc"))" \
	bash -c 'grep -q "ARM aarch64" <<<"$1" && grep -q "static-pie linked" <<<"$1"' _ "$desc"
check_eq "readelf: Machine AArch64, type DYN (a PIE)" \
	"$(readelf -hW "$BIN" | sed -n 's/^ *\(Machine\|Type\): *\([^ ]*\).*/\2/p' | tr '\n' ' ')" "DYN AArch64 "
check_no_libs "$BIN"
check "its libmicrohttpd has no HTTPS (no gnutls symbol in the binary)" \
	bash -c "! aarch64-linux-gnu-nm '$BIN' | grep -qi gnutls"
check "the x86 build's paths are untouched: no build/osdhist-static made by it" \
	bash -c '! grep -q "build/osdhist-static\b\|build/static/" "$1"' _ "$B/make.log"

# --- under qemu-user-static
out=$($QEMU "$BIN" --version 2>&1); rc=$?
check_eq "under qemu-aarch64: --version: exit 0, '$version'" "$rc $out" "0 $version"
out=$($QEMU "$BIN" --help 2>&1); rc=$?
check "under qemu-aarch64: --help: exit 0, usage and the Prometheus options" \
	bash -c '[ "$1" = 0 ] && grep -q "^Usage: osdhist" <<<"$2" && grep -q -- "--prometheus" <<<"$2"' _ "$rc" "$out"

# --- --inspect of an x86-64 binary: the same derivation as the x86
# osdhist's, said to be for an osdhist built for x86-64
offsets() { sed -n 's/^  \([a-z_0-9]*\) = \([^ ]*\) .*/\1 = \2/p' <<<"$1"; }
make -C "$LIB_ROOT" osdhist >"$B/make-x86.log" 2>&1 ||
	{ fail "make osdhist (the x86 osdhist, to compare)"; tail -5 "$B/make-x86.log"; finish; }
X86=$LIB_ROOT/osdhist
x86=$("$X86" -v --inspect /usr/bin/ceph-osd 2>&1)
a64=$($QEMU "$BIN" -v --inspect /usr/bin/ceph-osd 2>&1); rc=$?
echo "# arm64 osdhist --inspect of this host's x86-64 ceph-osd: $(head -1 <<<"$a64") (exit $rc)"
check_eq "arm64 osdhist --inspect of the host's x86-64 ceph-osd: exit 0" "$rc" 0
check_eq "... the x86 osdhist's first line, for an osdhist built for x86-64" \
	"$(head -1 <<<"$a64")" \
	"$(head -1 <<<"$x86" | sed 's/x86-64: traceable/x86-64: derived here, traceable by an osdhist built for it/')"
check "... and that it cannot trace it here" \
	grep -q "is an x86-64 binary and this osdhist is built for arm64: it cannot trace it here" <<<"$a64"
check_eq "... and every offset ($(offsets "$x86" | wc -l))" "$(offsets "$a64")" "$(offsets "$x86")"
check "... and some" [ "$(offsets "$x86" | wc -l)" -gt 20 ]

# --- Debian's arm64 ceph-osd of three releases
{
	# 16.2.15, 18.2.7, 20.2.4 when written; the Ceph version is what the
	# script unpacked (ROOT/../VERSION: "ceph-osd VERSION")
	for rel in pacific reef tentacle; do
		# the root is its last line of output
		if ! root=$("$LIB_ROOT/scripts/arm64_osds.sh" "$rel" 2>"$B/osds-$rel.err"); then
			fail "$rel: scripts/arm64_osds.sh $rel failed"
			tail -5 "$B/osds-$rel.err" | sed 's/^/    /'
			continue
		fi
		root=$(tail -n 1 <<<"$root")
		ceph=$(sed -n 's/^ceph-osd \([0-9.]*\).*/\1/p' "$(dirname "$root")/VERSION" 2>/dev/null)
		check "$rel: scripts/arm64_osds.sh says which ceph-osd it unpacked (${ceph:-none})" \
			[ -n "$ceph" ]
		osd=$root/usr/bin/ceph-osd
		check "$rel: $osd is an AArch64 ELF" grep -q 'ARM aarch64' <<<"$(file -b "$osd")"
		a64=$($QEMU "$BIN" -v --inspect "$osd" 2>&1); rc=$?
		x86=$("$X86" -v --inspect "$osd" 2>&1)
		check_eq "$rel: arm64 osdhist --inspect under qemu: exit 0 ($(head -1 <<<"$a64"))" "$rc" 0
		check "$rel: ... Ceph $ceph, arm64: traceable" grep -q "Ceph $ceph, arm64: traceable" <<<"$a64"
		check_eq "$rel: ... the offsets the x86 osdhist's --inspect derives ($(offsets "$x86" | wc -l))" \
			"$(offsets "$a64")" "$(offsets "$x86")"
		check "$rel: ... and some" [ "$(offsets "$a64" | wc -l)" -gt 20 ]
	done
}

# --- the aarch64 RPM
t0=$SECONDS
make -C "$LIB_ROOT" rpm ARCH=arm64 MHD_CACHE="$MHD_CACHE" >"$B/rpm.log" 2>&1
rc=$?
check_eq "make rpm ARCH=arm64: exit 0 ($((SECONDS - t0)) s)" "$rc" 0
[ "$rc" = 0 ] || tail -20 "$B/rpm.log" | sed 's/^/    /'
rpmf=$(ls "$LIB_ROOT"/build/arm64/osdhist-*.aarch64.rpm 2>/dev/null | tail -1)
check "it made build/arm64/osdhist-VERSION-RELEASE.aarch64.rpm ($(basename "${rpmf:-none}"))" [ -f "$rpmf" ]
if [ -f "$rpmf" ]; then
	check_eq "rpm -qp: its architecture is aarch64" "$(rpm -qp --qf '%{ARCH}' "$rpmf")" aarch64
	check_rpm "$rpmf"
	S=$B/scratch
	mkdir -p "$S"
	out=$(rpm --root "$S" --initdb 2>&1 && rpm --root "$S" -i --nodeps --ignorearch "$rpmf" 2>&1); rc=$?
	check_eq "rpm --root SCRATCH -i --nodeps --ignorearch: exit 0" "$rc" 0
	[ "$rc" = 0 ] || sed 's/^/    /' <<<"$out"
	check "the installed binary is build/arm64/osdhist-static, stripped (same build-id)" \
		bash -c '[ -n "$1" ] && [ "$1" = "$2" ] && grep -q ", stripped" <<<"$3"' _ \
		"$(build_id "$S/usr/bin/osdhist")" "$(build_id "$BIN")" "$(file -b "$S/usr/bin/osdhist")"
	out=$($QEMU "$S/usr/bin/osdhist" --version 2>&1); rc=$?
	check_eq "under qemu-aarch64: the installed /usr/bin/osdhist --version: exit 0, '$version'" \
		"$rc $out" "0 $version"
fi

# --- the arm64 .deb: cross-built from a copy of the tree, as test_package
mkdir "$B/src"
tree_copy "$B/src"
t0=$SECONDS
(cd "$B/src" && MHD_CACHE=$MHD_CACHE DEB_BUILD_OPTIONS=nocheck \
	dpkg-buildpackage -a arm64 -Pnocheck -b -us -uc) >"$B/deb.log" 2>&1
rc=$?
check_eq "dpkg-buildpackage -a arm64 -Pnocheck -b -us -uc: exit 0 ($((SECONDS - t0)) s)" "$rc" 0
[ "$rc" = 0 ] || tail -30 "$B/deb.log" | sed 's/^/    /'
deb=$(ls "$B"/osdhist_*_arm64.deb 2>/dev/null)
check "it made osdhist_*_arm64.deb ($(basename "${deb:-none}"))" [ -f "$deb" ]
[ -f "$deb" ] || finish
check_eq "dpkg-deb -f: Architecture arm64" "$(dpkg-deb -f "$deb" Architecture)" arm64
check_deb "$deb"
mkdir "$B/x" && dpkg-deb -x "$deb" "$B/x"
desc=$(file -b "$B/x/usr/bin/osdhist")
check "its /usr/bin/osdhist: ARM aarch64, static-pie linked, stripped" \
	bash -c 'grep -q "ARM aarch64" <<<"$1" && grep -q "static-pie linked" <<<"$1" &&
		grep -q ", stripped" <<<"$1"' _ "$desc"
check_no_libs "$B/x/usr/bin/osdhist" "... "
out=$($QEMU "$B/x/usr/bin/osdhist" --version 2>&1); rc=$?
check_eq "under qemu-aarch64: the package's osdhist --version: exit 0, '$version'" "$rc $out" "0 $version"
lintian --fail-on error "$B"/osdhist_*_arm64.changes >"$B/lintian" 2>&1
rc=$?
sed 's/^/    lintian: /' "$B/lintian"
check_eq "lintian: no error (exit 0)" "$rc" 0
finish
