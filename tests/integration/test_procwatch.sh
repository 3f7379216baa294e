#!/bin/bash
# The rescan walks /proc only when bpf/'s process events say a process
# named like an OSD started, forked or exited (bpf/procwatch.bpf.h), and
# at least every 10 s.  With that 10 s walk pushed out of reach
# (OSDHIST_TEST_PROC_WALK_S, test build), only the events can show osdhist
# a process that comes or goes: a process claiming the OSD's id, started
# and then killed while osdhist traces, is a duplicate claim in the health
# line and then no more, and the OSD's ops stay its own.  Then the same
# without the events (OSDHIST_TEST_NO_PROC_EVENTS, as where raw
# tracepoints are refused): every rescan walks, and sees both.
. "$(dirname "$0")/../lib.sh"

TESTHOOKS=${TESTHOOKS:-$LIB_ROOT/build/osdhist-testhooks}
[ -x "$TESTHOOKS" ] || { fail "no $TESTHOOKS: run 'make build/osdhist-testhooks'"; finish; }
# shellcheck disable=SC2034  # lib.sh's oh_start runs $OSDHIST
OSDHIST=$TESTHOOKS
lib_mktemp W -d

ID=$(random_first_id)
cluster_up --osds 1 --first-id "$ID" || { fail "cluster start"; finish; }
FSID=$(cluster_fsid) PID=$(osd_pid "$ID")

# the last health line's claims of osd.ID: how many processes, or 0
claims() {
	jq -s --argjson o "$ID" '[.[] | select(.type == "health")] | last |
		[.duplicate_id_list[] | select(.osd == $o) | .processes] | add // 0' "$TOUT"
}
# until claims() is $1, at most 30 s (the event's walk comes within the
# 1 s rescan; the hook puts the other walk an hour away)
wait_claims() {
	for _ in $(seq 300); do
		[ "$(claims)" = "$1" ] && return 0
		kill -0 "$TPID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

for mode in events walks; do
	w0=$(perf_counter "$ID" osd op_w)
	if [ $mode = events ]; then
		OSDHIST_TEST_PROC_WALK_S=3600 oh_start --osd "$ID" -v 1
	else
		OSDHIST_TEST_PROC_WALK_S=3600 OSDHIST_TEST_NO_PROC_EVENTS=1 oh_start --osd "$ID" -v 1
	fi
	oh_wait_attached || { fail "$mode: osdhist attaches ($(head -c 300 "$TERR"))"; finish; }
	wait_line "$TOUT" '"type":"health"' "$TPID" || { fail "$mode: a first snapshot"; finish; }
	if [ $mode = events ]; then
		check "events: attached (no 'no process events' on stderr)" \
			bash -c "! grep -q 'no process events' '$TERR'"
	else
		check "walks: the test hook took the events away" \
			grep -q 'TEST HOOK: no process events' "$TERR"
	fi
	check_eq "$mode: before the claimant, osd.$ID has no duplicate claim" "$(claims)" 0

	fake_claimant "$W/$mode" --id "$ID" --fsid "$FSID" || fail "$mode: the claimant starts"
	DUP=$FAKE_PID
	check "$mode: a process claiming osd.$ID started while tracing is seen (2 processes claim it)" \
		wait_claims 2
	kill "$DUP"; wait "$DUP" 2>/dev/null
	check "$mode: once it is killed, osd.$ID has one process again" wait_claims 0

	# the OSD's own ops are still osd.ID's: every write of the run (none
	# but this one since w0, the cluster is otherwise idle)
	rados -p "$POOL" put "pw-$mode" /etc/hostname || fail "$mode: rados put"
	l=$(oh_snap) || { fail "$mode: snapshot"; finish; }
	kill -INT "$TPID"; wait "$TPID"
	check_eq "$mode: osdhist exits 0 on SIGINT" "$?" 0
	check_eq "$mode: osd.$ID's writes in osdhist = Ceph's op_w since it started (pid $PID)" \
		"$(oh_count 0 "$l" "$ID" write)" "$(($(perf_counter "$ID" osd op_w) - w0))"
done
finish
