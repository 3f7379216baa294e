# What `make static`, a .deb and an RPM of osdhist must give, for every
# architecture they are built for: test_package and test_static (amd64,
# x86_64), and test_static_arm64 (arm64, aarch64).  Sourced after lib.sh.

# the files both packages install, at the same paths
PKG_FILES="/usr/bin/osdhist /usr/lib/systemd/system/osdhist.service
/usr/share/man/man8/osdhist.8.gz /usr/share/osdhist/grafana/osdhist.json
/usr/share/osdhist/prometheus/osdhist.rules.yml"

# The working tree as it is (tracked and new files, not what .gitignore
# names: no build/, no ./osdhist) into DIR, so a package is built from
# scratch there.
tree_copy() { # DIR
	(cd "$LIB_ROOT" && git ls-files -co --exclude-standard -z | tar --null -cf - -T -) |
		tar -xf - -C "$1"
}

# The RPM holds PKG_FILES and its license, no more, requires nothing but rpmlib features (the binary
# is static), and rpmlint with dist/osdhist.rpmlintrc finds no error.
check_rpm() { # RPM
	local files lint rc f
	files=$(rpm -qpl "$1")
	for f in $PKG_FILES; do
		check "rpm -qpl: the package holds $f" grep -qx "$f" <<<"$files"
	done
	check_eq "... and no file beyond those and its license" \
		"$(grep -v -e '^/usr/share/licenses/' -e '^/usr/share/osdhist$' -e '^/usr/share/osdhist/grafana$' \
			-e '^/usr/share/osdhist/prometheus$' <<<"$files" | wc -l)" "$(wc -w <<<"$PKG_FILES")"
	check_eq "rpm -qpR: it requires no library or package (rpmlib features only)" \
		"$(rpm -qpR "$1" | grep -vc '^rpmlib(')" 0
	lint=$(rpmlint -r "$LIB_ROOT/dist/osdhist.rpmlintrc" "$1" 2>&1); rc=$?
	sed -n 's/^osdhist[^ ]*: /    rpmlint: /p' <<<"$lint"
	check_eq "rpmlint -r dist/osdhist.rpmlintrc: exit 0" "$rc" 0
	check "rpmlint: 0 errors" grep -q ' 0 errors' <<<"$lint"
}

# The .deb holds PKG_FILES and its copyright, depends on nothing (the
# binary is static), and Built-Using names the sources linked in.
check_deb() { # DEB
	local contents f
	contents=$(dpkg-deb -c "$1" | awk '{print $6}' | sed 's|^\./|/|')
	for f in $PKG_FILES /usr/share/doc/osdhist/copyright; do
		check "the package holds $f" grep -qx "$f" <<<"$contents"
	done
	check "the package depends on no Ceph package" \
		bash -c "! dpkg-deb -f '$1' Depends | grep -q ceph"
	check_eq "... and on no library: Depends is empty (static binary)" \
		"$(dpkg-deb -f "$1" Depends)" ""
	check "Built-Using names the sources linked in (glibc, libmicrohttpd, zlib, ...)" \
		bash -c "dpkg-deb -f '$1' Built-Using | grep -q 'glibc (=.*libmicrohttpd (=.*zlib (='"
}

# `make static ARGS...` (libmicrohttpd's build kept in MHD_CACHE), its log
# in LOG: exit 0 and BIN made; status 1 when BIN is missing.
make_static() { # BIN LOG [ARGS...]
	local bin=$1 log=$2 t0=$SECONDS rc
	shift 2
	make -C "$LIB_ROOT" static MHD_CACHE="$MHD_CACHE" "$@" >"$log" 2>&1
	rc=$?
	grep '^make static: ' "$log" | sed 's/^/# /'
	check_eq "make static${*:+ $*}: exit 0 ($((SECONDS - t0)) s)" "$rc" 0
	[ "$rc" = 0 ] || tail -20 "$log" | sed 's/^/    /'
	check "it made ${bin#"$LIB_ROOT"/}" [ -x "$bin" ]
	[ -x "$bin" ]
}

# BIN needs no file of the system it runs on.
check_no_libs() { # BIN [LABEL]
	check "${2:-}no program interpreter, no NEEDED library (readelf)" \
		bash -c "! readelf -lW '$1' | grep -q 'Requesting program interpreter' &&
			! readelf -dW '$1' | grep -q NEEDED"
}
