#!/bin/sh
# Installs every Debian package that building, the demo, the tests and the
# bench need.  Idempotent; one dpkg-query when everything is already there.
set -eu

PKGS="make gcc clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev pkg-config
libcmocka-dev ceph-mon ceph-osd ceph-mgr ceph-common python3-rados jq
libcap2-bin util-linux procps iproute2 bpftrace
libmicrohttpd-dev prometheus curl systemd man-db groff-base libcapstone-dev
libclang-rt-14-dev python3 dwarves libdw-dev ceph-osd-dbg time"

missing=""
for p in $PKGS; do
	s=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$s" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "setup: missing packages:$missing; run 'sudo scripts/setup.sh' (needs root for apt-get)" >&2
	exit 1
fi
echo "setup: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# ceph packages start no daemon here: we run our own throwaway clusters.
apt-get install -y -q --no-install-recommends $missing >/dev/null
