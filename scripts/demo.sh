#!/bin/bash
# make demo: a throwaway cluster, osdhist every 2 s while rados bench writes
# then reads, and everything cleaned up afterwards (also on Ctrl-C).
set -u
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
	echo "demo: osdhist needs root (BPF and uprobes): run 'sudo make demo'" >&2
	exit 1
fi
DIR=$(mktemp -d /tmp/osdhist-demo.XXXXXX)
TPID=
cleanup() {
	[ -n "$TPID" ] && kill -INT "$TPID" 2>/dev/null && wait "$TPID"
	scripts/cluster.sh stop "$DIR" >/dev/null 2>&1
}
trap cleanup EXIT
trap 'exit 130' INT TERM

scripts/cluster.sh start "$DIR" || exit 1
. "$DIR/env"
echo
PID=$(scripts/cluster.sh osd-pid "$DIR" 0)
# -p: only this demo's OSD (other ceph-osd processes may run on this host)
echo "### osdhist -T -p $PID 2   (Ctrl-C stops it; here the demo stops it)"
./osdhist -T -p "$PID" 2 &
TPID=$!
sleep 2
echo "### rados bench: 8 s of 4 KiB writes, then 6 s of random reads"
rados -p "$POOL" bench 8 write -b 4096 -t 16 --no-cleanup >/dev/null
rados -p "$POOL" bench 6 rand -t 16 >/dev/null
rados -p "$POOL" stat no-such-object 2>/dev/null	# one op in class "error"
sleep 2
kill -INT "$TPID"
wait "$TPID"
TPID=
echo "### Ceph's own counters for comparison (ceph daemon osd.0 perf dump):"
ceph --admin-daemon "$DIR"/run/ceph-osd.0.asok perf dump |
	jq -c '.osd | {op_r, op_w, op_rw, op_r_latency_avg_s: .op_r_latency.avgtime, op_w_latency_avg_s: .op_w_latency.avgtime}'
