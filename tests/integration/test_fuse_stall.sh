#!/bin/bash
# Issue 37: nothing a process's root holds may stall osdhist.  Two fake
# OSDs (fuse_stall.py) have a FUSE mount in their root that, once they run,
# answers no request: one's config is there, the other's binary.  Every
# path lookup, config read and binary inspection osdhist makes in a root
# runs in a reader with a deadline (loader/util/job.h), so:
#   - the snapshots keep coming: no gap between two longer than the
#     interval + 0.5 s;
#   - the real OSD next to them is counted exactly (op_w, op_r);
#   - the fakes are named: the binary "did not answer within 10 s", the
#     config "did not answer within 5 s", and the self-check of the traced
#     fake is unverified with that reason (then backed off);
#   - SIGTERM ends osdhist within 1 s, its readers stuck on the mount
#     or not, and none of them outlives the mount's server.
. "$(dirname "$0")/../lib.sh"

INTERVAL=1
K=60
lib_mktemp W -d
ID=$(random_first_id)
cluster_up --osds 1 --first-id "$ID" || { fail "cluster starts"; finish; }
FAKE=$(random_first_id 2)

unshare -m --propagation private /usr/bin/python3 "$(dirname "$0")/fuse_stall.py" "$W" "$FAKE" \
	>"$W/fakes.out" 2>"$W/fakes.err" &
FPID=$!
wait_line "$W/fakes.out" "^ready " "$FPID" || { cat "$W/fakes.err"; fail "the fakes are up"; finish; }
read -r _ PID_A PID_B <"$W/fakes.out"
echo "# fake osd.$FAKE (config on the stalled mount): pid $PID_A; fake osd.$((FAKE + 1)) (binary there): pid $PID_B"
# (no stat of it here to show it: that stat would wait, unkillable, until
# the mount's server goes)

T0=$(date +%s.%N)
oh_start "$INTERVAL"
oh_wait_attached || { cat "$TERR"; fail "osdhist attached"; finish; }
w0=$(perf_counter "$ID" osd op_w) r0=$(perf_counter "$ID" osd op_r)
l0=$(oh_snap) || { fail "snapshot"; finish; }
/usr/bin/python3 "$(dirname "$0")/rados_load.py" put "$K" >/dev/null || fail "writes"
/usr/bin/python3 "$(dirname "$0")/rados_load.py" canary "$K" "$K" >/dev/null || fail "reads"
w1=$(perf_counter "$ID" osd op_w) r1=$(perf_counter "$ID" osd op_r)
l1=$(oh_snap) || { fail "snapshot"; finish; }
check_eq "the real osd.$ID: op_w delta = $K" "$((w1 - w0))" "$K"
check_eq "osdhist writes of osd.$ID = op_w delta" "$(oh_count "$l0" "$l1" "$ID" write)" "$((w1 - w0))"
check_eq "osdhist reads of osd.$ID = op_r delta" "$(oh_count "$l0" "$l1" "$ID" read)" "$((r1 - r0))"

check "the binary on the mount: named as stalled (within 60 s)" \
	wait_line "$TERR" "cannot trace pid $PID_B: its binary .* did not answer within 10 s" "$TPID"
check "the config on the mount: named as stalled (within 60 s)" \
	wait_line "$TERR" "pid $PID_A: its config did not answer within 5 s" "$TPID"
ok=false
for _ in $(seq 60); do
	jq -se --argjson o "$FAKE" 'any(.[]; .type == "verify" and .osd == $o and
		.state == "unverified" and (.reason | test("did not answer")))' "$TOUT" >/dev/null 2>&1 &&
		{ ok=true; break; }
	sleep 1
done
check "the traced fake's self-check: unverified, its config or socket did not answer (within 60 s): $(
	jq -c --argjson o "$FAKE" 'select(.type == "verify" and .osd == $o) | .reason' "$TOUT" | tail -n 1)" $ok
sleep 3		# a few more snapshots with the readers stuck

t=$(date +%s.%N)
kill -TERM "$TPID"
wait "$TPID"
rc=$?
dt=$(awk -v a="$t" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
check_eq "osdhist exits 0 on SIGTERM" "$rc" 0
check "... within 1 s ($dt s)" awk -v d="$dt" 'BEGIN { exit !(d < 1) }'

# the gaps between snapshots, from the first to SIGTERM
gaps=$(jq -r 'select(.type == "health") | .time' "$TOUT" |
	awk 'NR > 1 { g = $1 - p; if (g > m) m = g } { p = $1; n++ } END { printf "%d %.3f", n, m }')
read -r nsnap worst <<<"$gaps"
echo "# $nsnap snapshots in $(awk -v a="$T0" -v b="$t" 'BEGIN { printf "%.1f", b - a }') s, the worst gap $worst s"
check "no gap between snapshots longer than $INTERVAL + 0.5 s (worst $worst s, $nsnap snapshots)" \
	awk -v w="$worst" -v n="$nsnap" -v i="$INTERVAL" 'BEGIN { exit !(n >= 10 && w <= i + 0.5) }'
check "no reader refused for too many stuck ones" \
	bash -c "! grep -q 'too many readers' '$TERR'"
stuck=$(pgrep -f "^$OSDHIST --json $INTERVAL\$" | xargs)
echo "# osdhist readers still waiting on the mount after osdhist exited: ${stuck:-none}"
# the binary, the traced fake's cluster and its admin socket: one reader
# each stalls, however long osdhist runs, not one per try
check "at most 3 readers stuck, one per stalled read ($(wc -w <<<"$stuck"))" \
	[ "$(wc -w <<<"$stuck")" -le 3 ]
# a stuck reader outlives osdhist: it holds none of its descriptors, so
# no BPF link (the OSD's uprobes) nor map stays with it
bpf=0
for p in $stuck; do
	bpf=$((bpf + $(find "/proc/$p/fd" -mindepth 1 -printf '%l\n' 2>/dev/null | grep -c 'anon_inode:bpf')))
done
check_eq "the stuck readers hold no BPF link, program or map" "$bpf" 0

# the mount's server goes: what waited on it ends
kill -TERM "$FPID"
wait "$FPID"
left=
for _ in $(seq 100); do
	left=$(pgrep -f "^$OSDHIST --json $INTERVAL\$" | xargs)
	[ -z "$left" ] && break
	sleep 0.1
done
check_eq "no osdhist reader outlives the mount's server" "$left" ""
check "osd.$ID survived" kill -0 "$(osd_pid "$ID")"
finish
