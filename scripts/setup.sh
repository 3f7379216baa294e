#!/bin/sh
# Installs every Debian package that building, packaging, the demo, the
# tests and the bench need.  Idempotent; one dpkg-query when everything is
# already there.  Plain `make` does not run this: it needs only the build
# dependencies (debian/control's Build-Depends) and names a missing one.
#
# libbpf-dev and bpftool come from bookworm-backports, Debian's own channel:
# bookworm's libbpf 1.1.2 cannot create uprobe_multi links (libbpf >= 1.3);
# 1.4 is what the Makefile and debian/control ask for, and what is tested.
#
# `make static` (and so the .deb and the RPM) builds libmicrohttpd from
# Debian's source package with apt-get source: that needs a deb-src line,
# added here for bookworm if apt knows no source of libmicrohttpd yet.
# rpm and rpmlint are for `make rpm` and test_static.  umoci and skopeo
# build and read `make image` (no container is run); python3-kubernetes's
# API models (Kubernetes' OpenAPI schema, as Python) check the manifests in
# dist/kubernetes/, and cephadm's own code says what `podman run` its
# spec in dist/cephadm/ makes (test_image, test_deploy; nothing deployed).
#
#   scripts/setup.sh static-arm64   also what `make static ARCH=arm64` needs
# (issue 42; test_static_arm64 runs it): arm64 as a dpkg foreign
# architecture, Debian's cross gcc, the arm64 -dev packages whose .a files
# the static link takes (multiarch, /usr/lib/aarch64-linux-gnu), pkgconf's
# aarch64-linux-gnu-pkg-config, and qemu-user-static to run the result
# here.  libbpf-dev:arm64 comes from bookworm-backports like the host's;
# the rest from bookworm, at the host's versions (Multi-Arch: same).
# About 120 MB downloaded, half of it qemu-user-static.
set -eu

arm64=false
for g in "$@"; do
	case $g in
	static-arm64) arm64=true ;;
	*) echo "setup: unknown group '$g' (known: static-arm64)" >&2; exit 2 ;;
	esac
done
ARM64_PKGS="gcc-aarch64-linux-gnu qemu-user-static pkgconf:arm64 libc6-dev:arm64
libelf-dev:arm64 zlib1g-dev:arm64 libcapstone-dev:arm64 libjson-c-dev:arm64
libncurses-dev:arm64"

PKGS="make gcc clang llvm libelf-dev zlib1g-dev pkg-config libcapstone-dev
libcmocka-dev ceph-mon ceph-osd ceph-mgr ceph-common python3-rados jq
libcap2-bin util-linux procps iproute2 bpftrace debootstrap debian-archive-keyring
dwarves libmicrohttpd-dev libjson-c-dev prometheus curl systemd man-db groff-base
python3-yaml python3-fusepy debhelper devscripts dpkg-dev fakeroot lintian
libclang-rt-14-dev python3 libdw-dev ceph-osd-dbg time libc6-dev file binutils
rpm rpmlint umoci skopeo python3-kubernetes cephadm libncurses-dev tmux"
BPO_PKGS="libbpf-dev bpftool"
BPO_LIST=/etc/apt/sources.list.d/osdhist-bookworm-backports.sources
SRC_LIST=/etc/apt/sources.list.d/osdhist-bookworm-src.sources

NATIVE=$(dpkg --print-architecture)
# A name without :ARCH is the host's instance (or an Architecture: all
# package): with arm64 added, dpkg-query lists libbpf-dev:amd64 and :arm64.
installed() {	# installed PKG[:ARCH] [MIN_VERSION]
	v=$(dpkg-query -W -f='${Architecture} ${db:Status-Status} ${Version}\n' "$1" 2>/dev/null |
		case $1 in *:*) cat ;; *) grep -E "^($NATIVE|all) " ;; esac | head -1 | cut -d' ' -f2-)
	[ "${v%% *}" = installed ] || return 1
	[ -z "${2:-}" ] || dpkg --compare-versions "${v#* }" ge "$2"
}

missing="" bpo_missing=""
for p in $PKGS; do
	installed "$p" || missing="$missing $p"
done
installed libbpf-dev 1:1.4 || bpo_missing="$bpo_missing libbpf-dev"
installed bpftool 7.3 || bpo_missing="$bpo_missing bpftool"
# apt-cache showsrc reads only the local lists: no network when present
src_missing=""
apt-cache showsrc libmicrohttpd 2>/dev/null | grep -q '^Package: libmicrohttpd$' ||
	src_missing=" (deb-src for libmicrohttpd)"
arch_missing="" arm64_missing=""
if $arm64; then
	dpkg --print-foreign-architectures | grep -qx arm64 ||
		arch_missing=" (dpkg architecture arm64)"
	for p in $ARM64_PKGS; do
		installed "$p" || arm64_missing="$arm64_missing $p"
	done
	installed libbpf-dev:arm64 1:1.4 || arm64_missing="$arm64_missing libbpf-dev:arm64"
fi
[ -z "$missing$bpo_missing$src_missing$arch_missing$arm64_missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "setup: missing packages:$missing$bpo_missing$src_missing$arch_missing$arm64_missing;" \
		"run 'sudo scripts/setup.sh $*' (needs root for apt-get)" >&2
	exit 1
fi
echo "setup: installing$missing$bpo_missing$src_missing$arch_missing$arm64_missing" >&2
export DEBIAN_FRONTEND=noninteractive
if [ -n "$bpo_missing" ] && ! grep -qs bookworm-backports /etc/apt/sources.list \
	/etc/apt/sources.list.d/*; then
	cat > "$BPO_LIST" <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
if [ -n "$src_missing" ] && [ ! -e "$SRC_LIST" ]; then
	cat > "$SRC_LIST" <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi
[ -z "$arch_missing" ] || dpkg --add-architecture arm64
apt-get update -q >/dev/null
# ceph packages start no daemon here: we run our own throwaway clusters.
[ -z "$missing" ] || apt-get install -y -q --no-install-recommends $missing >/dev/null
[ -z "$bpo_missing" ] || apt-get install -y -q --no-install-recommends \
	-t bookworm-backports $BPO_PKGS >/dev/null
# /bookworm-backports for libbpf-dev:arm64 alone (its libbpf1:arm64 follows):
# -t would take the backports' libelf too, and move the host's with it
[ -z "$arm64_missing" ] || apt-get install -y -q --no-install-recommends \
	$(echo "$arm64_missing" | sed 's|libbpf-dev:arm64|libbpf-dev:arm64/bookworm-backports|') >/dev/null
