#!/bin/bash
# Several OSDs on one host, traced by one osdhist without -p (one binary, one
# set of uprobes): a histogram per OSD id, and each OSD's read/write/rw
# counts equal that OSD's own op_r/op_w/op_rw deltas, exactly.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
lib_mktemp WORK -d

# Ids no other cluster on this host uses: osdhist sees every ceph-osd here.
FIRST=$(random_first_id 3) || { fail "no free OSD ids"; finish; }
cluster_up --osds 3 --first-id "$FIRST" --pg 32 || { fail "cluster start"; finish; }
# Size 1: each PG lives on one OSD, so no replica sub-ops, and every client
# op is counted by exactly one OSD.
ceph osd pool set "$POOL" size 1 --yes-i-really-mean-it >/dev/null 2>&1
check "pool size 1" test "$(ceph osd pool get "$POOL" size -f json | jq .size)" = 1
check "PGs active+clean again" "$CLUSTER_SH" wait-clean "$CLUSTER_DIR" 60
echo "# OSD ids: $OSD_IDS"

"$OSDHIST" --json 3600 >"$WORK/out" 2>"$WORK/err" &
TPID=$!
# --osd FIRST: everything it prints or exports is osd.FIRST's (issue 24: the
# op codes, the op-type block, the verify lines and the Prometheus series
# of the other OSDs came through)
"$OSDHIST" --json --osd "$FIRST" 3600 >"$WORK/one.json" 2>"$WORK/one-j.err" &
OPID=$!
"$OSDHIST" --osd "$FIRST" --textfile "$WORK/one.prom" 3600 >"$WORK/one.txt" 2>"$WORK/one-t.err" &
XPID=$!
for f in err one-j.err one-t.err; do
	check "osdhist attached ($f)" wait_line "$WORK/$f" "attached to ceph-osd"
done

declare -A before after
for id in $OSD_IDS; do before[$id]=$(perf_dump "$id"); done
rados -p "$POOL" bench 4 write -b 4096 -t 16 --no-cleanup >/dev/null
rados -p "$POOL" bench 3 seq -t 16 >/dev/null
echo hello >"$WORK/obj"
for i in $(seq 10); do
	rados -p "$POOL" put "obj$i" "$WORK/obj"
	rados -p "$POOL" stat "obj$i" >/dev/null
done
for i in 1 2 3 4 5 6; do rados -p "$POOL" lock get "obj$i" mylock; done
for id in $OSD_IDS; do after[$id]=$(perf_dump "$id"); done
kill -INT $TPID $OPID $XPID
wait $TPID
check_eq "osdhist exits 0 on SIGINT" "$?" 0
wait $OPID; check_eq "osdhist --osd --json exits 0" "$?" 0
wait $XPID; check_eq "osdhist --osd --textfile exits 0" "$?" 0
others=$(tr ' ' '\n' <<<"$OSD_IDS" | grep -vx "$FIRST" | paste -sd'|')
check "--osd $FIRST --json: hist, optype, opcode and verify lines, all of osd.$FIRST" bash -c "
	for t in hist optype opcode verify; do
		jq -se --arg t \$t 'map(select(.type == \$t)) | length > 0' '$WORK/one.json' >/dev/null || exit 1
	done
	jq -se 'map(select(has(\"osd\") and .osd != $FIRST)) | length == 0' '$WORK/one.json' >/dev/null"
check "--osd $FIRST text: osd.$FIRST's op types are there" grep -q "^osd\.$FIRST op types:" "$WORK/one.txt"
check "--osd $FIRST text: no line names another OSD" bash -c "! grep -qE 'osd\.($others)([^0-9]|\$)' '$WORK/one.txt'"
check "--osd $FIRST --textfile: osd.$FIRST's op-code series are there" \
	grep -q "^osdhist_op_code_ops_total{ceph_daemon=\"osd.$FIRST\"" "$WORK/one.prom"
check "--osd $FIRST --textfile: no series of another OSD" \
	bash -c "! grep -qE 'ceph_daemon=\"osd\.($others)\"' '$WORK/one.prom'"

oh_count() { jq -s "[.[] | select(.type==\"hist\" and .osd==$1 and .class==\"$2\" and .phase==\"total\") | .count] | add // 0" "$WORK/out"; }
delta() { echo $(( $(jq ".osd.$2" <<<"${after[$1]}") - $(jq ".osd.$2" <<<"${before[$1]}") )); }
for id in $OSD_IDS; do
	for c in r w rw; do
		case $c in r) cls="read" ;; w) cls="write" ;; rw) cls=rw ;; esac
		check_eq "osd.$id: osdhist $cls = op_$c delta ($(delta "$id" op_$c))" \
			"$(oh_count "$id" "$cls")" "$(delta "$id" op_$c)"
	done
	check "osd.$id got writes ($(delta "$id" op_w)) and reads ($(delta "$id" op_r))" \
		test "$(delta "$id" op_w)" -gt 0 -a "$(delta "$id" op_r)" -gt 0
	check_eq "osd.$id: no replica sub-op (size 1)" "$(oh_count "$id" subop)" 0
done
rw=0
for id in $OSD_IDS; do rw=$((rw + $(delta "$id" op_rw))); done
check_eq "the rw ops (lock get) were counted somewhere" "$rw" 6
finish
