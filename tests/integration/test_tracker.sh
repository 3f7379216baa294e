#!/bin/bash
# Issue 12: the catch-all end must fire whatever the OSD's options.  With
# osd_enable_op_tracker switched off at run time, OpTracker::
# unregister_inflight_op never runs; OpRequest::_unregistered does.  A mixed
# workload with missing-object stats runs while the tracker goes off and back
# on: read / write exact against perf dump, every failed op in "error", the
# in-flight map back to empty, and no loss unreported.
. "$(dirname "$0")/../lib.sh"

cluster_up --osds 1
PID0=$(osd_pid 0)
ASOK=$(osd_asok 0)

tracker() { ceph --admin-daemon "$ASOK" config set osd_enable_op_tracker "$1" >/dev/null; }
tracker_is() { ceph --admin-daemon "$ASOK" config get osd_enable_op_tracker | jq -r .osd_enable_op_tracker; }
oh_total() { jq -s --arg c "$1" '[.[] | select(.type=="hist" and .osd==0 and .class==$c and .phase=="total") | .count] | add // 0' "$TOUT"; }
oh_health() { jq -s "[.[] | select(.type==\"health\")] | last | .$1" "$TOUT"; }

# The workload's ops have all been answered when it returns, but a done mark
# leaves the in-flight map only at the op's catch-all end (_unregistered),
# which runs after the reply, when Ceph drops its last reference.  Take
# snapshots (each read after its call) until one shows the map empty; 30 s
# bounds a wait that takes ms.  The checks then are exact.
wait_inflight_empty() {
	local l deadline=$((SECONDS + 30))
	while [ $SECONDS -lt $deadline ]; do
		l=$(oh_snap) || return 1
		[ "$(head -n "$l" "$TOUT" | grep '"type":"health"' | tail -n 1 | jq .inflight)" = 0 ] && return 0
		sleep 0.1
	done
	return 1
}

# One round of the mixed workload; adds the ops that must fail to $errors.
errors=0
workload() { # TAG
	echo data > "$CLUSTER_DIR/obj"
	rados -p "$POOL" bench 2 write -b 4096 -t 8 --no-cleanup --run-name "r$1" >/dev/null
	rados -p "$POOL" bench 2 seq -t 8 --run-name "r$1" >/dev/null
	rados -p "$POOL" put "o$1" "$CLUSTER_DIR/obj"
	rados -p "$POOL" setomapval "o$1" k v
	rados -p "$POOL" getomapval "o$1" k >/dev/null
	for i in $(seq 10); do
		rados -p "$POOL" stat "missing.$1.$i" 2>/dev/null && fail "stat of a missing object succeeded"
		errors=$((errors + 1))
	done
	rados -p "$POOL" rm "missing.$1" 2>/dev/null; errors=$((errors + 1))
	rados -p "$POOL" getxattr "o$1" nosuchattr 2>/dev/null; errors=$((errors + 1))
}

# How often OpTracker::unregister_inflight_op (the old catch-all) runs in
# our OSD between bt_start and bt_stop: it must stop with the tracker off.
# The count is read from bpftrace's ticks, not from its END: on a loaded
# host (another suite moving probes on the same ceph-osd inode, a bench)
# bpftrace once took over 30 s to detach and run END after SIGINT, and its
# exit time says nothing about the count.
lib_mktemp BT
bt_start() {
	bpftrace -e "uprobe:/proc/$PID0/exe:_ZN9OpTracker22unregister_inflight_opEP9TrackedOp
		/pid == $PID0/ { @n++; }
		BEGIN { @tick = 0; @n = 0; printf(\"go\\n\"); }
		interval:ms:200 { @tick++; printf(\"tick %d calls %d\\n\", @tick, @n); }" >"$BT" 2>&1 &
	BTPID=$!
	# bpftrace resolves the symbol in ceph-osd and attaches before BEGIN
	# runs: seconds, many more on a loaded machine (60 s at most)
	for _ in $(seq 600); do
		grep -q go "$BT" && return 0
		kill -0 $BTPID 2>/dev/null || break
		sleep 0.1
	done
	echo "bpftrace did not start in 60 s:" >&2
	cat "$BT" >&2
}
# The count of the second tick after now: that one fired after every call
# made before bt_stop (the first may have been taken just before now).
bt_stop() { # sets CALLS (not in $(...): wait needs this shell)
	local want
	want=$(( $(awk '$1 == "tick" { t = $2 } END { print t + 0 }' "$BT") + 2 ))
	CALLS=
	for _ in $(seq 600); do
		CALLS=$(awk -v w=$want '$1 == "tick" && $2 >= w { print $4; exit }' "$BT")
		[ -n "$CALLS" ] && break
		kill -0 $BTPID 2>/dev/null || break
		sleep 0.1
	done
	[ -n "$CALLS" ] || { echo "bpftrace printed no tick $want in 60 s:" >&2; cat "$BT" >&2; }
	kill -INT $BTPID
	for _ in $(seq 300); do kill -0 $BTPID 2>/dev/null || break; sleep 0.1; done
	if kill -0 $BTPID 2>/dev/null; then
		echo "# bpftrace did not stop on SIGINT in 30 s (the count was read before): killed"
		kill -KILL $BTPID
	fi
	wait $BTPID
}

before=$(perf_dump 0)
oh_start -p "$PID0" 3600
oh_wait_attached || { cat "$TERR" >&2; fail "osdhist did not attach"; finish; }

bt_start; workload on1; bt_stop; n=$CALLS
# at least once per op the round counts (put, setomapval, getomapval, 10
# stats, rm, getxattr), besides the time-boxed benches' ops
check "tracker on: unregister_inflight_op ran ($n times, >= 15)" [ "${n:-0}" -ge 15 ]
tracker false
check_eq "the op tracker is off" "$(tracker_is)" false
bt_start; workload off; bt_stop; n=$CALLS
check_eq "tracker off: unregister_inflight_op never ran" "$n" 0
tracker true
check_eq "the op tracker is on again" "$(tracker_is)" true
workload on2
check "the in-flight map emptied after the workload" wait_inflight_empty
after=$(perf_dump 0)
kill -INT "$TPID"; wait "$TPID"; TRC=$?
check_eq "osdhist exits 0 on SIGINT" "$TRC" 0

d() { echo $(( $(jq ".osd.$1" <<<"$after") - $(jq ".osd.$1" <<<"$before") )); }
check_eq "read = op_r delta" "$(oh_total read)" "$(d op_r)"
check_eq "write = op_w delta" "$(oh_total write)" "$(d op_w)"
check_eq "rw = op_rw delta" "$(oh_total rw)" "$(d op_rw)"
# counted: 3 rounds of put + setomapval (op_w) and getomapval (op_r)
check "the workload made reads ($(d op_r) >= 3) and writes ($(d op_w) >= 6)" [ "$(d op_r)" -ge 3 -a "$(d op_w)" -ge 6 ]
check_eq "error: every failed op, tracker on or off ($errors)" "$(oh_total error)" "$errors"
check_eq "nothing lost" "$(oh_health losses)" 0
check_eq "in-flight map empty at the end" "$(oh_health inflight)" 0
check_eq "every in-flight entry removed at its op's end" \
	"$(oh_health entries)" "$(oh_health removed)"
check_eq "every done mark found room in the mark table" "$(oh_health marks_spilled)" 0

# The spill path: the test build with no way of the mark table in use puts
# every done mark in the in-flight LRU map, as a full set would.
TESTHOOKS=${TESTHOOKS:-$LIB_ROOT/build/osdhist-testhooks}
[ -x "$TESTHOOKS" ] || { fail "no $TESTHOOKS: run 'make build/osdhist-testhooks'"; finish; }
errors=0
before=$(perf_dump 0)
OSDHIST_TEST_MARK_WAYS=0 OSDHIST=$TESTHOOKS oh_start -p "$PID0" 3600
oh_wait_attached || { cat "$TERR" >&2; fail "osdhist-testhooks did not attach"; finish; }
check "spill: the test hook is on" grep -q "0 of 4 ways of each mark set" "$TERR"
workload spill
check "spill: the in-flight map emptied after the workload" wait_inflight_empty
after=$(perf_dump 0)
kill -INT "$TPID"; wait "$TPID"; TRC=$?
check_eq "spill: osdhist exits 0 on SIGINT" "$TRC" 0
check_eq "spill: read = op_r delta" "$(oh_total read)" "$(d op_r)"
check_eq "spill: write = op_w delta" "$(oh_total write)" "$(d op_w)"
check_eq "spill: rw = op_rw delta" "$(oh_total rw)" "$(d op_rw)"
check_eq "spill: error: every failed op ($errors)" "$(oh_total error)" "$errors"
check_eq "spill: every done mark spilled" "$(oh_health marks_spilled)" "$(oh_health done)"
check_eq "spill: every spilled mark removed at its op's end" \
	"$(oh_health entries)" "$(oh_health removed)"
check_eq "spill: nothing lost" "$(oh_health losses)" 0
check_eq "spill: in-flight map empty at the end" "$(oh_health inflight)" 0
check "the OSD survived tracing" kill -0 "$PID0"
finish
