#!/bin/bash
# bench/waits.sh (make bench-waits): do probe moves make OSD threads wait?
#
# Sampling moves the probes in and out several times a second.  With
# perf-event uprobes a detach made OSD threads sleep in the uprobe handler
# on the uprobe's register_rwsem (~10 ms each, measured before); uprobe_multi
# links take the consumer out first.  Here one rados bench rand runs on a
# private OSD, and for each variant bench/waits.bt counts the OSD's threads
# that blocked (D state) for more than 1 ms, by kernel stack:
#
#   none    no tracer (the OSD's own long waits)
#   multi   osdhist -p OSDPID --sample 10ms/250ms              (uprobe_multi)
#   perf    osdhist -p OSDPID --sample 10ms/250ms --perf-uprobes
#
# Per variant: probe moves, long waits in all, those with a uprobe function
# on the stack, and both per 100 moves.  A table on stdout, the figures in
# bench/results/waits-*.json.
#
# Usage: bench/waits.sh [--secs N] [--smoke] [--results DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SECS=20 MODE=full
RESULTS=$ROOT/bench/results
OSDHIST=${OSDHIST:-$ROOT/osdhist}

usage() { sed -n '/^# Usage:/p' "$0" | sed 's/^# //' >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--secs) SECS=${2:?}; shift 2 ;;
	--smoke) SECS=4 MODE=smoke; shift ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $SECS =~ ^[1-9][0-9]*$ ]] || die "--secs must be a positive integer"
[ "$(id -u)" = 0 ] || die "needs root (BPF, uprobes): run 'sudo make bench-waits'"
for t in "$OSDHIST" bpftrace jq python3 rados unshare; do
	command -v "$t" >/dev/null || die "$t not found (make deps installs everything)"
done

# shellcheck source=bench/lib.sh
. bench/lib.sh
WORK=$(mktemp -d /tmp/osdhist-waits.XXXXXX)
TPID="" RPID=""
bench_stop_own() {
	[ -z "$TPID" ] || { kill -INT "$TPID"; wait "$TPID"; } 2>/dev/null
	[ -z "$RPID" ] || { kill "$RPID"; wait "$RPID"; } 2>/dev/null
}
bench_traps

bench_cluster_start
rados -p "$POOL" bench 5 write -b 4096 -t 16 --no-cleanup >/dev/null || die "rados bench write failed"
rados -p "$POOL" bench 100000 rand -t 16 >/dev/null 2>&1 &
RPID=$!
sleep 2

declare -A ARGS=([multi]="" [perf]="--perf-uprobes")
: >"$WORK/variants.jsonl"
for v in none multi perf; do
	out=$WORK/$v.json
	: >"$out"
	if [ "$v" != none ]; then
		# shellcheck disable=SC2086
		"$OSDHIST" -p "$OSDPID" --sample 10ms/250ms ${ARGS[$v]} --json 1 >"$out" 2>"$WORK/tracer.err" &
		TPID=$!
		bench_wait_attached "$TPID" "$WORK/tracer.err" "$v"
		sleep 1
	fi
	moves0=$(jq -s '[.[] | select(.type=="health")] | last.window_moves // 0' "$out")
	"$ROOT/scripts/tracefs.sh" bpftrace "$ROOT/bench/waits.bt" "$OSDPID" "$SECS" \
		>"$WORK/$v.bt" 2>"$WORK/$v.bt.err" ||
		{ cat "$WORK/$v.bt.err" >&2; die "bpftrace failed"; }
	moves1=$(jq -s '[.[] | select(.type=="health")] | last.window_moves // 0' "$out")
	if [ -n "$TPID" ]; then
		kill -INT "$TPID"; wait "$TPID" || die "$v exited non-zero"
		TPID=""
	fi
	python3 - "$v" $((moves1 - moves0)) "$SECS" "$WORK/$v.bt" >>"$WORK/variants.jsonl" <<'PY'
import json, re, sys
v, moves, secs, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
text = open(path).read()
waits = []	# (stack, count, ns)
counts = {m.group(1): int(m.group(2)) for m in re.finditer(r"@long\[\n(.*?)\]: (\d+)", text, re.S)}
sums = {m.group(1): int(m.group(2)) for m in re.finditer(r"@long_ns\[\n(.*?)\]: (\d+)", text, re.S)}
for stk, n in counts.items():
    frames = [f.strip().split("+")[0] for f in stk.strip().splitlines()]
    waits.append({"stack": frames, "count": n, "ns": sums.get(stk, 0),
                  "uprobe": any("uprobe" in f for f in frames)})
total = sum(w["count"] for w in waits)
up = sum(w["count"] for w in waits if w["uprobe"])
per100 = lambda n: None if not moves else 100.0 * n / moves
print(json.dumps({"variant": v, "secs": secs, "moves": moves, "long_waits": total,
                  "uprobe_waits": up, "long_waits_per_100_moves": per100(total),
                  "uprobe_waits_per_100_moves": per100(up), "waits": waits}))
PY
	echo "bench: $v done" >&2
done

mkdir -p "$RESULTS"
OUT=$RESULTS/waits-$(date +%Y%m%d-%H%M%S).json
jq -s --arg mode "$MODE" --arg kernel "$(uname -r)" --argjson nproc "$(nproc)" \
	--arg commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)" \
	'{mode: $mode, machine: {kernel: $kernel, nproc: $nproc, commit: $commit},
	  workload: "rados bench rand -t 16, 1 memstore OSD, private ceph-osd copy; waits > 1 ms in D state",
	  variants: .}' "$WORK/variants.jsonl" >"$OUT"
echo
echo "OSD threads blocked > 1 ms while osdhist --sample 10ms/250ms moves its probes ($SECS s each)"
printf '%-6s %7s %11s %13s %20s %22s\n' variant moves "long waits" "uprobe waits" "long / 100 moves" "uprobe / 100 moves"
jq -r '.variants[] | [.variant, .moves, .long_waits, .uprobe_waits,
	(.long_waits_per_100_moves // "-" | tostring), (.uprobe_waits_per_100_moves // "-" | tostring)] | @tsv' "$OUT" |
	while IFS=$'\t' read -r a b c d e f; do printf '%-6s %7s %11s %13s %20.20s %22.22s\n' "$a" "$b" "$c" "$d" "$e" "$f"; done
echo "stacks of the long waits: $OUT"
