#!/bin/bash
# The per-CPU front rows and the shared tail (maps/osdhist.h): a key's ops
# are counted exactly whichever holds them, when the key moves from the
# tail to a front row, and when its process dies and the row is freed for
# another.  The test build gives the histograms and the op-code counters
# one front row each (OSDHIST_TEST_FRONT_ROWS=1), so that every move
# happens, each at a known point:
#   A  K canary writes: a new key, all in the tail (its process's keys of
#      the tail maps, read with bpftool, count K more ops; other OSDs of
#      the host may add to the host-wide tail_ops)
#   B  K more, after a snapshot gave the key the row: none in the tail
#   C  the OSD restarts, daemonizing: the next snapshot frees the dead
#      process's rows (no row in use, no key of it left in the front table)
#   D, E  as A and B for the new process
# Each step's writes are osd.ID's exactly (op_w), and B's op-code counts
# (all in a front row) equal A's (all in the tail): the same writes.
# One row for the whole host: another OSD traced beside ours could take
# it, so the test needs the host's OSDs to itself, and says so if not.
. "$(dirname "$0")/../lib.sh"

K=50
ID=$(random_first_id)
cluster_up --store bluestore --first-id "$ID" || { fail "cluster starts"; finish; }
OSDHIST=$LIB_ROOT/build/osdhist-testhooks
export OSDHIST_TEST_FRONT_ROWS=1
# --no-verify: the self-check reads the maps once a second, and each read
# may give a busy key its row; the steps need rows given only at their
# own snapshots (A's writes all in the tail).  The counts are checked
# against perf dump here, step by step.
oh_start --osd "$ID" --no-verify 3600
oh_wait_attached || { cat "$TERR"; fail "osdhist attached"; finish; }
check "the test hook is applied" grep -q "TEST HOOK: 1 front rows" "$TERR"

health_at() { head -n "$1" "$TOUT" | grep '"type":"health"' | tail -n 1 | jq ".$2"; }
canary() { /usr/bin/python3 "$(dirname "$0")/rados_load.py" writes "$1" "$K" >/dev/null; }
# op-code counts of osd.ID in lines FROM+1..TO, as "op=N,..." sorted
opcodes() {
	sed -n "$(($1 + 1)),$2p" "$TOUT" | jq -rs --argjson osd "$ID" '
		[.[] | select(.type == "opcode" and .osd == $osd)] | group_by(.op)
		| map("\(.[0].op)=\(map(.ops) | add)") | join(",")'
}
BSS=$(oh_map_id osdhist_.bss) HISTS=$(oh_map_id hists) OPCOUNTS=$(oh_map_id opcounts)
check "found osdhist's .bss, hists and opcounts maps ($BSS $HISTS $OPCOUNTS)" \
	[ -n "$BSS" -a -n "$HISTS" -a -n "$OPCOUNTS" ]
# the processes of the histogram keys in the front table (maps/osdhist.h:
# a word is row, tgid << 9, class << 31; class 7 is the op codes'), read
# with python: jq's numbers are doubles, a word has 62 bits
slot_tgids() {
	bpftool map dump id "$BSS" -j | python3 -c '
import json, sys
bss = {k: v for part in json.load(sys.stdin)[0]["formatted"]["value"][".bss"] for k, v in part.items()}
words = [w for s in bss["front_table"] for w in s["way"] if w and (w >> 31) & 7 != 7]
print(json.dumps(sorted((w >> 9) & (2**22 - 1) for w in words)).replace(" ", ""))'
}
# ops of process PID in the tail: histogram ops (phase total), op codes
tail_ops() {
	bpftool map dump id "$HISTS" -j | jq --argjson p "$1" \
		'[.[].formatted | select(.key.tgid == $p) | .value.buckets[0] | add] | add // 0'
}
tail_opc() {
	bpftool map dump id "$OPCOUNTS" -j | jq --argjson p "$1" \
		'[.[].formatted | select(.key == $p) | .value.ops | add] | add // 0'
}

# the host's ceph-osd processes at output line N: only ours, or fail
alone() {
	local n
	n=$(health_at "$1" osds)
	[ "$n" = 1 ] && return 0
	fail "$n ceph-osd processes on this host: the one-row test needs the host's OSDs to itself (run it alone)"
	finish
}

# step NAME TAG TAIL: K canary writes; checks exact counts, and that TAIL
# of them took the tail (K or 0), their op codes too
step() {
	local w0 w1 l0 l1 t0 t1 o0 o1 pid
	pid=$(osd_pid "$ID")
	w0=$(perf_counter "$ID" osd op_w)
	l0=$(oh_snap) || { fail "$1: snapshot"; finish; }
	t0=$(tail_ops "$pid") o0=$(tail_opc "$pid")
	canary "$2" || fail "$1: canary writes"
	w1=$(perf_counter "$ID" osd op_w)
	t1=$(tail_ops "$pid") o1=$(tail_opc "$pid")
	l1=$(oh_snap) || { fail "$1: snapshot"; finish; }
	alone "$l1"
	OPC=$(opcodes "$l0" "$l1") L1=$l1
	check_eq "$1: op_w delta = $K canaries" "$((w1 - w0))" "$K"
	check_eq "$1: osdhist writes of osd.$ID = op_w delta" "$(oh_count "$l0" "$l1" "$ID" write)" "$((w1 - w0))"
	check_eq "$1: nothing else on osd.$ID" "$(oh_count "$l0" "$l1" "$ID" "")" "$((w1 - w0))"
	check_eq "$1: ops of pid $pid that took the tail" "$((t1 - t0))" "$3"
	check_eq "$1: its op codes that took the tail" "$((o1 - o0))" \
		"$([ "$3" = 0 ] && echo 0 || sed 's/[^,]*=//g; s/,/+/g' <<<"$OPC" | bc)"
	check "$1: the host's tail_ops counted them too" \
		[ $(($(health_at "$l1" tail_ops) - $(health_at "$l0" tail_ops))) -ge "$3" ]
	check_eq "$1: one front row of one, after its snapshot" \
		"$(health_at "$l1" front_rows)/$(health_at "$l1" front_rows_max)" 1/1
	check_eq "$1: no op lost" "$(health_at "$l1" losses)" 0
}

step "A (tail)" a "$K"
opc_a=$OPC
step "B (front row)" b 0
check_eq "B's op-code counts (front) = A's (tail)" "$OPC" "$opc_a"
check "A's op codes were counted" [ -n "$opc_a" ]
old=$(osd_pid "$ID")
check_eq "the row is the OSD's" "$(slot_tgids)" "[$old]"

if ! "$CLUSTER_SH" restart-osd "$CLUSTER_DIR" "$ID" --daemonize >/dev/null; then
	fail "restart of osd.$ID"
	finish
fi
new=$(osd_pid "$ID")
while kill -0 "$old" 2>/dev/null; do sleep 0.05; done
wait_line "$TERR" "pid .* forked pid $new" "$TPID"
parent=$(cat "$CLUSTER_DIR/parent.osd.$ID")
while kill -0 "$parent" 2>/dev/null; do sleep 0.05; done	# the daemon's parent exits
l=$(oh_snap) || { fail "snapshot after the restart"; finish; }
alone "$l"
check_eq "C: the dead process's rows are free" \
	"$(health_at "$l" front_rows) $(health_at "$l" opc_rows)" "0 0"
check_eq "C: no key of it left in the front table" "$(slot_tgids)" "[]"
check_eq "C: the writes of both processes are osd.$ID's, each once" \
	"$(oh_count 0 "$l" "$ID" write)" "$((2 * K))"

step "D (tail, new process)" d "$K"
step "E (front row, new process)" e 0
check_eq "E's op-code counts = A's" "$OPC" "$opc_a"
check_eq "the row is the new process's" "$(slot_tgids)" "[$new]"
check_eq "every canary write counted once, under osd.$ID" "$(oh_count 0 "$L1" "$ID" write)" "$((4 * K))"
kill -INT "$TPID"; wait "$TPID"
check_eq "osdhist exits 0" "$?" 0
finish
