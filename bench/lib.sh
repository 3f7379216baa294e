# shellcheck shell=bash
# bench/lib.sh: what bench/run.sh and bench/duty.sh share.  Needs WORK (a
# private temp dir), ROOT (the repository) and die().

# A throwaway cluster with one memstore OSD in WORK/cluster, running a
# private copy of ceph-osd (another inode): uprobes are per inode, so
# tracers of other users of this host attached to /usr/bin/ceph-osd do not
# trap our OSD.  Sets OSDPID, ASOK (its admin socket) and the cluster's env
# (CEPH_CONF, POOL, ...).
bench_cluster_start() {
	mkdir -p "$WORK/bin"
	cp /usr/bin/ceph-osd "$WORK/bin/ceph-osd"
	PATH=$WORK/bin:$PATH "$ROOT/scripts/cluster.sh" start "$WORK/cluster" --osds 1 --store memstore >&2 ||
		die "cluster start failed"
	# shellcheck disable=SC1091
	. "$WORK/cluster/env"
	OSDPID=$("$ROOT/scripts/cluster.sh" osd-pid "$WORK/cluster" 0)
	ASOK=$WORK/cluster/run/ceph-osd.0.asok
}

# Client ops the OSD has served so far (perf dump's osd.op).
osd_ops() { timeout 30 ceph --admin-daemon "$ASOK" perf dump | jq '.osd.op'; }

bench_cluster_stop() {
	[ ! -d "$WORK/cluster" ] || "$ROOT/scripts/cluster.sh" stop "$WORK/cluster" >/dev/null 2>&1 ||
		echo "bench: stopping the cluster in $WORK/cluster failed" >&2
}

# BPF run time and run counts: on for as long as bench/bpf_stats.py holds
# its BPF_ENABLE_STATS fd (the kernel.bpf_stats_enabled switch, but per
# holder: nothing to restore afterwards, even if the bench is killed, and
# another bench on the host cannot switch ours off).  Sets STATS_PID.
bench_stats_on() {
	python3 "$ROOT/bench/bpf_stats.py" >"$WORK/stats.out" &
	STATS_PID=$!
	for _ in $(seq 50); do
		grep -q on "$WORK/stats.out" && return 0
		kill -0 "$STATS_PID" 2>/dev/null || die "cannot enable BPF run-time statistics"
		sleep 0.1
	done
	die "bench/bpf_stats.py did not enable BPF run-time statistics"
}

# ids of the BPF programs or maps (KIND prog|map) held open by PID, as a
# JSON array: this bpftool (7.1, Debian) lists no "pids", the process's
# fdinfo does.
bpf_ids() { # KIND PID
	grep -h "^$1_id:" /proc/"$2"/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -un | jq -sc .
}

# BPF program runs and run time (ns) so far of the uprobe programs process
# PID holds: "RUNS NS" ("0 0" without PID).  Uprobes only (type kprobe):
# osdhist's raw tracepoint programs (bpf/procwatch.bpf.h) run at each
# exec, fork and exit on the host, not per op.
bpf_runs() { # [PID]
	[ -n "${1:-}" ] || { echo "0 0"; return; }
	bpftool prog show -j | jq -r --argjson ids "$(bpf_ids prog "$1")" \
		'[.[] | select(.type == "kprobe" and (.id as $i | $ids | index($i)))] |
		 "\(map(.run_cnt // 0) | add // 0) \(map(.run_time_ns // 0) | add // 0)"'
}

# Waits until the osdhist PID, its stderr in ERR, says it has attached (at
# most 30 s); dies with that stderr if it exits first.  WHAT names it.
bench_wait_attached() { # PID ERR WHAT
	for _ in $(seq 300); do
		grep -q "attached to ceph-osd" "$2" && return 0
		kill -0 "$1" 2>/dev/null || { cat "$2" >&2; die "$3 exited before it attached"; }
		sleep 0.1
	done
}

# The exit path of every bench: what the bench itself started (its own
# bench_stop_own, if it defines one), the BPF statistics holder, the
# cluster, the temp dir.  bench_traps installs it.
bench_cleanup() {
	! declare -F bench_stop_own >/dev/null || bench_stop_own || true
	[ -z "${STATS_PID:-}" ] || { kill "$STATS_PID" 2>/dev/null; wait "$STATS_PID" 2>/dev/null; } || true
	bench_cluster_stop
	rm -rf -- "$WORK"
}

bench_traps() {
	trap bench_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}
