#!/bin/bash
# Issue 24 (a bug): the keys of an exited OSD process are folded into
# osdhist's `retired` totals, then deleted from the maps.  With less room
# than dead keys in one snapshot, those left over were folded in again at
# the next snapshot: counted twice.  The room is as large as each map now;
# the test build's OSDHIST_TEST_DEAD_KEYS=1 shrinks it to one key per map
# and snapshot, so that keys must wait for later snapshots, and every count
# must still be exact.
#
# Three processes of one bluestore OSD in turn (osdhist without -p: a
# restarted process of the same binary is traced at once, and the rescan,
# every second, learns its OSD id while it works) (two restarts between two
# snapshots: two dead processes at once, each with several histogram keys
# and one op-code key), each serving K writes, K stats, K lock and K unlock calls.
# 8K ops in the second interval (two processes) fit --slowest 64: every op
# is a slot, so both processes' slots must be there, whatever their
# latencies (with 10 slots the first process's slower ops could take all).
. "$(dirname "$0")/../lib.sh"

TESTHOOKS=${TESTHOOKS:-$LIB_ROOT/build/osdhist-testhooks}
K=8
ID=$(random_first_id)
cluster_up --store bluestore --first-id "$ID" || { fail "cluster starts"; finish; }
LOAD="/usr/bin/python3 $(dirname "$0")/rados_load.py"

# no --osd: it would hide osd -1, the ops of processes osdhist could not
# name, where a key retired twice after its process was forgotten went
OSDHIST=$TESTHOOKS OSDHIST_TEST_DEAD_KEYS=1 oh_start --slowest 64 3600
oh_wait_attached || { cat "$TERR"; fail "osdhist attached"; finish; }

work() {	# TAG: K writes, K stats, K lock and K unlock calls (one client)
	$LOAD mixed "$1" $K >/dev/null
}
pids=()
for r in 0 1 2; do
	if [ $r -gt 0 ]; then
		"$CLUSTER_SH" restart-osd "$CLUSTER_DIR" "$ID" >/dev/null || { fail "restart $r"; finish; }
	fi
	pids+=("$(osd_pid "$ID")")
	w0=$(perf_counter "$ID" osd op_w) r0=$(perf_counter "$ID" osd op_r) rw0=$(perf_counter "$ID" osd op_rw)
	check "process $r: $K writes, stats, locks and unlocks" work "p$r"
	check_eq "process $r: Ceph counted them (op_w, op_r, op_rw)" \
		"$(($(perf_counter "$ID" osd op_w) - w0)) $(($(perf_counter "$ID" osd op_r) - r0)) $(($(perf_counter "$ID" osd op_rw) - rw0))" \
		"$K $K $((2 * K))"
	# a snapshot after the first process only: both later ones die unread
	[ $r = 0 ] && { oh_snap >/dev/null || fail "snapshot"; }
done
"$CLUSTER_SH" restart-osd "$CLUSTER_DIR" "$ID" >/dev/null || { fail "restart 3"; finish; }
# Every key of the three dead processes waits its turn, one per snapshot.
for _ in $(seq 12); do oh_snap >/dev/null || { fail "snapshot"; finish; }; done
kill -INT "$TPID"; wait "$TPID"; check_eq "osdhist exits 0 on SIGINT" $? 0

sum() { jq -s "[.[] | select(.type == \"hist\" and .osd == $ID and .class == \"$1\" and .phase == \"total\") | .count] | add // 0" "$TOUT"; }
check_eq "writes of the three processes: each counted once" "$(sum write)" $((3 * K))
check_eq "stats of the three processes: each counted once" "$(sum read)" $((3 * K))
check_eq "lock calls of the three processes: each counted once" "$(sum rw)" $((6 * K))
opc() { jq -s "[.[] | select(.type == \"opcode\" and .osd == $ID and .op == \"$1\")] | last | .ops_total // 0" "$TOUT"; }
check_eq "op code writefull: ops_total = 3 x $K" "$(opc writefull)" $((3 * K))
check_eq "op code stat: ops_total = 3 x $K" "$(opc stat)" $((3 * K))
# each process numbered its call names anew (issue 25): one series each
check_eq "op code call lock.lock: ops_total = 3 x $K" "$(opc "call lock.lock")" $((3 * K))
check_eq "op code call lock.unlock: ops_total = 3 x $K" "$(opc "call lock.unlock")" $((3 * K))
check_eq "no call op left unnamed" "$(opc call)" 0
check_eq "health: the dead processes' call names were deleted (keys_calls 0)" \
	"$(jq -s '[.[] | select(.type == "health")] | last | .keys_calls' "$TOUT")" 0
check_eq "no op of a process osdhist could not name (osd -1)" \
	"$(jq -s '[.[] | select(.type == "hist" and .osd == -1) | .count] | add // 0' "$TOUT")" 0
check_eq "health: unknown_proc_ops 0" \
	"$(jq -s '[.[] | select(.type == "health")] | last | .unknown_proc_ops' "$TOUT")" 0
# the slowest ops of the first process, and of the two that died unread
# (in one interval): named by their OSD, never osd -1, in two intervals
# (the proc table must not forget a dead process before its interval's
# slots are read); their keys deleted (other ceph-osd processes of the
# host may have keys of their own)
slots() { jq -s "[.[] | select(.type == \"slowop\" and (.name | startswith(\"canary.p\")))]" "$TOUT"; }
check_eq "slowest ops: every slot of the load's objects names osd.$ID" \
	"$(slots | jq "map(select(.osd != $ID)) | length")" 0
# every op a slot, but for the candidates the health line says were not kept
skipped=$(jq -s '[.[] | select(.type == "health")] | last | .slow_busy + .slow_late' "$TOUT")
counts=$(slots | jq -c 'group_by(.time) | map(length)')
check "slowest ops: every op a slot in the two intervals with ops ($counts of $((4 * K)), $((8 * K)); $skipped not kept)" \
	jq -ne --argjson c "$counts" --argjson k $K --argjson s "$skipped" \
		'$c | length == 2 and .[0] <= 4 * $k and .[1] <= 8 * $k and .[0] + .[1] + $s >= 12 * $k'
check_eq "slowest ops: the second interval's slots are the two processes' (p1, p2)" \
	"$(slots | jq -c 'group_by(.time) | .[1] | map(.name | split(".")[1]) | unique')" '["p1","p2"]'
check "health: the dead processes' slowest-op keys were deleted (keys_slowops <= other ceph-osd processes)" \
	test "$(jq -s '[.[] | select(.type == "health")] | last | .keys_slowops' "$TOUT")" -le $(($(pgrep -xc ceph-osd) - 1))
[ -z "${DK_KEEP:-}" ] || cp "$TOUT" "$DK_KEEP"
finish
