#!/bin/bash
# An error flood must not make osdhist stop or miss anything.  An earlier
# tracer kept in-flight ops in a small hash that ops ending on error paths
# never left: a flood of stats of missing objects filled it within a second
# and the tool went silent while looking healthy.  osdhist deletes every op at
# OpTracker::unregister_inflight_op, whatever path it took.
#
# Several librados clients stat missing objects as fast as they can (every
# stat fails with ENOENT); meanwhile, then again after the flood, a canary
# client stats existing objects.  Every canary op must be traced as a read
# (exactly, against op_r), every failed stat as an error, and the in-flight
# map must stay nearly empty.  The flood is more failed stats than the
# in-flight map has entries (a tracer that kept them would fill it), and it
# lasts until this test stops it, past the canary: both by construction,
# checked, whatever rate the host allows (printed; issue 26).
. "$(dirname "$0")/../lib.sh"

HERE=$(cd "$(dirname "$0")" && pwd)
OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
# python3-rados is a Debian package: the system python, not whatever
# python3 comes first on PATH.
load() { /usr/bin/python3 "$HERE/rados_load.py" "$@"; }
FLOODERS=3	# flooder processes
DEPTH=16	# stats each flooder keeps in flight
FLOOD_CAP=300	# a flooder gives up if it is not stopped by then
CANARY_SECS=8	# canary during the flood
AFTER_OPS=3000	# canary after the flood
OBJS=10		# objects the canary stats

cluster_up --osds 1
PID0=$(osd_pid 0)

# Only our OSD (-p): other clusters on this host have an osd.0 too.
TOUT=$(mktemp -p "$CLUSTER_DIR") TERR=$(mktemp -p "$CLUSTER_DIR")
"$OSDHIST" -p "$PID0" --json 1 >"$TOUT" 2>"$TERR" &
TPID=$! tstart=$SECONDS
if ! wait_line "$TERR" "attached to ceph-osd" $TPID; then
	cat "$TERR" >&2
	fail "osdhist did not attach"
	finish
fi

health_lines() { grep -c '"type":"health"' "$TOUT"; }
for _ in $(seq 600); do [ "$(health_lines)" -gt 0 ] && break; sleep 0.1; done	# 60 s, as wait_line
INFLIGHT_MAX=$(jq -s '[.[] | select(.type == "health")][0].inflight_max // 0' "$TOUT")
check "osdhist says how many entries its in-flight map has ($INFLIGHT_MAX)" [ "$INFLIGHT_MAX" -gt 0 ]

# A snapshot boundary: SIGUSR1, then wait for two more health lines.  The
# second one was read after the first was printed, so after this was called:
# every op finished before the call is in snapshots 1..N (N printed), every
# op started after the return is in later ones.
boundary() {
	local n
	n=$(health_lines)
	kill -USR1 $TPID
	for _ in $(seq 1200); do	# 60 s: a stalled host, not osdhist (ms)
		[ "$(health_lines)" -ge $((n + 2)) ] && break
		sleep 0.05
	done
	health_lines
}

# Sum of osdhist's counts of class CLS (phase total, or PHASE) in snapshots
# FROM+1 .. TO (a hist line belongs to the snapshot whose health line follows it).
oh_window() {	# FROM TO CLS [PHASE]
	jq -s --argjson a "$1" --argjson b "$2" --arg c "$3" --arg p "${4:-total}" '
		[foreach .[] as $l (0; if $l.type == "health" then . + 1 else . end; [., $l])]
		| map(select(.[1].type == "hist" and .[1].osd == 0 and .[1].class == $c
			and .[1].phase == $p and .[0] >= $a and .[0] < $b) | .[1].count)
		| add // 0' "$TOUT"
}
# Same, every class but CLS.
oh_window_other() {	# FROM TO CLS
	jq -s --argjson a "$1" --argjson b "$2" --arg c "$3" '
		[foreach .[] as $l (0; if $l.type == "health" then . + 1 else . end; [., $l])]
		| map(select(.[1].type == "hist" and .[1].class != $c
			and .[1].phase == "total" and .[0] >= $a and .[0] < $b) | .[1].count)
		| add // 0' "$TOUT"
}
field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$2"; }

# ratio check: traced/sent >= 0.99 and, since nothing else reads, equal
check_canary() {	# PHASE TRACED SENT OP_R_DELTA
	echo "# $1: canary sent $3 stats, osdhist read $2, op_r delta $4"
	check "$1: canary traced/sent >= 0.99 ($2/$3)" \
		jq -e -n "$3 > 0 and $2 / $3 >= 0.99"
	check_eq "$1: osdhist read count = canary stats sent" "$2" "$3"
	check_eq "$1: osdhist read count = op_r delta" "$2" "$4"
}

# --- 1. setup: the objects the canary stats
check "setup: put $OBJS objects" load put $OBJS

# --- 2. the flood, with the canary inside it
FDIR=$(mktemp -d -p "$CLUSTER_DIR")
FPIDS=()
STOP=$FDIR/stop
MIN_OPS=$((INFLIGHT_MAX / FLOODERS + 1))	# each: together more than the map holds
for i in $(seq $FLOODERS); do
	# not through load(): $! must be python itself, for lib.sh to kill it
	/usr/bin/python3 "$HERE/rados_load.py" flood-until "$STOP" $DEPTH $MIN_OPS $FLOOD_CAP \
		>"$FDIR/$i.out" 2>"$FDIR/$i.err" &
	FPIDS+=($!)
done
for _ in $(seq 200); do
	[ "$(cat "$FDIR"/*.out | grep -c '^flooding$')" = $FLOODERS ] && break
	sleep 0.05
done
check_eq "flood: all $FLOODERS flooders started" \
	"$(cat "$FDIR"/*.out | grep -c '^flooding$')" $FLOODERS
sleep 2	# let the flood build up before the canary

a1=$(boundary)
r0=$(perf_counter 0 osd op_r)
load canary $OBJS --secs $CANARY_SECS >"$FDIR/canary1" 2>&1
crc=$?
b1=$(boundary)
r1=$(perf_counter 0 osd op_r)
alive=0
for p in "${FPIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
check_eq "flood: canary ran without error" "$crc" 0
check_eq "flood: all flooders still running when the canary ended" "$alive" $FLOODERS
touch "$STOP"	# from here on each stops once it has sent its MIN_OPS
sent1=$(field ops "$FDIR/canary1") sent1=${sent1:-0}
secs1=$(field secs "$FDIR/canary1") secs1=${secs1:-1}
canary_rate=$(jq -n "$sent1 / $secs1 | floor")
check_canary flood "$(oh_window "$a1" "$b1" read)" "$sent1" $((r1 - r0))
err_in=$(oh_window "$a1" "$b1" error)
echo "# flood: canary $canary_rate stats/s; osdhist saw $err_in errors during the canary ($(jq -n "$err_in / $secs1 | floor")/s)"
# The flooders ran from before the canary's first snapshot to after its
# last (they stop only on $STOP), each keeping $DEPTH stats in the OSD.
check "flood: errors traced during the canary ($err_in)" [ "$err_in" -gt 0 ]
# Not silent for a moment: every periodic snapshot (at least 0.5 s long; the
# SIGUSR1 ones can be a few ms) of the window has errors in it.
silent=$(jq -s --argjson a "$a1" --argjson b "$b1" '
	[foreach .[] as $l ({n: 0, err: 0, t: null};
		if $l.type == "health" then
			{n: (.n + 1), err: 0, t: $l.time,
			 out: {n: (.n + 1), err: .err, gap: ($l.time - (.t // $l.time))}}
		else
			.err += (if $l.osd == 0 and $l.class == "error" and $l.phase == "total"
				 then $l.count else 0 end)
			| del(.out)
		end;
		.out // empty)]
	| map(select(.n > $a and .n <= $b and .gap >= 0.5 and .err == 0)) | length' "$TOUT")
check_eq "flood: no snapshot of the window without errors" "$silent" 0

frc=0
for p in "${FPIDS[@]}"; do wait "$p" || frc=1; done
check_eq "flood: every flooder's stat failed with ENOENT (exit 0)" "$frc" 0
cat "$FDIR"/*.err >&2
flood_ops=$(cat "$FDIR"/*.out | awk '$1 == "ops" { s += $2 } END { print s + 0 }')
flood_rate=$(cat "$FDIR"/*.out | awk '$1 == "ops" { s += $2 / $NF } END { printf "%d", s }')
echo "# flood: $FLOODERS flooders sent $flood_ops failed stats, $flood_rate stats/s in total"
check "flood: more failed stats ($flood_ops) than the in-flight map has entries ($INFLIGHT_MAX)" \
	[ "$flood_ops" -gt "$INFLIGHT_MAX" ]

# --- 3. after the flood: the canary alone
a2=$(boundary)
r0=$(perf_counter 0 osd op_r)
t0=$(date +%s.%N)
check "after: canary ran without error" load canary $OBJS $AFTER_OPS
t1=$(date +%s.%N)
b2=$(boundary)
r1=$(perf_counter 0 osd op_r)
echo "# after: canary $(jq -n "$AFTER_OPS / ($t1 - $t0) | floor") stats/s (with python start-up)"
check_canary after "$(oh_window "$a2" "$b2" read)" $AFTER_OPS $((r1 - r0))
check_eq "after: nothing but reads traced" "$(oh_window_other "$a2" "$b2" read)" 0

# The OSD must be alive and must not have crashed, looked at before shutdown.
check "the OSD survived the flood" kill -0 "$PID0"
check "no crash report" [ -z "$(ls -A "$CLUSTER_DIR/crash" 2>/dev/null)" ]

# --- 4. stop osdhist: the final snapshot covers the rest
kill -INT $TPID
wait $TPID
check_eq "osdhist exits 0 on SIGINT" $? 0
run_secs=$((SECONDS - tstart))
grep -v "attached to ceph-osd" "$TERR" | sed 's/^/    /' >&2

total_err=$(oh_window 0 1000000 error)
check_eq "error count over the run = failed stats sent" "$total_err" "$flood_ops"
check_eq "writes over the run = setup puts" "$(oh_window 0 1000000 write)" $OBJS
# Every op is also in phase queue, flood or not.
for c in error read; do
	check_eq "$c: queue phase count = total phase count over the run" \
		"$(oh_window 0 1000000 $c queue)" "$(oh_window 0 1000000 $c)"
done

hl() { jq -s "[.[] | select(.type == \"health\")] | $1" "$TOUT"; }
nh=$(hl length)
maxin=$(hl 'map(.inflight) | max')
echo "# health: $nh lines, max inflight $maxin of $(hl 'last.inflight_max')"
check "health: osdhist kept printing (got $nh lines in $run_secs s)" [ "$nh" -ge $((run_secs / 2)) ]
# Failed ops end with no success end: they never get an entry.
check "health: inflight <= 64 in every line, flood or not (max $maxin)" [ "$maxin" -le 64 ]
check_eq "health: losses 0 in every line" "$(hl 'map(.losses) | max')" 0
check_eq "health: inflight 0 at the end" "$(hl last.inflight)" 0
check "health: entries made = entries removed at the end ($(hl last.entries))" \
	jq -e -n "$(hl last.entries) > 0 and $(hl last.entries) == $(hl last.removed)"
check_eq "health: every failed stat is an error end" "$(hl last.error_ends)" "$flood_ops"
check_eq "health: insert_failed 0" "$(hl last.insert_failed)" 0
finish
