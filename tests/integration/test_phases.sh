#!/bin/bash
# Issue 5: phases and replica sub-ops on 2 OSDs with a size-2 pool, and the
# per-pool split.  Each OSD's counts equal its own perf counters exactly.
. "$(dirname "$0")/../lib.sh"

FIRST=$((RANDOM % 800 + 100))	# our OSD ids; other clusters may run here
cluster_up --osds 2 --first-id $FIRST || { fail "cluster start"; finish; }
OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
read -r A B <<<"$OSD_IDS"
check_eq "pool has size 2" "$(ceph osd pool get "$POOL" size -f json | jq .size)" 2

tracer_start() {
	TOUT=$(mktemp -p "$CLUSTER_DIR") TERR=$(mktemp -p "$CLUSTER_DIR")
	"$OSDHIST" --json "$@" 3600 >"$TOUT" 2>"$TERR" &
	TPID=$!
	wait_line "$TERR" "attached to ceph-osd" $TPID && return 0
	cat "$TERR" >&2
	fail "osdhist did not attach"
	finish
}
tracer_stop() { kill -INT $TPID; wait $TPID; check_eq "osdhist exits 0 on SIGINT" $? 0; }

# jq over osdhist's hist lines: q OSD CLASS PHASE FIELD [extra filter]
q() { jq -s "[.[] | select(.type==\"hist\" and .osd==$1 and .class==\"$2\" and .phase==\"$3\") $5 | .$4] | add // 0" "$TOUT"; }

workload() {
	rados -p "$POOL" bench 3 write -b 4096 -t 16 --no-cleanup >/dev/null
	rados -p "$POOL" bench 2 seq -t 16 >/dev/null
	echo x >"$CLUSTER_DIR/obj"
	for i in 1 2 3; do rados -p "$POOL" put "o$i" "$CLUSTER_DIR/obj"; done
	rados -p "$POOL" setomapval o1 k v
	rados -p "$POOL" stat missing 2>/dev/null
	rados -p "$POOL" lock get o2 "l$RANDOM"
	sleep 0.5
}

declare -A before
snap() { for id in $A $B; do before[$id]=$(perf_dump "$id"); done; }
delta() { echo $(( $(perf_counter "$1" osd "$2") - $(jq ".osd.$2" <<<"${before[$1]}") )); }

# Counts per OSD: read/write/rw/subop against op_r/op_w/op_rw/subop_w.
check_counts() {	# MODE
	local id want got
	for id in $A $B; do
		for pair in read:op_r write:op_w rw:op_rw subop:subop_w; do
			want=$(delta "$id" "${pair#*:}") got=$(q "$id" "${pair%%:*}" total count)
			check_eq "$1: osd.$id ${pair%%:*} = ${pair#*:} delta ($want)" "$got" "$want"
		done
		check "$1: osd.$id did writes and sub-ops" [ "$(delta "$id" op_w)" -gt 0 -a "$(delta "$id" subop_w)" -gt 0 ]
	done
}

# Phase sanity per OSD and class: every phase has total's count (commit:
# the write classes), and the parts never add up to more than the total.
check_phases() {	# MODE PHASES...
	local mode=$1 id cls ph tc tsum parts; shift
	for id in $A $B; do
		for cls in read write subop; do
			tc=$(q "$id" $cls total count) tsum=$(q "$id" $cls total sum_ns) parts=0
			for ph in "$@"; do
				# only client writes submit a transaction; a replica
				# sub-op's commit is its end, so it has no commit phase
				[ $ph = commit ] && [ $cls != write ] && continue
				check_eq "$mode: osd.$id $cls $ph count = total count" "$(q "$id" $cls $ph count)" "$tc"
				parts=$((parts + $(q "$id" $cls $ph sum_ns)))
			done
			check "$mode: osd.$id $cls: sum of ${*// /+} ($parts ns) <= total ($tsum ns)" [ "$parts" -le "$tsum" ]
		done
	done
}

# --- default mode: total and queue
snap
tracer_start
workload
tracer_stop
check_counts default
check_phases default queue
check "default: only phases total and queue" [ "$(jq -s '[.[] | select(.type=="hist") | .phase] | unique | join(",")' -r "$TOUT")" = "queue,total" ]

# --- --phases: queue, execute, commit
snap
tracer_start --phases
workload
tracer_stop
check_counts phases
check_phases phases queue execute commit
for id in $A $B; do
	check "phases: osd.$id commit latency of writes > 0" [ "$(q "$id" write commit sum_ns)" -gt 0 ]
done

# --- -P: per-pool histograms; two pools, each matching its own bench
ceph osd pool create second 8 8 >/dev/null 2>&1
ceph osd pool application enable second rados >/dev/null 2>&1
"$LIB_ROOT"/scripts/cluster.sh wait-clean "$CLUSTER_DIR" 60 >/dev/null
P1=$(ceph osd pool ls detail -f json | jq ".[] | select(.pool_name==\"$POOL\") | .pool_id")
P2=$(ceph osd pool ls detail -f json | jq '.[] | select(.pool_name=="second") | .pool_id')
tracer_start -P
m1=$(rados -p "$POOL" bench 2 write -b 4096 -t 8 --no-cleanup | awk '/Total writes made/{print $4}')
m2=$(rados -p second bench 2 write -b 4096 -t 8 --no-cleanup | awk '/Total writes made/{print $4}')
sleep 0.5
tracer_stop
pw() { jq -s "[.[] | select(.type==\"hist\" and .pool==$1 and .class==\"write\" and .phase==\"total\" and (.osd==$A or .osd==$B)) | .count] | add // 0" "$TOUT"; }
# rados bench writes one more object at the end (benchmark_last_metadata)
check_eq "pool split: pool $P1 writes = bench writes + 1" "$(pw "$P1")" $((m1 + 1))
check_eq "pool split: pool $P2 writes = bench writes + 1" "$(pw "$P2")" $((m2 + 1))
check "pool split: sub-ops carry the pool too" [ "$(jq -s "[.[] | select(.type==\"hist\" and .class==\"subop\" and .pool==$P2)] | length" "$TOUT")" -gt 0 ]
check "pool split: every hist line has a pool" [ "$(jq -s '[.[] | select(.type=="hist" and (has("pool") | not))] | length' "$TOUT")" = 0 ]
finish
