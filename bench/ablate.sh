#!/bin/bash
# bench/ablate.sh (make bench-ablate): where osdhist's BPF time per client
# op goes, stage by stage.
#
# Builds the BPF programs of HEAD again with bench/ablation.patch applied
# (a copy of the tree in a temp dir), each build stopping a little later:
#
#   empty     both programs return at entry: the floor (entering a BPF
#             program, and the run-time statistics themselves)
#   reads     op_done reads its two windows (OpRequest, Message)
#   hist      ... and updates the histogram
#   marks     ... and makes the done mark, _unregistered takes it: this is
#             osdhist --no-op-types
#   lookup    ... and op types on: the client message's window holds
#             MOSDOp::ops, and the op-code counters are looked up, but the
#             op vector is not read
#   vector    ... and the op vector read, but not counted
#   optypes   osdhist --slowest 0
#   slowest   osdhist, the default (the slowest ops' per-op compare, and
#             their slow path for the few slower than the slots)
#
# (every build but the last runs with --slowest 0)
#
# and runs them in alternating rounds, the order rotated from round to
# round, under `rados bench -b 4096 -t 16` writes (--threads: -t) on a throwaway 1-OSD
# memstore cluster (bench/lib.sh): BPF run time per client op (bpf_stats
# over perf dump's osd.op).  Prints mean and standard error per build and
# the step from the previous one; JSON in bench/results/ablate-*.json.
#
# Usage: bench/ablate.sh [--rounds N] [--round-secs N] [--threads N] [--results DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=5 ROUND_SECS=6 THREADS=16 RESULTS=$ROOT/bench/results

usage() { sed -n '/^# Usage:/p' "$0" | sed 's/^# //' >&2; exit 2; }
die() { echo "ablate: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
	case $1 in
	--rounds) ROUNDS=${2:?}; shift 2 ;;
	--round-secs) ROUND_SECS=${2:?}; shift 2 ;;
	--threads) THREADS=${2:?}; shift 2 ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer"
[[ $ROUND_SECS =~ ^[1-9][0-9]*$ ]] || die "--round-secs must be a positive integer"
[[ $THREADS =~ ^[1-9][0-9]*$ ]] || die "--threads must be a positive integer"
[ "$(id -u)" = 0 ] || die "needs root (BPF, uprobes, bpf_stats): run 'sudo make bench-ablate'"
for t in bpftool jq python3 rados ceph patch make; do
	command -v "$t" >/dev/null || die "$t not found (make deps installs everything)"
done

WORK=$(mktemp -d /tmp/osdhist-ablate.XXXXXX)
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"
TPID=
cleanup() {
	[ -z "$TPID" ] || kill -INT "$TPID" 2>/dev/null || true
	[ -z "${STATS_PID:-}" ] || kill "$STATS_PID" 2>/dev/null || true
	bench_cluster_stop
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# name, extra clang flags, osdhist arguments
BUILDS=(
	"empty|-DABLATE_STAGE=0|--no-op-types --slowest 0"
	"reads|-DABLATE_STAGE=1|--no-op-types --slowest 0"
	"hist|-DABLATE_STAGE=2|--no-op-types --slowest 0"
	"marks||--no-op-types --slowest 0"
	"lookup|-DABLATE_LOOKUP|--slowest 0"
	"vector|-DABLATE_VECTOR|--slowest 0"
	"optypes||--slowest 0"
	"slowest||"
)

echo "ablate: building ${#BUILDS[@]} variants of $(git rev-parse --short HEAD)" >&2
mkdir -p "$WORK/src" "$WORK/bin"
git archive HEAD | tar -x -C "$WORK/src"
patch -s -d "$WORK/src" -p1 <"$ROOT/bench/ablation.patch" || die "bench/ablation.patch does not apply to HEAD"
for b in "${BUILDS[@]}"; do
	IFS='|' read -r name flags _ <<<"$b"
	[ -e "$WORK/bin/$flags.osdhist" ] || {
		rm -f "$WORK/src/build/osdhist.bpf.o"
		make -s -C "$WORK/src" osdhist BPF_CFLAGS="$flags" >"$WORK/build.log" 2>&1 ||
			{ cat "$WORK/build.log" >&2; die "build $name failed"; }
		cp "$WORK/src/osdhist" "$WORK/bin/$flags.osdhist"
	}
done

bench_cluster_start
bench_stats_on

: >"$WORK/rounds.txt"
n=${#BUILDS[@]}
for ((r = 0; r < ROUNDS; r++)); do
	for ((k = 0; k < n; k++)); do
		IFS='|' read -r name flags args <<<"${BUILDS[(k + r) % n]}"
		# a 1 s interval, and 2 s of writes then a snapshot before the
		# measure: the keys get their per-CPU rows (maps/osdhist.h), as
		# a long-running osdhist has them
		# shellcheck disable=SC2086
		"$WORK/bin/$flags.osdhist" -p "$OSDPID" $args 1 >/dev/null 2>"$WORK/t.err" &
		TPID=$!
		for _ in $(seq 100); do grep -q attached "$WORK/t.err" && break; sleep 0.1; done
		grep -q attached "$WORK/t.err" || { cat "$WORK/t.err" >&2; die "$name did not attach"; }
		rados -p "$POOL" bench 2 write -t "$THREADS" -b 4096 --no-cleanup >/dev/null 2>&1 ||
			die "rados bench failed"
		sleep 1.2
		read -r _ t0 < <(bpf_runs "$TPID"); o0=$(osd_ops)
		rados -p "$POOL" bench "$ROUND_SECS" write -t "$THREADS" -b 4096 --no-cleanup >/dev/null 2>&1 ||
			die "rados bench failed"
		o1=$(osd_ops); read -r _ t1 < <(bpf_runs "$TPID")
		kill -INT "$TPID"
		wait "$TPID" || die "$name exited $?"
		TPID=
		echo "$name $(( (t1 - t0) / (o1 - o0) )) $((o1 - o0))" | tee -a "$WORK/rounds.txt" >&2
	done
	rados -p "$POOL" cleanup >/dev/null 2>&1 || true
done

mkdir -p "$RESULTS"
out=$RESULTS/ablate-$(date -u +%Y%m%d-%H%M%S).json
python3 - "$WORK/rounds.txt" "$out" "$(git rev-parse --short HEAD)" "$THREADS" "${BUILDS[@]%%|*}" <<'EOF'
import json, math, sys
rounds, out, commit, threads, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
ns = {n: [] for n in names}
for line in open(rounds):
    name, v, _ = line.split()
    ns[name].append(int(v))
def mean_se(v):
    m = sum(v) / len(v)
    se = math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v)) if len(v) > 1 else 0
    return m, se
rows, prev = [], None
print("%-8s %10s %8s %10s" % ("build", "BPF ns/op", "s.e.", "step"))
for n in names:
    m, se = mean_se(ns[n])
    step = None if prev is None else m - prev
    rows.append({"build": n, "bpf_ns_per_op": m, "se": se, "step_ns": step, "rounds": ns[n]})
    print("%-8s %10.0f %8.0f %10s" % (n, m, se, "" if step is None else "%+.0f" % step))
    prev = m
json.dump({"commit": commit, "workload": "rados bench write -b 4096 -t %s" % threads, "builds": rows},
          open(out, "w"), indent=1)
print("ablate: %s" % out, file=sys.stderr)
EOF
