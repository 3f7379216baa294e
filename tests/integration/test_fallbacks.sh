#!/bin/bash
# Issue 22: the variants of bpf/ for kernels without bpf_ktime_get_tai_ns,
# bpf_loop or uprobe_multi links (RHEL 9's and Ubuntu 22.04's kernels
# differ in which they have), reached here the only way this host allows:
# the test build's feature probes answer "no" (OSDHIST_TEST_NO_FEATURES).
# For each variant, and for the full-featured one as the control, on one
# OSD: the loaded programs really lack the helper (the kernel's xlated
# code), the health line names the variant, and the counts are as exact as
# test_core's, test_tracker's and test_optypes' (classes against perf dump
# with the op tracker switched off and on, every failed op in "error", op
# codes and op types against optypes_load.py's plan), nothing lost, and the
# latency sums within exact bounds of Ceph's own over the same ops.
. "$(dirname "$0")/../lib.sh"

HERE=$(cd "$(dirname "$0")" && pwd)
LOAD="/usr/bin/python3 $HERE/optypes_load.py"
TESTHOOKS=${TESTHOOKS:-$LIB_ROOT/build/osdhist-testhooks}
[ -x "$TESTHOOKS" ] || { fail "no $TESTHOOKS: run 'make build/osdhist-testhooks'"; finish; }
# shellcheck disable=SC2034  # lib.sh's oh_start runs $OSDHIST
OSDHIST=$TESTHOOKS

cluster_up --osds 1 || { fail "cluster start"; finish; }
PID0=$(osd_pid 0)
ASOK=$(osd_asok 0)
tracker() { ceph --admin-daemon "$ASOK" config set osd_enable_op_tracker "$1" >/dev/null; }
oh_health() { jq -s "[.[] | select(.type==\"health\")] | last | .$1" "$TOUT"; }
d() { echo $(( $(jq ".osd.$1" <<<"$3") - $(jq ".osd.$1" <<<"$2") )); }	# COUNTER BEFORE AFTER

# Latency of CLASS in output lines FROM+1..TO against Ceph's
# op_{r,w}_latency between two perf dumps: exact bounds, whatever the host's
# load (lib.sh: check_latency_sum).  The objects are 64 KiB and the reads
# run 32 at a time, so that the means (~1 ms) dwarf the probe's ~4 us.
check_mean() {	# LABEL CLASS C FROM TO BEFORE AFTER WAIT_NS
	local cnt ceph oh
	cnt=$(jq -n "($7).osd.op_${3}_latency.avgcount - ($6).osd.op_${3}_latency.avgcount")
	ceph=$(jq -n "(($7).osd.op_${3}_latency.sum - ($6).osd.op_${3}_latency.sum) * 1e9")
	oh=$(sed -n "$(($4 + 1)),$5p" "$TOUT" | jq -s --arg c "$2" '
		[.[] | select(.type == "hist" and .class == $c and .phase == "total") | .sum_ns] | add')
	check_latency_sum "$1" "$2" "$ceph" "$oh" "$cnt" "$8"
}

# VARIANT (comma list of features taken away, "" for none) CLOCK SCAN UPROBES
one_variant() {
	local v=$1 clock=$2 scan=$3 upr=$4 label=${1:-all features} b0 b1 a0 a1 c from mid mid2 to errors=0 load view wait0 wait1
	lib_mktemp load
	OSDHIST_TEST_NO_FEATURES=$v oh_start -p "$PID0" -v 3600
	oh_wait_attached || { cat "$TERR" >&2; fail "$label: osdhist did not attach"; return; }
	echo "# $label: $(grep 'loaded bpf/' "$TERR")"
	check "$label: -v names the variant (clock $clock, op scan $scan, uprobes $upr)" \
		grep -q "loaded bpf/ with clock $clock, op scan $scan, uprobes $upr;" "$TERR"
	"$LIB_ROOT/scripts/bpf_helpers_used.sh" "$TPID" >"$CLUSTER_DIR/helpers"
	# what the kernel kept: the helper a lacking kernel has not is not there
	for h in bpf_ktime_get_tai_ns:tai bpf_loop:bpf_loop; do
		c=$(awk -v h="${h%%:*}" '$2 == "call" && $3 == h {n += $4} END {print n + 0}' "$CLUSTER_DIR/helpers")
		if [ "$clock" = "${h#*:}" ] || [ "$scan" = "${h#*:}" ]; then
			check "$label: the loaded programs call ${h%%:*} ($c calls)" test "$c" -gt 0
		else
			check_eq "$label: the loaded programs never call ${h%%:*}" "$c" 0
		fi
	done
	"$LIB_ROOT/scripts/uprobes.sh" "$TPID" >"$CLUSTER_DIR/kprobes"
	check "$label: its uprobes are $upr links ($(cut -d' ' -f1 "$CLUSTER_DIR/kprobes" | sort | uniq -c | xargs))" \
		bash -c "grep -q '^$upr ' '$CLUSTER_DIR/kprobes' && ! grep -vq '^$upr ' '$CLUSTER_DIR/kprobes'"

	# interval 1: benches for the means (test_core)
	from=$(oh_snap) || { fail "$label: snapshot"; return; }
	b0=$(perf_dump 0) wait0=$(sched_wait "$PID0")
	rados -p "$POOL" bench 2 write -b 65536 -t 16 --no-cleanup --run-name "fb$VN" >/dev/null
	rados -p "$POOL" bench 2 seq -t 32 --run-name "fb$VN" >/dev/null
	a0=$(perf_dump 0) wait1=$(sched_wait "$PID0")
	mid=$(oh_snap) || { fail "$label: snapshot"; return; }
	check_mean "$label" write w "$from" "$mid" "$b0" "$a0" $((wait1 - wait0))
	check_mean "$label" read r "$from" "$mid" "$b0" "$a0" $((wait1 - wait0))
	for c in r:read w:write rw:rw; do
		check_eq "$label: benches: ${c#*:} = op_${c%%:*} delta" \
			"$(oh_count "$from" "$mid" 0 "${c#*:}")" "$(d "op_${c%%:*}" "$b0" "$a0")"
	done

	# interval 2: errors with the op tracker off and on (test_tracker)
	for t in false true; do
		tracker $t
		echo data >"$CLUSTER_DIR/obj"
		# objects of this variant's own: a lock of the last one's holds
		rados -p "$POOL" put "fb$VN$t" "$CLUSTER_DIR/obj"
		rados -p "$POOL" lock get "fb$VN$t" mylock
		rados -p "$POOL" get "fb$VN$t" "$CLUSTER_DIR/got"
		for i in 1 2 3; do
			rados -p "$POOL" stat "missing.$VN.$t.$i" 2>/dev/null && fail "stat of a missing object succeeded"
			errors=$((errors + 1))
		done
		rados -p "$POOL" rm "missing.$VN.$t" 2>/dev/null; errors=$((errors + 1))
	done
	sleep 0.5
	b1=$(perf_dump 0)
	mid2=$(oh_snap) || { fail "$label: snapshot"; return; }
	for c in r:read w:write rw:rw; do
		check_eq "$label: tracker off and on: ${c#*:} = op_${c%%:*} delta" \
			"$(oh_count "$mid" "$mid2" 0 "${c#*:}")" "$(d "op_${c%%:*}" "$a0" "$b1")"
	done
	check_eq "$label: tracker off and on: every failed op in error ($errors)" \
		"$(oh_count "$mid" "$mid2" 0 error)" "$errors"

	# interval 3: optypes_load.py's plan (test_optypes)
	check "$label: the load's messages all ended as planned" \
		bash -c "$LOAD stat=7 stat-missing=1 lock=1 omap-get=0 multi-write=1 failok-read=0 >$load"
	sleep 0.5
	a1=$(perf_dump 0)
	to=$(oh_snap) || { fail "$label: snapshot"; return; }
	kill -INT "$TPID"; wait "$TPID"
	check_eq "$label: osdhist exits 0 on SIGINT" "$?" 0
	mid=$mid2
	view=$(oh_optypes_view "$mid" "$to")
	check_eq "$label: optypes: ops and failed ops per op code = the load's" \
		"$(jq -cS .ops <<<"$view")" "$(jq -cS .ops "$load")"
	check_eq "$label: optypes: messages and failed messages per op type = the load's" \
		"$(jq -cS .op_type <<<"$view")" "$(jq -cS .op_type "$load")"
	check_eq "$label: optypes: classes = the load's op_r/op_w/op_rw/errors" \
		"$(jq -cS '.classes | {read: (.read // 0), write: (.write // 0), rw: (.rw // 0), error: (.error // 0)}' <<<"$view")" \
		"$(jq -cS '{read: .op_r, write: .op_w, rw: .op_rw, error: .errors}' "$load")"
	check_eq "$label: the load's op_r/op_w/op_rw = perf dump deltas" \
		"$(jq -c '[.op_r, .op_w, .op_rw]' "$load")" \
		"[$(d op_r "$b1" "$a1"),$(d op_w "$b1" "$a1"),$(d op_rw "$b1" "$a1")]"
	check_eq "$label: health names the variant" \
		"$(oh_health clock) $(oh_health scan) $(oh_health uprobes)" "\"$clock\" \"$scan\" \"$upr\""
	check_eq "$label: nothing lost, no op vector cut or missed" \
		"$(oh_health losses) $(oh_health ops_cut) $(oh_health ops_unseen)" "0 0 0"
	check "$label: in-flight map back near empty ($(oh_health inflight))" [ "$(oh_health inflight)" -le 2 ]
	check_eq "$label: every done mark removed at its op's end" \
		"$(oh_health entries)" "$(oh_health removed)"
}

for v in ":tai:bpf_loop:multi" "tai_helper:mono+offset:bpf_loop:multi" \
	"bpf_loop:tai:loop:multi" "uprobe_multi:tai:bpf_loop:perf" \
	"tai_helper,bpf_loop,uprobe_multi:mono+offset:loop:perf"; do
	IFS=: read -r nof clock scan upr <<<"$v"
	VN=$((${VN:-0} + 1))
	start=$SECONDS
	one_variant "$nof" "$clock" "$scan" "$upr"
	echo "# ${nof:-all features}: $((SECONDS - start)) s"
done
# --- the clock itself: two tracers on the same OSD at once, one reading
# TAI, one CLOCK_MONOTONIC + offset.  Both programs run in the same uprobe
# hit, one after the other, so they see the same ops and their clock reads
# differ by the first program's run time (~1 us), never by a preemption of
# the OSD thread: the difference of their means is the fallback clock's
# error (plus that run time), free of the load on the host.
lib_mktemp TAIOUT
"$LIB_ROOT/osdhist" --json -p "$PID0" 3600 >"$TAIOUT" 2>/dev/null &
TAIPID=$!
OSDHIST_TEST_NO_FEATURES=tai_helper oh_start -p "$PID0" 3600
oh_wait_attached || { cat "$TERR" >&2; fail "clock: osdhist did not attach"; finish; }
for _ in $(seq 600); do	# both attached: the TAI one has taken its link fds (60 s at most)
	[ "$("$LIB_ROOT/scripts/uprobes.sh" "$TAIPID" | wc -l)" -ge 3 ] && break
	sleep 0.1
done
sleep 0.5
rados -p "$POOL" bench 2 write -b 65536 -t 16 --no-cleanup --run-name fbclock >/dev/null
rados -p "$POOL" bench 2 seq -t 32 --run-name fbclock >/dev/null
sleep 0.5
kill -INT "$TPID" "$TAIPID"; wait "$TPID" "$TAIPID"
for c in read write; do
	m() { jq -s --arg c "$c" '[.[] | select(.type == "hist" and .class == $c and .phase == "total")]
		| [(map(.count) | add), ((map(.sum_ns) | add) / (map(.count) | add))] | @tsv' -r "$1"; }
	read -r nt mt <<<"$(m "$TAIOUT")"
	read -r nm mm <<<"$(m "$TOUT")"
	echo "# clock: $c: $nt ops, mean TAI $(printf %.0f "$mt") ns, MONOTONIC+offset $(printf %.0f "$mm") ns, difference $(jq -n "$mm - $mt | . * 10 | round / 10") ns"
	check_eq "clock: both tracers saw the same $c ops" "$nm" "$nt"
	# 5 us: a few times the first program's run time; an offset wrong by
	# a step of the clock, or slewed, would be ms
	check "clock: $c: the MONOTONIC+offset mean within 5 us of the TAI one's" \
		jq -e -n "($mm - $mt | fabs) < 5000"
done

check "the OSD survived tracing" kill -0 "$PID0"
finish
