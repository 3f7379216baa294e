#!/bin/bash
# Issue 23, exhaustion and blinding: what processes anyone can start under
# the name ceph-osd must not cost the real OSD its tracing.  Started before
# the cluster, so every one has a lower pid than the real OSD (pids are
# handed out in order), all running while osdhist starts and while the OSD
# restarts:
#   - 300 copies of one renamed sleep (one inode: more processes than the
#     proc table's 256, and than the scan's old limit);
#   - 70 distinct refused binaries (sleep copies, one byte more each: more
#     than the 16 binary slots, and than the 64 verdicts --list keeps);
#   - two ELF bombs (tests/fuzz/mkbomb.py: a runnable sleep whose .dynstr,
#     256 MiB and 32 MiB, has no NUL after its names);
#   - a renamed bash claiming the real OSD's id (--id ID).
# Asserted: osdhist attaches the real OSD before its first snapshot and
# refuses each bomb once, in one line; the OSD restarted twice with a
# daemonizing start (no -f; its parent held stopped until osdhist has seen
# both: issue 37, where every op of the daemon went to osd.dup among these
# fakes) is counted exactly from its first op each time (op_w and op_r of
# the new process), the self-check verifies the daemon; the duplicate id is
# reported (health JSON, the Prometheus gauge) and the fake gets no
# verify line and no osdhist_verify_* series of its own.
#
# Time bounds are taken on CPU time (utime + stime), which load does not
# stretch: osdhist --inspect of a bomb within 2 s, and osdhist's CPU time
# when its first snapshot is out within 2 s plus what the same start costs
# with the fakes gone (measured at the end, the same way): the old code
# spent 7.2 s of CPU (13 s wall) in --inspect of the 256 MiB bomb, and was
# at 9.1 s of CPU at its first snapshot among these fakes.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
K=50		# writes, then as many reads, after the restart
INTERVAL=1
lib_mktemp W -d

# CPU seconds (utime + stime) of PID so far.
cpu_s() { # PID
	awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f\n", ($12 + $13) / hz }' \
		"/proc/$1/stat"
}

# --- the bombs, refused by --inspect within 2 s of CPU, in one line
mkdir -p "$W/bomb" "$W/bomb32" "$W/fake" "$W/dup"
python3 "$LIB_ROOT/tests/fuzz/mkbomb.py" --nonul 256 "$W/bomb/ceph-osd" || fail "mkbomb 256"
python3 "$LIB_ROOT/tests/fuzz/mkbomb.py" --nonul 32 "$W/bomb32/ceph-osd" || fail "mkbomb 32"
for b in bomb bomb32; do
	/usr/bin/time -o "$W/$b.time" -f '%U %S %e' \
		timeout -k 5 120 "$OSDHIST" --inspect "$W/$b/ceph-osd" >/dev/null 2>"$W/$b.err"
	rc=$?
	read -r u s e < <(grep -v '^Command' "$W/$b.time")
	echo "# --inspect $b: rc $rc, ${u:-?} s user + ${s:-?} s sys, ${e:-?} s wall: $(cat "$W/$b.err")"
	check_eq "--inspect $b: refused (exit 1)" "$rc" 1
	check_eq "--inspect $b: one line on stderr" "$(wc -l <"$W/$b.err")" 1
	check "--inspect $b: gave up within 2 s of CPU (${u:-?} + ${s:-?})" \
		awk -v u="${u:-99}" -v s="${s:-99}" 'BEGIN { exit !(u + s < 2) }'
done

# --- the fakes, then the cluster: every fake's pid is lower than the OSD's
# Pids wrap at pid_max (32768 here), and this host spends thousands a
# minute (4400 from the fakes to the restarted OSD, measured): with less
# than MIN_ROOM pids left before the wrap, the OSD started after the fakes
# could get a lower pid than theirs.  Spend the rest first (short-lived
# processes: ~100 a second here, so at most ~100 s, in a third of the runs),
# so that the fakes and the OSD, started within the next ~2 min, come in
# pid order.
MIN_ROOM=10000
room() { echo $(($(cat /proc/sys/kernel/pid_max) - $(cat /proc/sys/kernel/ns_last_pid))); }
if [ "$(room)" -lt $MIN_ROOM ]; then
	echo "# $(room) pids left before the wrap: spending them"
	# until the wrap, which leaves pid_max minus a few hundred (whoever
	# took the pid that wrapped, this sees it by the room left)
	while [ "$(room)" -lt $MIN_ROOM ]; do /bin/true; done	# ~4 pids a turn
fi
echo "# $(room) pids left before the wrap"

# The real OSD runs a copy of ceph-osd that no other process on the host
# runs (other tests' clusters): found only by a scan that reaches it.
mkdir -p "$W/osdbin"
cp /usr/bin/ceph-osd "$W/osdbin/ceph-osd"
OSDINO=$(stat -c %i "$W/osdbin/ceph-osd")

ID=$(random_first_id)
FAKES=()
"$W/bomb/ceph-osd" 100000 & FAKES+=($!)
"$W/bomb32/ceph-osd" 100000 & FAKES+=($!)
fake_claimant "$W/dup" --id "$ID" || fail "the fake claiming osd.$ID starts"
DUP=$FAKE_PID FAKES+=("$FAKE_PID")
cp /bin/sleep "$W/fake/ceph-osd"
for i in $(seq 300); do "$W/fake/ceph-osd" 100000 & FAKES+=($!); done
for i in $(seq 70); do
	mkdir -p "$W/r$i"
	cp /bin/sleep "$W/r$i/ceph-osd"
	printf '%02x' "$i" | xxd -r -p >>"$W/r$i/ceph-osd"	# another file: another verdict
	"$W/r$i/ceph-osd" 100000 & FAKES+=($!)
done
FAKE_MAX=$!
sleep 1
check_eq "373 fakes named ceph-osd running" \
	"$(ps -C ceph-osd -o args= | grep -c "^$W/")" 373

cluster_up --store bluestore --first-id "$ID" --osd-bin "$W/osdbin/ceph-osd" ||
	{ fail "cluster starts"; finish; }
REAL=$(osd_pid "$ID")
check "the real OSD's pid ($REAL) is higher than the fakes' (last $FAKE_MAX)" [ "$REAL" -gt "$FAKE_MAX" ]

oh_start --osd "$ID" --textfile "$W/osdhist.prom" "$INTERVAL"
# the first snapshot is out once a health line is
for _ in $(seq 600); do
	grep -q '"type":"health"' "$TOUT" && break
	kill -0 "$TPID" 2>/dev/null || break
	sleep 0.1
done
cpu=$(cpu_s "$TPID")	# judged at the end, against the same start without fakes
cp "$TERR" "$W/first.err"
check "the real OSD's binary (inode $OSDINO, pid $REAL) attached before the first snapshot" \
	grep -q "attached to ceph-osd $W/osdbin/ceph-osd .*inode $OSDINO) seen in pid $REAL" "$W/first.err"

# --- two restarts, daemonizing: each traced from the new process's first op
t_stop=$(date +%s.%N) STOPPED=$REAL
for r in 1 2; do
	"$CLUSTER_SH" restart-osd "$CLUSTER_DIR" "$ID" --hold-parent >/dev/null ||
		{ fail "restart $r of osd.$ID"; finish; }
	NEW=$(osd_pid "$ID") PARENT=$(cat "$CLUSTER_DIR/parent.osd.$ID")
	check "restart $r: the OSD's pid ($NEW) is higher than the fakes'" [ "$NEW" -gt "$FAKE_MAX" ]
	wait_line "$TERR" "pid $PARENT forked pid $NEW, both osd\.$ID[@:]" "$TPID"
	check "restart $r, daemonizing: osdhist saw parent $PARENT and daemon $NEW as one osd.$ID" \
		grep -q "pid $PARENT forked pid $NEW, both osd\.$ID[@:]" "$TERR"
	kill -CONT "$PARENT"
	while kill -0 "$PARENT" 2>/dev/null && ! grep -q '^[^)]*) [ZX]' "/proc/$PARENT/stat" 2>/dev/null; do
		sleep 0.05
	done
	w0=$(perf_counter "$ID" osd op_w) r0=$(perf_counter "$ID" osd op_r)
	l0=$(oh_snap) || { fail "snapshot"; finish; }
	/usr/bin/python3 "$(dirname "$0")/rados_load.py" put "$K" >/dev/null || fail "writes"
	/usr/bin/python3 "$(dirname "$0")/rados_load.py" canary "$K" "$K" >/dev/null || fail "reads"
	w1=$(perf_counter "$ID" osd op_w) r1=$(perf_counter "$ID" osd op_r)
	l1=$(oh_snap) || { fail "snapshot"; finish; }
	check_eq "restart $r: the new process had done no write before ours (op_w)" "$w0" 0
	check_eq "restart $r: op_w delta = $K writes" "$((w1 - w0))" "$K"
	check_eq "restart $r: op_r delta = $K reads" "$((r1 - r0))" "$K"
	check_eq "restart $r: osdhist writes of osd.$ID = op_w delta" "$(oh_count "$l0" "$l1" "$ID" write)" "$((w1 - w0))"
	check_eq "restart $r: osdhist reads of osd.$ID = op_r delta" "$(oh_count "$l0" "$l1" "$ID" read)" "$((r1 - r0))"
	check_eq "restart $r: osdhist sees nothing else on osd.$ID" "$(oh_count "$l0" "$l1" "$ID" "")" "$((w1 - w0 + r1 - r0))"
	[ "$r" = 2 ] || STOPPED="$STOPPED $NEW"
done

# --- --list among them: every process inspected, the real OSD traceable
# (it once kept 64 verdicts and 1024 processes: the rest "not inspected")
"$OSDHIST" --list >"$W/list" 2>"$W/list.err"
check_eq "--list: exit 0" "$?" 0
check "--list: the real OSD (pid $NEW) is listed traceable" \
	grep -q "^osd\.$ID pid $NEW Ceph .*: traceable" "$W/list"
check_eq "--list: no process left uninspected" "$(grep -c 'not inspected' "$W/list")" 0

# --- the duplicate id: reported, never a second set of series
wait_verified "among the fakes" "$ID"
check_eq "the last verify line of osd.$ID is the daemon's (pid $NEW)" \
	"$(_vlines "$ID" | tail -n 1 | jq .pid)" "$NEW"
check_eq "no process of osd.$ID had its ops held or counted as osd.dup" \
	"$(grep -cE "claims osd\.$ID[@,]|claimed osd\.$ID[@ ]" "$TERR")" 0
l=$(oh_snap) || { fail "snapshot"; finish; }
h=$(head -n "$l" "$TOUT" | grep '"type":"health"' | tail -n 1)
echo "# last health: $(jq -c '{osds, binaries, duplicate_ids, duplicate_id_list}' <<<"$h")"
check_eq "health: osd.$ID claimed by 2 processes, its series the real OSD's (pid $NEW)" \
	"$(jq -c --argjson o "$ID" '[.duplicate_id_list[] | select(.osd == $o)]' <<<"$h")" \
	"[{\"osd\":$ID,\"fsid\":\"$(cluster_fsid)\",\"processes\":2,\"pid\":$NEW}]"
check "health: osds counts every ceph-osd (>= 374: $(jq .osds <<<"$h"))" [ "$(jq .osds <<<"$h")" -ge 374 ]
check "Prometheus: osdhist_duplicate_osd_ids >= 1" \
	awk '$1 == "osdhist_duplicate_osd_ids" && $2 >= 1 { ok = 1 } END { exit !ok }' "$W/osdhist.prom"
check_eq "Prometheus: one set of osd.$ID verify state series (one per state)" \
	"$(grep -c "^osdhist_verify_state{ceph_daemon=\"osd.$ID\"," "$W/osdhist.prom")" 3
check_eq "Prometheus: osd.$ID verified" \
	"$(grep -c "^osdhist_verify_state{$(osd_labels "$ID"),state=\"verified\"} 1" "$W/osdhist.prom")" 1
check_eq "no verify line of the fake (pid $DUP)" \
	"$(jq -c --argjson p "$DUP" 'select(.type == "verify" and .pid == $p)' "$TOUT" | wc -l)" 0
check_eq "osdhist refused each bomb once, in one line" \
	"$(grep -cE "$W/bomb(32)?/ceph-osd" "$TERR")" 2

kill -INT "$TPID"
wait "$TPID"
check_eq "osdhist exits 0 on SIGINT" "$?" 0
no_bad_verify "among the fakes" "$ID" "$STOPPED" "$t_stop"
check "osd.$ID survived" kill -0 "$(osd_pid "$ID")"

# --- the yardstick: the same start with the fakes gone
kill "${FAKES[@]}" 2>/dev/null
wait "${FAKES[@]}" 2>/dev/null
oh_start --osd "$ID" "$INTERVAL"
for _ in $(seq 600); do
	grep -q '"type":"health"' "$TOUT" && break
	kill -0 "$TPID" 2>/dev/null || break
	sleep 0.1
done
base_cpu=$(cpu_s "$TPID")
kill -INT "$TPID"; wait "$TPID"
echo "# osdhist CPU at its first snapshot: $cpu s among the fakes, $base_cpu s without them"
check "osdhist's first snapshot within 2 s of CPU more among the fakes than without ($cpu s vs $base_cpu s)" \
	awk -v a="$cpu" -v b="$base_cpu" 'BEGIN { exit !(a < b + 2) }'
finish
