#!/bin/bash
# Issue 3: client-op counts exact against the OSD's own perf counters, on a
# real throwaway cluster; latency means close to Ceph's own.
. "$(dirname "$0")/../lib.sh"

cluster_up --osds 1
PID0=$(osd_pid 0)

# Only our OSD (-p): other clusters may run on this host, with an osd.0 too.
# Starts osdhist in the background (JSON, one long interval: everything lands
# in the final snapshot at SIGINT) and waits until its probes are attached.
tracer_start() {
	oh_start -p "$PID0" "$@" 3600
	oh_wait_attached && return 0
	cat "$TERR" >&2
	fail "osdhist did not attach"
	finish
}

tracer_stop() {
	kill -INT $TPID
	wait $TPID
	TRC=$?
}

# Sum of osdhist's counts of one class over all snapshots (osd.N).
oh_count() { jq -s "[.[] | select(.type==\"hist\" and .osd==$1 and .class==\"$2\" and .phase==\"total\") | .count] | add // 0" "$TOUT"; }
oh_sum() { jq -s "[.[] | select(.type==\"hist\" and .osd==$1 and .class==\"$2\" and .phase==\"total\") | .sum_ns] | add // 0" "$TOUT"; }
oh_health() { jq -s "[.[] | select(.type==\"health\")] | last | .$1" "$TOUT"; }

# Latency of class CLS (read|write) against Ceph's own op_r_latency or
# op_w_latency between two perf dumps (lib.sh: check_latency_sum).
check_mean() {	# CLS C BEFORE AFTER WAIT0 WAIT1
	local cnt ceph_ns
	cnt=$(jq -n "($4).osd.op_${2}_latency.avgcount - ($3).osd.op_${2}_latency.avgcount")
	ceph_ns=$(jq -n "(($4).osd.op_${2}_latency.sum - ($3).osd.op_${2}_latency.sum) * 1e9")
	check_latency_sum "$1" "$1" "$ceph_ns" "$(oh_sum 0 "$1")" "$cnt" $(($6 - $5))
}

# --- 1. rados bench write alone: "Total writes made" is what osdhist saw.
before=$(perf_dump 0) wait0=$(sched_wait "$PID0")
w0=$(jq .osd.op_w <<<"$before")
tracer_start
made=$(rados -p "$POOL" bench 4 write -b 4096 -t 16 --no-cleanup | awk '/Total writes made/{print $4}')
after=$(perf_dump 0) wait1=$(sched_wait "$PID0")
w1=$(jq .osd.op_w <<<"$after")
tracer_stop
check "osdhist exits 0 on SIGINT" [ "$TRC" = 0 ]
wr=$(oh_count 0 write)
# rados bench also writes one benchmark_last_metadata object at the end.
check "bench: op_w delta ($((w1 - w0))) = writes made ($made) + 1 metadata write" \
	[ $((w1 - w0)) = $((made + 1)) ]
check "bench: osdhist write count ($wr) = op_w delta ($((w1 - w0)))" [ "$wr" = $((w1 - w0)) ]
check "bench: no other class seen" [ "$(jq -s '[.[] | select(.type=="hist" and .class!="write")] | length' "$TOUT")" = 0 ]
check_mean write w "$before" "$after" "$wait0" "$wait1"

# --- 2. mixed workload: read, write, rw exact; errors in "error" only.
before=$(perf_dump 0) wait0=$(sched_wait "$PID0")
tracer_start
rados -p "$POOL" bench 3 seq -t 16 >/dev/null
rados -p "$POOL" bench 3 rand -t 16 >/dev/null
echo hello > "$CLUSTER_DIR/obj"
rados -p "$POOL" put obj1 "$CLUSTER_DIR/obj"
rados -p "$POOL" stat obj1 >/dev/null
errors=0
for i in 1 2 3 4 5; do
	rados -p "$POOL" stat "missing$i" 2>/dev/null && fail "stat of a missing object succeeded"
	errors=$((errors + 1))
done
rados -p "$POOL" get obj1 "$CLUSTER_DIR/got"
rados -p "$POOL" get missing "$CLUSTER_DIR/got" 2>/dev/null; errors=$((errors + 1))
rados -p "$POOL" rm obj1
rados -p "$POOL" rm missing 2>/dev/null; errors=$((errors + 1))
rados -p "$POOL" setomapval o2 k v
rados -p "$POOL" getomapval o2 k >/dev/null
rados -p "$POOL" listomapkeys o2 >/dev/null
rados -p "$POOL" setxattr o2 attr val
rados -p "$POOL" getxattr o2 attr >/dev/null
rados -p "$POOL" getxattr o2 nosuchattr 2>/dev/null; errors=$((errors + 1))
rados -p "$POOL" lock get o2 mylock
rados -p "$POOL" lock info o2 mylock >/dev/null
sleep 0.5
after=$(perf_dump 0) wait1=$(sched_wait "$PID0")
tracer_stop
check "osdhist exits 0 on SIGINT" [ "$TRC" = 0 ]

d() { echo $(( $(jq ".osd.$1" <<<"$after") - $(jq ".osd.$1" <<<"$before") )); }
for c in r w rw; do
	case $c in r) cls=read ;; w) cls=write ;; rw) cls=rw ;; esac
	want=$(d op_$c) got=$(oh_count 0 $cls)
	check "mixed: osdhist $cls ($got) = op_$c delta ($want)" [ "$got" = "$want" ]
done
check "mixed: each class was exercised" [ "$(d op_r)" -gt 1000 -a "$(d op_w)" -gt 3 -a "$(d op_rw)" -ge 1 ]
got=$(oh_count 0 error)
check "mixed: error count ($got) = ops that failed ($errors)" [ "$got" = "$errors" ]

check_mean read r "$before" "$after" "$wait0" "$wait1"

check "health: nothing lost" [ "$(oh_health losses)" = 0 ]
check "health: in-flight map empty after the workload" [ "$(oh_health inflight)" = 0 ]
check "health: every in-flight entry removed at its op's end" \
	[ "$(oh_health entries)" = "$(oh_health removed)" ]
check "health: every success end left an entry" [ "$(oh_health entries)" = "$(oh_health done)" ]
# --- 3. perf-event uprobes (what kernels before 6.6 get): the same counts.
w0=$(perf_counter 0 osd op_w) r0=$(perf_counter 0 osd op_r)
tracer_start --perf-uprobes
check "--perf-uprobes: its probes are perf events" \
	bash -c "'$LIB_ROOT/scripts/uprobes.sh' $TPID | grep -q '^perf ' && ! '$LIB_ROOT/scripts/uprobes.sh' $TPID | grep -q '^multi '"
rados -p "$POOL" bench 2 write -b 4096 -t 16 --no-cleanup >/dev/null
rados -p "$POOL" bench 2 rand -t 16 >/dev/null
sleep 0.5
w1=$(perf_counter 0 osd op_w) r1=$(perf_counter 0 osd op_r)
tracer_stop
check_eq "--perf-uprobes: write = op_w delta" "$(oh_count 0 write)" $((w1 - w0))
check_eq "--perf-uprobes: read = op_r delta" "$(oh_count 0 read)" $((r1 - r0))
check "the OSD survived tracing" kill -0 "$PID0"
finish
