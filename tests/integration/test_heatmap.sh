#!/bin/bash
# The latency heatmap (--heatmap, issue 40) of a run with a burst of 4 MiB
# writes between 4 KiB ones, on a throwaway cluster of one OSD (memstore).
# `osdhist --osd ID --heatmap write` also writes --textfile, with bounds
# at every quarter of a power of two (heatmap_check.py bounds), copied at
# each snapshot: that same process's exact ops below each bound per
# interval, from which heatmap_check.py rebuilds every cell of the last
# heatmap and compares.  (Another osdhist is no oracle for a bucket: each
# tracer's probe runs at its own moment, so an op near a bucket's edge
# can land on either side; their counts per interval are equal.)  Beside
# it an `osdhist --osd ID --json`; both snapshot on the same SIGUSR1s
# (INTERVAL an hour), sent while no op runs, so each column is one JSON
# snapshot, whose ops must equal the textfile's.  The burst's columns are
# found from the times taken around the burst against the heatmap's own
# interval ends; the band: the highest occupied row of each burst column
# is above that of every 4 KiB column, before and after it.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
lib_mktemp WORK -d
ID=$(random_first_id 1) || { fail "no free OSD id"; finish; }
cluster_up --osds 1 --first-id "$ID" --pg 8 --timeout 240 || { fail "cluster start"; finish; }

CHECK=$LIB_ROOT/tests/integration/heatmap_check.py
mkdir "$WORK/prom" "$WORK/copies"
"$OSDHIST" --osd "$ID" --heatmap write --textfile "$WORK/prom/osdhist.prom" \
	--prom-buckets "$(python3 "$CHECK" bounds)" 3600 >"$WORK/hm" 2>"$WORK/hm.err" &
HPID=$!
"$OSDHIST" --osd "$ID" --json 3600 >"$WORK/js" 2>"$WORK/js.err" &
JPID=$!
check "osdhist --heatmap attached" wait_line "$WORK/hm.err" "attached to ceph-osd" $HPID
check "osdhist --json attached" wait_line "$WORK/js.err" "attached to ceph-osd" $JPID

nh() { grep -c 'latency heatmap,' "$WORK/hm"; }
nj() { grep -c '"type":"health"' "$WORK/js"; }
# the textfile's snapshot time (it is written after the heatmap)
tf() { sed -n 's/^osdhist_last_snapshot_timestamp_seconds //p' "$WORK/prom/osdhist.prom" 2>/dev/null; }
NC=0
# copy: the textfile of the newest snapshot, as copies/N.prom
copy() {
	NC=$((NC + 1))
	cp "$WORK/prom/osdhist.prom" "$WORK/copies/$NC.prom"
}
# snap: one snapshot in each, at once; until both have printed it and
# the textfile is that snapshot's
snap() {
	local h j t
	h=$(nh) j=$(nj) t=$(tf)
	kill -USR1 $HPID $JPID
	for _ in $(seq 600); do
		[ "$(nh)" -gt "$h" ] && [ "$(nj)" -gt "$j" ] && [ "$(tf)" != "$t" ] && copy && return 0
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
T=$(tf)
kill -INT $HPID $JPID	# and a last snapshot each: a quiet column
wait $HPID; check_eq "osdhist --heatmap exits 0 on SIGINT" "$?" 0
check "its last snapshot in the textfile" test "$(tf)" != "$T"
copy
wait $JPID; check_eq "osdhist --json exits 0 on SIGINT" "$?" 0
check "osdhist --heatmap: nothing on stderr but its start" \
	bash -c "! grep -v '^osdhist: \(attached\|tracing\|waiting\)' '$WORK/hm.err' | grep -q ."

echo "# the last heatmap (burst from $(date -d "@$T0" +%T.%N | cut -c1-12) to $(date -d "@$T1" +%T.%N | cut -c1-12)):"
awk '/latency heatmap,/ {n = NR} {l[NR] = $0} END {for (i = n; i <= NR; i++) print "#   " l[i]}' "$WORK/hm"
python3 "$CHECK" "$WORK/hm" "$WORK/copies" "$WORK/js" "$ID" "$T0" "$T1" >"$WORK/summary" 2>"$WORK/errors"
check "every cell of the heatmap = its textfile's ops, grouped and shaded; each interval's ops = the JSON's; the burst's columns a band above the 4 KiB ones" \
	bash -c "cat '$WORK/errors' >&2; test ! -s '$WORK/errors'"
sed 's/^/# /' "$WORK/summary"
finish
