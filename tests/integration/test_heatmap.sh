#!/bin/bash
# The latency heatmap (--heatmap, issue 40) of a run with a burst of 4 MiB
# writes between 4 KiB ones, on a throwaway cluster of one OSD (memstore).
# Beside `osdhist --osd ID --heatmap write`, an `osdhist --osd ID --json`;
# both take their snapshots on the same SIGUSR1s (INTERVAL an hour), sent
# while no op runs, so each column of the heatmap is one JSON snapshot.
# heatmap_check.py rebuilds every cell of the last heatmap from the JSON
# buckets and compares; the burst's columns are found from the times taken
# around the burst against the heatmap's own interval ends; the band: the
# highest occupied row of each burst column is above that of every 4 KiB
# column, before and after it.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
lib_mktemp WORK -d
ID=$(random_first_id 1) || { fail "no free OSD id"; finish; }
cluster_up --osds 1 --first-id "$ID" --pg 8 --timeout 240 || { fail "cluster start"; finish; }

"$OSDHIST" --osd "$ID" --heatmap write 3600 >"$WORK/hm" 2>"$WORK/hm.err" &
HPID=$!
"$OSDHIST" --osd "$ID" --json 3600 >"$WORK/js" 2>"$WORK/js.err" &
JPID=$!
check "osdhist --heatmap attached" wait_line "$WORK/hm.err" "attached to ceph-osd" $HPID
check "osdhist --json attached" wait_line "$WORK/js.err" "attached to ceph-osd" $JPID

nh() { grep -c 'latency heatmap,' "$WORK/hm"; }
nj() { grep -c '"type":"health"' "$WORK/js"; }
# snap: one snapshot in each, at once; until both have printed it
snap() {
	local h j
	h=$(nh) j=$(nj)
	kill -USR1 $HPID $JPID
	for _ in $(seq 600); do
		[ "$(nh)" -gt "$h" ] && [ "$(nj)" -gt "$j" ] && return 0
		sleep 0.1
	done
	return 1
}
write() { rados -p "$POOL" bench "$1" write -b "$2" -t 4 --no-cleanup >/dev/null; }

ok=0
snap && ok=$((ok + 1))
for _ in 1 2 3; do write 2 4096 && snap && ok=$((ok + 1)); done
T0=$(date +%s.%N)
write 2 4194304 && snap && ok=$((ok + 1))
write 2 4194304 && ok=$((ok + 1))
T1=$(date +%s.%N)
snap && ok=$((ok + 1))
for _ in 1 2 3; do write 2 4096 && snap && ok=$((ok + 1)); done
check_eq "every load and snapshot done (10 steps: 9 snapshots and a burst write)" $ok 10
kill -INT $HPID $JPID	# and a last snapshot each: a quiet column
wait $HPID; check_eq "osdhist --heatmap exits 0 on SIGINT" "$?" 0
wait $JPID; check_eq "osdhist --json exits 0 on SIGINT" "$?" 0
check "osdhist --heatmap: nothing on stderr but its start" \
	bash -c "! grep -v '^osdhist: \(attached\|tracing\|waiting\)' '$WORK/hm.err' | grep -q ."

echo "# the last heatmap (burst from $(date -d "@$T0" +%T.%N | cut -c1-12) to $(date -d "@$T1" +%T.%N | cut -c1-12)):"
awk '/latency heatmap,/ {n = NR} {l[NR] = $0} END {for (i = n; i <= NR; i++) print "#   " l[i]}' "$WORK/hm"
check "every cell of the heatmap = the JSON's buckets, grouped and shaded; the burst's columns a band above the 4 KiB ones" \
	python3 "$LIB_ROOT/tests/integration/heatmap_check.py" "$WORK/hm" "$WORK/js" "$ID" "$T0" "$T1"
python3 "$LIB_ROOT/tests/integration/heatmap_check.py" "$WORK/hm" "$WORK/js" "$ID" "$T0" "$T1" 2>/dev/null | sed 's/^/# /'
finish
