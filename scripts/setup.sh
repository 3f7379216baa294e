#!/bin/sh
# Installs every Debian package that building, packaging, the demo, the tests
# and the bench need.  Idempotent; a few dpkg-queries when everything is
# already there.  Plain `make` does not run this: it needs only the build
# dependencies (debian/control's Build-Depends) and says which one is missing.
set -eu

# libbpf-dev and bpftool must come from bookworm-backports on Debian 12
# (bookworm's libbpf 1.1.2 is older than osdhist needs).
BPO_PKGS="libbpf-dev bpftool"
LIBBPF_MIN="1:1.4"
PKGS="make gcc clang llvm libelf-dev zlib1g-dev pkg-config
libcapstone-dev libjson-c-dev libmicrohttpd-dev
libcmocka-dev python3-yaml ceph-mon ceph-osd ceph-mgr ceph-common python3-rados jq
libcap2-bin util-linux procps iproute2 bpftrace
prometheus curl systemd man-db groff-base
debhelper devscripts dpkg-dev fakeroot lintian debootstrap"

installed() {	# PKG: its installed version, or nothing
	dpkg-query -W -f='${db:Status-Status} ${Version}' "$1" 2>/dev/null |
		sed -n 's/^installed //p'
}

missing="" bpo=""
for p in $PKGS; do
	[ -n "$(installed "$p")" ] || missing="$missing $p"
done
for p in $BPO_PKGS; do
	v=$(installed "$p")
	if [ -z "$v" ] || { [ "$p" = libbpf-dev ] &&
		! dpkg --compare-versions "$v" ge "$LIBBPF_MIN"; }; then
		bpo="$bpo $p"
	fi
done
[ -z "$missing$bpo" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "setup: missing packages:$missing$bpo; run 'sudo scripts/setup.sh' (needs root for apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
target=""
if [ -n "$bpo" ] && [ "$codename" = bookworm ]; then
	target="-t bookworm-backports"
	if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		echo "setup: adding Debian's bookworm-backports (for libbpf-dev >= 1.4 and bpftool)" >&2
		cat >/etc/apt/sources.list.d/osdhist-bookworm-backports.sources <<EOF
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	fi
fi
echo "setup: installing$missing$bpo" >&2
apt-get update -q >/dev/null
# ceph packages start no daemon here: we run our own throwaway clusters.
[ -z "$missing" ] || apt-get install -y -q --no-install-recommends $missing >/dev/null
# shellcheck disable=SC2086
[ -z "$bpo" ] || apt-get install -y -q --no-install-recommends $target $bpo >/dev/null
