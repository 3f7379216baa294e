#!/bin/bash
# Signals: SIGINT and SIGTERM print a final snapshot holding the ops since the
# last interval and exit 0, in JSON and in text; SIGKILL in the middle of a
# workload leaves no BPF program, link, map or uprobe behind and the OSD
# keeps serving.
. "$(dirname "$0")/../lib.sh"

cluster_up --osds 1 || { fail "cluster start"; finish; }
OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
PID0=$(osd_pid 0)
lib_mktemp WORK -d

# Only our OSD (-p): other clusters on this host have an osd.0 too.  One long
# interval: only a signal can print the ops.
tracer_start() {
	# emptied here, not by the redirection below: that one runs in the
	# background child, maybe after we first look at the file
	: >"$WORK/out"; : >"$WORK/err"
	"$OSDHIST" -p "$PID0" "$@" 3600 >"$WORK/out" 2>"$WORK/err" &
	TPID=$!
	wait_line "$WORK/err" "attached to ceph-osd" $TPID && return 0
	cat "$WORK/err" >&2
	fail "osdhist did not attach"
	finish
}

# A small mixed workload: a second of bench writes, then puts and reads.
workload() {
	rados -p "$POOL" bench 1 write -b 4096 -t 4 --no-cleanup >/dev/null
	echo hello >"$WORK/obj"
	for i in 1 2 3; do rados -p "$POOL" put "obj$i" "$WORK/obj"; done
	rados -p "$POOL" get obj1 "$WORK/got"
	rados -p "$POOL" stat obj2 >/dev/null
}

# Count of CLASS in the output: JSON lines, or the text summary lines
# "osd.0 write total: 123 ops, ...".
count_json() { jq -s "[.[] | select(.type==\"hist\" and .osd==0 and .class==\"$1\" and .phase==\"total\") | .count] | add // 0" "$WORK/out"; }
count_text() { awk -v c="$1" '$1 == "osd.0" && $2 == c && $3 == "total:" {n += $4} END {print n + 0}' "$WORK/out"; }

# --- 1, 2: SIGINT and SIGTERM, in JSON and in text
for sig in INT TERM; do
	for mode in json text; do
		name="SIG$sig, $mode"
		if [ $mode = json ]; then tracer_start --json; else tracer_start; fi
		before=$(perf_dump 0)
		workload
		after=$(perf_dump 0)
		kill -$sig $TPID
		wait $TPID
		rc=$?
		check_eq "$name: osdhist exits 0" "$rc" 0
		if [ $mode = json ]; then
			nh=$(grep -c '^{"type":"health"' "$WORK/out")
			last=$(tail -n 1 "$WORK/out" | jq -r .type)
		else
			nh=$(grep -cE '^(!! )?health:' "$WORK/out")
			# text snapshots end with the health line and an empty line
			last=$(tail -n 2 "$WORK/out" | head -n 1 | grep -oE '^(!! )?health:')
		fi
		check_eq "$name: one snapshot, the final one" "$nh" 1
		check "$name: it ends with the health line ($last)" test "$last" = health -o "$last" = "health:"
		for c in r w; do
			case $c in r) cls="read" ;; w) cls="write" ;; esac
			want=$(( $(jq ".osd.op_$c" <<<"$after") - $(jq ".osd.op_$c" <<<"$before") ))
			got=$(count_$mode "$cls")
			check_eq "$name: final snapshot has the $cls ops (op_$c delta $want)" "$got" "$want"
		done
		check "$name: the workload wrote" test "$(count_$mode write)" -gt 3
		check "$name: stderr has only the attach line" test "$(wc -l <"$WORK/err")" = 1
	done
done

# --- 3: SIGKILL while ops run
tracer_start --json
# Our osdhist's BPF objects, by the ids in its own fds (bpftool on Debian 12
# does not show the owning pids, and other osdhists load the same names).
ids() { grep -hE "^$1:" /proc/$TPID/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -un | tr '\n' ' '; }
PROGS=$(ids prog_id) LINKS=$(ids link_id) MAPS=$(ids map_id)
echo "# osdhist $TPID holds progs $PROGS, links $LINKS, maps $MAPS"
names=$(for p in $PROGS; do bpftool -j prog show id "$p" | jq -r .name; done | sort | tr '\n' ' ')
for n in op_done op_unregistered; do
	check "before SIGKILL: program $n loaded ($names)" grep -qw $n <<<"$names"
done
check "before SIGKILL: links exist ($LINKS)" test -n "$LINKS"
# Whether bpftool shows an object, by what it prints: bpftool 7.5 exits
# non-zero after printing a uprobe_multi link.
shown() { bpftool -j "$1" show id "$2" 2>/dev/null | jq -e --argjson i "$2" '.id == $i' >/dev/null; }
gone() {	# KIND IDS...: none of these ids exists (any more)
	local kind=$1 id; shift
	for id in "$@"; do shown "$kind" "$id" && return 1; done
	return 0
}
visible() {	# KIND IDS...: every one of these ids exists
	local kind=$1 id; shift
	[ $# -gt 0 ] || return 1
	for id in "$@"; do shown "$kind" "$id" || return 1; done
}
# shellcheck disable=SC2086
all_visible() { visible prog $PROGS && visible link $LINKS && visible map $MAPS; }
# shellcheck disable=SC2086
all_gone() { gone prog $PROGS && gone link $LINKS && gone map $MAPS; }
check "before SIGKILL: bpftool sees its programs, links and maps" all_visible
# Its uprobes (uprobe_multi links or perf events) must all be on the
# OSD's binary (same device and inode).
osd_bin=$(stat -L -c %d:%i "/proc/$PID0/exe")
nprobes=0 elsewhere=""
while read -r kind ino off; do
	[ -n "$kind" ] || continue
	nprobes=$((nprobes + 1))
	[ "$ino" = "$osd_bin" ] || elsewhere+=" $kind:$ino:$off"
done < <("$LIB_ROOT/scripts/uprobes.sh" "$TPID")
check "before SIGKILL: >= 2 uprobes ($nprobes)" test $nprobes -ge 2
check_eq "before SIGKILL: all on the OSD's binary" "${elsewhere:-yes}" yes

w0=$(perf_counter 0 osd op_w)
rados -p "$POOL" bench 5 write -b 4096 -t 16 --no-cleanup >"$WORK/bench" 2>&1 &
BPID=$!
sleep 2
kill -KILL $TPID
wait $TPID 2>/dev/null
wait $BPID
check_eq "the bench during SIGKILL succeeds" "$?" 0
made=$(awk '/Total writes made/ {print $4}' "$WORK/bench")
w1=$(perf_counter 0 osd op_w)
check_eq "the OSD served every write of it (op_w delta = writes made $made + 1 metadata)" \
	$((w1 - w0)) $((made + 1))

# The kernel frees programs and maps a moment after their last fd closes.
for _ in $(seq 100); do
	all_gone && break
	sleep 0.1
done
# shellcheck disable=SC2086
{
	check "after SIGKILL: no program of osdhist left ($PROGS)" gone prog $PROGS
	check "after SIGKILL: no link of osdhist left ($LINKS)" gone link $LINKS
	check "after SIGKILL: no map of osdhist left ($MAPS)" gone map $MAPS
}
check_eq "after SIGKILL: no perf event runs one of its programs" \
	"$(bpftool -j perf show | jq --arg p " $PROGS" '[.[] | .prog_id as $id | select($p | contains(" \($id) "))] | length')" 0
# Legacy (tracefs) uprobes would outlive the process; libbpf names them
# libbpf_PID_...  Read uprobe_events.
events=$("$LIB_ROOT/scripts/tracefs.sh" cat /sys/kernel/tracing/uprobe_events)
check "after SIGKILL: tracefs readable" test $? = 0
check_eq "after SIGKILL: no uprobe event of osdhist or on ceph-osd" \
	"$(grep -cE "libbpf_${TPID}_|ceph-osd|/proc/$PID0/" <<<"$events")" 0

check "after SIGKILL: the OSD is alive" kill -0 "$PID0"
check_eq "after SIGKILL: no op stuck in the OSD" \
	"$(ceph --admin-daemon "$(osd_asok 0)" dump_ops_in_flight | jq .num_ops)" 0
w0=$(perf_counter 0 osd op_w)
made=$(rados -p "$POOL" bench 2 write -b 4096 -t 16 --no-cleanup | awk '/Total writes made/ {print $4}')
w1=$(perf_counter 0 osd op_w)
check "after SIGKILL: a new bench writes ($made)" test "${made:-0}" -gt 0
check_eq "after SIGKILL: the OSD counts every write (op_w delta)" $((w1 - w0)) $((${made:-0} + 1))
check "after SIGKILL: the OSD is still alive" kill -0 "$PID0"
check "no crash report" test -z "$(ls -A "$CLUSTER_DIR/crash")"
finish
