#!/bin/bash
# bench/duty.sh (make bench-duty): does osdhist's cost fall with the duty
# cycle of --sample?
#
# bench/run.sh starts a new rados bench for every variant and round: on a
# small VM the client's own start and the host's drift between rounds move
# IOPS by 5-10 %, more than a 10 % duty cycle's share of the cost.  Here one
# rados bench rand runs throughout, and the tracer variants take turns on it
# in short segments, in an order rotated every rotation; each segment's loss
# is paired with the segment without tracer of the same rotation.
#
# A segment's edges are quiet points: rados bench is stopped (SIGSTOP), the
# OSD's op counter and the tracer's BPF run counts are read until they stay
# the same for QUIET_S, then rados bench goes on (SIGCONT).  No op is half
# done at an edge, so a segment's client ops are exactly the delta of the
# OSD's own `op` counter (perf dump), every probe hit in it belongs to one
# of them, and its IOPS is that delta over the time rados bench ran.  (The
# per-second lines of rados bench, used before, are neither exact nor
# always there: a 2 s segment on a loaded host could hold fewer than two.)
#
#   none      no tracer
#   osdhist   osdhist -p OSDPID --json 1            (full tracing)
#   sampled   osdhist ... --sample 100ms/1s         (10 % duty cycle; --sample)
#   fast      osdhist ... --sample 10ms/250ms       (12 probe moves a second,
#             for what moving the probes costs)
#   bpftrace  bench/peer.bt, the start/end script one would write by hand
#
# Two workloads, 4 KiB random reads (rados bench writes would fill memstore's
# RAM in one long run): -t 1, where every microsecond the probes add to an
# op is on its path and shows in IOPS, and -t 16, the saturated OSD.
# Per variant: IOPS, loss vs none (mean and standard error over the
# rotations), probe hits per client op (BPF run counts over the `op` delta:
# exactly 2 for full mode), the OSD's CPU time
# per op (its threads' schedstat), duty cycle and probe moves (osdhist's own
# health lines).  Then the model the issue asks about: full mode's loss per
# hit, the moves' loss per move/s (from fast), and the sampled loss they
# predict, next to the measured one and to "full x duty".
# A table on stdout, the same figures in bench/results/duty-*.json.
#
# Usage: bench/duty.sh [--rotations N] [--segment-secs N] [--depths "1 16"]
#                      [--sample ON/PERIOD] [--smoke] [--results DIR]
#   --depths  the rados bench -t values to run, in turn
#   --sample  the sampled variant's --sample (default 100ms/1s); segments
#             should span several PERIODs
#   --smoke   1 rotation of 2 s segments (for tests/integration)
# Env: OSDHIST (default ./osdhist).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

ROT=10 SEG=8 MODE=full
WORKLOADS=(1 16)	# rados bench -t
SAMPLE=100ms/1s
RESULTS=$ROOT/bench/results
OSDHIST=${OSDHIST:-$ROOT/osdhist}

usage() { sed -n '/^# Usage:/,/^# Env:/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--rotations) ROT=${2:?}; shift 2 ;;
	--segment-secs) SEG=${2:?}; shift 2 ;;
	--sample) SAMPLE=${2:?}; shift 2 ;;
	--depths) read -r -a WORKLOADS <<<"${2:?}"; shift 2 ;;
	--smoke) ROT=1 SEG=2 MODE=smoke; shift ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $ROT =~ ^[1-9][0-9]*$ ]] || die "--rotations must be a positive integer"
[[ $SEG =~ ^[1-9][0-9]*$ ]] || die "--segment-secs must be a positive integer"
for t in "${WORKLOADS[@]}"; do
	[[ $t =~ ^[1-9][0-9]*$ ]] || die "--depths takes positive integers, e.g. \"1 16\""
done
[ ${#WORKLOADS[@]} -gt 0 ] || die "--depths takes positive integers, e.g. \"1 16\""
[ "$(id -u)" = 0 ] || die "needs root (BPF, uprobes, bpf_stats): run 'sudo make bench-duty'"
"$OSDHIST" --sample "$SAMPLE" --help >/dev/null 2>"/tmp/osdhist-duty.$$" ||
	die "--sample $SAMPLE: $(cat "/tmp/osdhist-duty.$$"; rm -f "/tmp/osdhist-duty.$$")"
rm -f "/tmp/osdhist-duty.$$"
BPFTRACE=${BPFTRACE:-bpftrace}
for t in "$OSDHIST" "$BPFTRACE" bpftool jq python3 rados; do
	command -v "$t" >/dev/null || die "$t not found (make deps installs everything)"
done

# shellcheck source=bench/lib.sh
. bench/lib.sh
WORK=$(mktemp -d /tmp/osdhist-duty.XXXXXX)
TPID="" STATS_PID="" RPID=""
cleanup() {
	[ -z "$TPID" ] || { kill -INT "$TPID"; wait "$TPID"; } 2>/dev/null || true
	# a stopped rados bench (see pause) acts on SIGTERM only once continued
	[ -z "$RPID" ] || { kill "$RPID"; kill -CONT "$RPID"; wait "$RPID"; } 2>/dev/null || true
	[ -z "$STATS_PID" ] || { kill "$STATS_PID"; wait "$STATS_PID"; } 2>/dev/null || true
	bench_cluster_stop
	rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

VARIANTS=(none osdhist sampled fast bpftrace)
declare -A ARGS=([osdhist]="" [sampled]="--sample $SAMPLE" [fast]="--sample 10ms/250ms")

bench_cluster_start
bench_stats_on
# The peer's probes (bpftrace -p does not filter uprobes) hit our OSD only.
sed "s|/usr/bin/ceph-osd|$WORK/bin/ceph-osd|" bench/peer.bt >"$WORK/peer.bt"

# The OSD's CPU time so far, ns: the sum over its threads (uprobe traps and
# BPF programs run in them).
osd_cpu_ns() {
	cat /proc/"$OSDPID"/task/*/schedstat 2>/dev/null | awk '{s += $1} END {printf "%.0f\n", s}'
}

# A quiet point: rados bench is stopped; prints "OPS RUNS NS CPU0 CPU1" (the
# OSD's op counter, the tracer's BPF runs and run time, the OSD's CPU time
# when it first was quiet and at the end) once the OSD has ended what it
# had.  With the client stopped nothing new comes in; what it sent is read
# and served by the OSD's threads.  Quiet: OPS and RUNS the same in QUIET_N
# reads QUIET_S apart (0.5 s), each answered by the OSD's admin socket
# thread meanwhile.  A runnable OSD thread with an op to end waits for a CPU
# at most about one scheduler slice (3 ms here: 0.75 ms x (1 + log2 CPUs))
# per other runnable thread on its CPU: 0.5 s is over 150 of them per CPU,
# far beyond any load this host sees (load average under 10).  So at a quiet
# point no op is between two of its probe hits.  (The bpftrace peer's
# probes all fire before Ceph counts the op, and its interval probe runs
# every second: for it OPS alone says quiet.)  The caller resumes rados
# bench (resume).
# The reads spawn no Python (the ceph CLI's start took 5-10 s on this host
# under the test suite's load): the op counter comes from a Python helper
# started once (a coprocess: a line in, the OSD's op counter out, through
# the admin socket), the BPF runs from the tracer's fdinfo.
QUIET_S=0.25 QUIET_N=3
coproc OPQ { exec python3 -u -c '
import json, socket, struct, sys
for _ in sys.stdin:
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(60)
    s.connect(sys.argv[1])
    s.sendall(b"{\"prefix\": \"perf dump\"}\0")
    want = struct.unpack(">I", s.recv(4, socket.MSG_WAITALL))[0]
    b = b""
    while len(b) < want:
        c = s.recv(want - len(b))
        if not c:
            sys.exit("perf dump: reply cut short")
        b += c
    s.close()
    print(json.loads(b)["osd"]["op"])
' "$ASOK"; }
quick_ops() {
	local o
	echo >&"${OPQ[1]}"
	read -r -t 120 o <&"${OPQ[0]}" || die "no perf dump from $ASOK"
	echo "$o"
}
# "RUNS NS" of the uprobe programs process PID holds (bench/lib.sh
# bpf_runs, from /proc/PID/fdinfo: each program once, by prog_id; type 2,
# BPF_PROG_TYPE_KPROBE: not the raw tracepoints of process events)
quick_runs() { # [PID]
	[ -n "${1:-}" ] || { echo "0 0"; return; }
	cat /proc/"$1"/fdinfo/* 2>/dev/null | awk '
		/^pos:/ { id = ""; up = 0 } /^prog_type:/ { up = $2 == 2 }
		/^prog_id:/ && up { id = $2 } /^run_time_ns:/ { ns = $2 }
		/^run_cnt:/ && id != "" && !(id in seen) { seen[id] = 1; r += $2; n += ns }
		END { printf "%.0f %.0f\n", r, n }'
}
pause() { # TRACER_PID VARIANT
	local prev cur o r n c same=1 cfirst f=1,2
	[ "$2" != bpftrace ] || f=1
	kill -STOP "$RPID"
	prev="$(quick_ops) $(quick_runs "$1")" cfirst=$(osd_cpu_ns)
	for _ in $(seq 200); do
		sleep "$QUIET_S"
		cur="$(quick_ops) $(quick_runs "$1")" c=$(osd_cpu_ns)
		read -r o r n <<<"$cur"
		if [ "$(cut -d' ' -f$f <<<"$cur")" = "$(cut -d' ' -f$f <<<"$prev")" ]; then
			same=$((same + 1))
			[ "$same" -lt "$QUIET_N" ] || { echo "$o $r $n $cfirst $c"; return 0; }
		else
			same=1 cfirst=$c
		fi
		prev=$cur
	done
	die "the OSD did not go quiet with rados bench stopped (last: $cur)"
}
resume() { kill -CONT "$RPID"; }


segment() { # VARIANT ROTATION T
	local v=$1 t0 t1 c0 c1 r0 r1 n0 n1 o0 o1 q out=$WORK/$1.t$3.r$2.jsonl
	if [ "$v" = bpftrace ]; then
		"$BPFTRACE" "$WORK/peer.bt" >"$WORK/tracer.err" 2>&1 &
		TPID=$!
	elif [ "$v" != none ]; then
		# shellcheck disable=SC2086
		"$OSDHIST" -p "$OSDPID" ${ARGS[$v]} --json 1 >"$out" 2>"$WORK/tracer.err" &
		TPID=$!
	fi
	if [ -n "$TPID" ]; then
		for _ in $(seq 150); do
			grep -q "attached to ceph-osd\|^Attaching" "$WORK/tracer.err" && break
			kill -0 "$TPID" 2>/dev/null || { cat "$WORK/tracer.err" >&2; die "$v did not start"; }
			sleep 0.1
		done
	fi
	# bpftrace says "Attaching" before it attaches (seconds on a loaded
	# host): wait for its 2 uprobes to be in
	if [ "$v" = bpftrace ]; then
		local deadline=$((SECONDS + 60))
		while [ "$SECONDS" -lt "$deadline" ]; do
			[ "$("$ROOT/scripts/uprobes.sh" "$TPID" | wc -l)" -ge 2 ] && break
			kill -0 "$TPID" 2>/dev/null || { cat "$WORK/tracer.err" >&2; die "$v did not start"; }
			sleep 0.1
		done
	fi
	sleep 1		# past the attach
	# the OSD's CPU time from the end of the first quiet point to the
	# start of the second, where it became quiet
	q=$(pause "$TPID" "$v") || exit 1
	read -r o0 r0 n0 _ c0 <<<"$q"
	t0=$EPOCHREALTIME
	resume
	sleep "$SEG"
	kill -STOP "$RPID"
	t1=$EPOCHREALTIME
	q=$(pause "$TPID" "$v") || exit 1
	read -r o1 r1 n1 c1 _ <<<"$q"
	resume
	if [ -n "$TPID" ]; then
		kill -INT "$TPID"; wait "$TPID" || die "$v exited non-zero"
		TPID=""
	fi
	jq -nc --arg v "$v" --argjson rot "$2" --argjson t "$3" --argjson t0 "$t0" --argjson t1 "$t1" \
		--argjson cpu $((c1 - c0)) --argjson runs $((r1 - r0)) --argjson bpf_ns $((n1 - n0)) \
		--argjson ops $((o1 - o0)) \
		--argjson h "$( [ "$v" != bpftrace ] && [ -s "$out" ] && jq -sc '[.[] | select(.type == "health")] |
			{interval_s: (map(.interval_s) | add), traced_s: (map(.traced_s) | add),
			 window_moves: (last.window_moves // 0), losses: (last.losses // 0)}' "$out" || echo null)" \
		'{variant: $v, rotation: $rot, t: $t, t0: $t0, t1: $t1, ops: $ops, osd_cpu_ns: $cpu, runs: $runs,
		  bpf_ns: $bpf_ns, health: $h}' \
		>>"$WORK/segments.jsonl"
	printf 'bench: -t %-2s rotation %s %-8s done\n' "$3" "$2" "$v" >&2
	sleep 0.5	# the detach's RCU wait, outside the next segment
}

START_DATE=$(date -Iseconds)
: >"$WORK/segments.jsonl"
echo "bench: 10 s write to create the objects" >&2
rados -p "$POOL" bench 10 write -b 4096 -t 16 --no-cleanup >/dev/null || die "rados bench write failed"
for t in "${WORKLOADS[@]}"; do
	# one rados bench for the whole sequence, each line stamped on arrival
	rados -p "$POOL" bench 100000 rand -t "$t" > >(
		while IFS= read -r l; do printf '%s %s\n' "$EPOCHREALTIME" "$l"; done >"$WORK/rados.t$t.log") &
	RPID=$!
	sleep 3		# past the client's start
	for ((r = 1; r <= ROT; r++)); do
		for ((i = 0; i < ${#VARIANTS[@]}; i++)); do
			segment "${VARIANTS[$(((i + r - 1) % ${#VARIANTS[@]}))]}" "$r" "$t"
		done
	done
	kill "$RPID"
	wait "$RPID" || true
	RPID=""
done

mkdir -p "$RESULTS"
OUT=$RESULTS/duty-$(date +%Y%m%d-%H%M%S).json
jq -n --arg mode "$MODE" --argjson rot "$ROT" --argjson seg "$SEG" --arg date "$START_DATE" \
	--arg kernel "$(uname -r)" --argjson nproc "$(nproc)" --arg ceph "$(ceph --version)" \
	--arg commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)" \
	--argjson args "$({ for v in "${!ARGS[@]}"; do printf '%s\n%s\n' "$v" "osdhist -p OSDPID ${ARGS[$v]} --json 1"; done
		printf '%s\n%s\n' bpftrace "bpftrace bench/peer.bt"; } |
		jq -R . | jq -sc '[_nwise(2) | {key: .[0], value: .[1]}] | from_entries')" '
	{mode: $mode, rotations: $rot, segment_secs: $seg, variants: ($args + {none: "no tracer"}),
	 workload: "one rados bench rand (4 KiB objects) per -t, variants in turn; 1 memstore OSD, private ceph-osd copy",
	 machine: {date: $date, nproc: $nproc, kernel: $kernel, ceph: $ceph, commit: $commit}}' >"$WORK/meta.json"
python3 bench/duty_report.py "$WORK/meta.json" "$WORK/segments.jsonl" "$OUT" "$WORK"/rados.t*.log
