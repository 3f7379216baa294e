#!/bin/bash
# Issue 8: --sample ON/PERIOD.  Under a steady load (paced, so that its rate
# does not depend on whether probes are attached) the sampled tracer sees
# the duty cycle's share of the ops, records exactly those received inside
# its windows, and draws the same histogram as a full tracer.
#
# Full and sampled tracers watch the same load at the same time: two OSDs,
# the load's objects half on each, a full tracer on one and a sampled one
# on the other, swapped from turn to turn.  Run one after the other, the two
# would also compare the host's drift between their turns (the sampled p99
# was seen two buckets below full in one such run, up to three above in
# others).
. "$(dirname "$0")/../lib.sh"

cluster_up --osds 2 || { fail "cluster start"; finish; }
OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
PIDS=("$(osd_pid 0)" "$(osd_pid 1)")
LOAD="/usr/bin/python3 $(dirname "$0")/rados_load.py"

# 8 objects whose primary is osd.0 and 8 on osd.1, stated in turn: the two
# OSDs serve the same ops at the same rate.
$LOAD put 48 >/dev/null || { fail "objects for the load"; finish; }
seq 0 47 | xargs -P 8 -I{} sh -c 'echo {} $(ceph osd map "$POOL" canary.{} -f json | jq .acting_primary)' \
	>"$CLUSTER_DIR/primaries"
on() { awk -v o="$1" '$2 == o {print "canary." $1}' "$CLUSTER_DIR/primaries" | head -8; }
mapfile -t OBJ0 < <(on 0)
mapfile -t OBJ1 < <(on 1)
[ ${#OBJ0[@]} = 8 ] && [ ${#OBJ1[@]} = 8 ] ||
	{ fail "48 objects do not give 8 with each primary: $(awk '{print $2}' "$CLUSTER_DIR/primaries" | sort | uniq -c | xargs)"; finish; }
OBJS=()
for i in $(seq 0 7); do OBJS+=("${OBJ0[$i]}" "${OBJ1[$i]}"); done

start() {	# NAME OSD ARGS...: osdhist in the background, waits for the attach
	local name=$1 osd=$2; shift 2
	"$OSDHIST" --json -p "${PIDS[$osd]}" "$@" >"$CLUSTER_DIR/$name.json" 2>"$CLUSTER_DIR/$name.err" &
	eval "${name}_pid=$!"
	for _ in $(seq 100); do
		grep -q "attached" "$CLUSTER_DIR/$name.err" && return 0
		sleep 0.1
	done
	fail "$name did not attach"; cat "$CLUSTER_DIR/$name.err"; finish
}
snap_of() {	# NAME: SIGUSR1, wait for the new health line, print the line count
	local f=$CLUSTER_DIR/$1.json pid n
	pid=$(eval echo "\$${1}_pid") n=$(grep -c '"type":"health"' "$f")
	kill -USR1 "$pid"
	for _ in $(seq 200); do
		[ "$(grep -c '"type":"health"' "$f")" -gt "$n" ] && { wc -l <"$f"; return; }
		sleep 0.02
	done
	echo 0
}
# Snapshot boundaries with SIGUSR1, the sampled OSD's op_r read on both
# sides (averaged): ops sent and ops traced cover the same stretch of time,
# and so do the full and the sampled tracer.
boundary() {	# FULL SAMPLED OSD -> "FULL_LINES SAMPLED_LINES OP_R"
	local a b nf ns
	a=$(perf_counter "$3" osd op_r); nf=$(snap_of "$1"); ns=$(snap_of "$2"); b=$(perf_counter "$3" osd op_r)
	echo "$nf $ns $(((a + b) / 2))"
}
between() {	# FILE FROM TO: the lines FROM+1 .. TO
	sed -n "$(($2 + 1)),$3p" "$1"
}

$LOAD paced 1500 120 "${OBJS[@]}" >"$CLUSTER_DIR/load.out" &
load_pid=$!
sleep 2
sent=0 traced=0 tsec=0 isec=0
: >"$CLUSTER_DIR/full.json"
: >"$CLUSTER_DIR/sampled.json"
for turn in 1 2 3 4; do
	s=$((turn % 2)) f=$(((turn + 1) % 2))	# the sampled OSD, the full one
	start "full$turn" $f 3600
	start "sampled$turn" $s --sample 1s/2s 2
	read -r f0 s0 r0 < <(boundary "full$turn" "sampled$turn" $s)
	sleep 8
	read -r f1 s1 r1 < <(boundary "full$turn" "sampled$turn" $s)
	kill -INT "$(eval echo "\$full${turn}_pid")" "$(eval echo "\$sampled${turn}_pid")"
	wait "$(eval echo "\$full${turn}_pid")"; check_eq "full osdhist $turn (osd.$f) exits 0" $? 0
	wait "$(eval echo "\$sampled${turn}_pid")"; check_eq "sampled osdhist $turn (osd.$s) exits 0" $? 0
	between "$CLUSTER_DIR/full$turn.json" "$f0" "$f1" >>"$CLUSTER_DIR/full.json"
	between "$CLUSTER_DIR/sampled$turn.json" "$s0" "$s1" >"$CLUSTER_DIR/part.json"
	cat "$CLUSTER_DIR/part.json" >>"$CLUSTER_DIR/sampled.json"
	part() { jq -s "$1" "$CLUSTER_DIR/part.json"; }
	sent=$((sent + r1 - r0))
	traced=$((traced + $(part '[.[] | select(.type=="hist" and .class=="read" and .phase=="total") | .count] | add // 0')))
	tsec=$(jq -n "$tsec + $(part '[.[] | select(.type=="health") | .traced_s] | add')")
	isec=$(jq -n "$isec + $(part '[.[] | select(.type=="health") | .interval_s] | add')")
done
kill -0 $load_pid && pass "the load ran through every turn" || fail "the load ended early"
kill $load_pid; wait $load_pid 2>/dev/null
S=$CLUSTER_DIR/sampled.json F=$CLUSTER_DIR/full.json

share=$(jq -n "$traced / $sent")
duty=$(jq -n "$tsec / $isec")
echo "# sampled tracers: $traced of $sent stats (share $share) in $tsec s traced of $isec s (duty $duty)"
check "sampled share of stats ($share) within 5 % of the duty cycle ($duty)" \
	jq -e -n "($share / $duty) > 0.95 and ($share / $duty) < 1.05"
check "several windows were sampled" [ "$(jq -s '[.[] | select(.type=="health" and .traced_s > 0)] | length' "$S")" -ge 9 ]
check "traced time is about 1 s in 2" jq -e -n "$duty > 0.4 and $duty < 0.55"

# Health of each sampled tracer (they are separate runs: check each one's last line).
for turn in 1 2 3 4; do
	f=$CLUSTER_DIR/sampled$turn.json
	h() { jq -s "[.[] | select(.type==\"health\")] | last | .$1" "$f"; }
	check_eq "sampled $turn: no op of a window ended after its drain" "$(h late)" 0
	check_eq "sampled $turn: no drain timed out" "$(h drain_timeout)" 0
	check_eq "sampled $turn: no loss at all" "$(h losses)" 0
	check "sampled $turn: ops outside the windows were seen and not recorded" \
		[ "$(h outside)" -gt 0 ]
done

# Same histogram: p50 and p99 of the sampled ops within one bucket of the
# full tracers', buckets merged over the turns (each tracer saw each OSD
# for the same time).
bucket='def b: if . < 256 then 0 else (. | log2 | floor) as $k | 1 + ($k - 8) * 8 + ((. / pow(2; $k - 3)) | floor) % 8 end;'
pct() {	# FILE Q -> value in ns from the merged buckets
	jq -s --argjson q "$2" '[.[] | select(.type=="hist" and .class=="read" and .phase=="total") | .buckets[]]
		| group_by(.[0]) | map([.[0][0], (map(.[1]) | add)]) | sort_by(.[0])
		| (map(.[1]) | add) as $n | reduce .[] as $b ({c: 0, v: null};
			if .v == null and (.c + $b[1]) >= $q * $n then .v = $b[0] else . end | .c += $b[1]) | .v - 1' "$1"
}
nf=$(jq -s '[.[] | select(.type=="hist" and .class=="read" and .phase=="total") | .count] | add' "$F")
echo "# full tracers: $nf stats in the same stretches of time"
for q in 0.5 0.99 0.999; do
	a=$(pct "$F" $q) b=$(pct "$S" $q)
	ia=$(jq -n "$bucket $a | b") ib=$(jq -n "$bucket $b | b")
	echo "# p$q: full $a ns (bucket $ia), sampled $b ns (bucket $ib)"
	[ $q = 0.999 ] ||	# 1 in 1000: a few dozen ops, printed only
		check "p$q of sampled within one bucket of full ($ia vs $ib)" [ $((ia - ib)) -le 1 -a $((ib - ia)) -le 1 ]
done
finish
