#!/bin/bash
# bench/pair.sh (make bench-pair): two osdhist builds' BPF time per op,
# measured on the same ops at the same time.  On this VM one build's figure
# moves by 100 ns and more from round to round with the OSD's heap and the
# host's load (bench/README.md), which hides any change smaller than that
# between rounds of `make bench`.  Here both builds trace the same OSD at
# once: every op traps once and runs both builds' programs back to back,
# so the OSD's state, the load and the user pages each op reads are the
# same for both.  The one left over, which build runs first on an op (the
# second finds the OSD's lines in the cache), is cancelled by attaching
# them in turn first and second from round to round, and the difference
# is taken over pairs of rounds (one with each order).  A round: start both
# (--json 1), 2 s of writes to warm up and let a snapshot give the hot keys
# their front rows, then SECS s of rados bench -t 16 writes (or reads with
# --read), measured: each build's uprobe programs' run time over the OSD's
# client ops (perf dump op).  One memstore OSD, a private copy of ceph-osd
# (bench/lib.sh).  A table on stdout, the same in bench/results/pair-*.json.
#
# Usage: bench/pair.sh [--rounds N] [--secs S] [--read] [--results DIR]
# Env: OSDHIST (build A, default ./osdhist), OSDHIST_PREV (build B,
# required), OSDHIST_ARGS, OSDHIST_PREV_ARGS (their options, e.g.
# --no-op-types).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=6 SECS=8 MODE=write
RESULTS=$ROOT/bench/results
OSDHIST=${OSDHIST:-$ROOT/osdhist}
OSDHIST_PREV=${OSDHIST_PREV:-}
OSDHIST_ARGS=${OSDHIST_ARGS:-}
OSDHIST_PREV_ARGS=${OSDHIST_PREV_ARGS:-}

usage() { sed -n '/^# Usage:/,/^# --no-op-types)/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) ROUNDS=${2:?}; shift 2 ;;
	--secs) SECS=${2:?}; shift 2 ;;
	--read) MODE="read"; shift ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ && $((ROUNDS % 2)) = 0 ]] || die "--rounds must be an even positive integer (each build first in half of them)"
[[ $SECS =~ ^[1-9][0-9]*$ ]] || die "--secs must be a positive integer"
[ -n "$OSDHIST_PREV" ] || die "set OSDHIST_PREV to the build to compare with"
for b in "$OSDHIST" "$OSDHIST_PREV"; do [ -x "$b" ] || die "no executable $b"; done
[ "$(id -u)" = 0 ] || die "needs root (BPF, uprobes, bpf_stats): run 'sudo make bench-pair'"

# shellcheck source=bench/lib.sh
. bench/lib.sh
WORK=$(mktemp -d /tmp/osdhist-pair.XXXXXX)
PA="" PB="" STATS_PID=""
stop_tracers() {
	local p
	for p in $PA $PB; do kill -INT "$p" 2>/dev/null || true; done
	for p in $PA $PB; do wait "$p" 2>/dev/null || true; done
	PA="" PB=""
}
bench_stop_own() { stop_tracers; }
bench_traps

bench_cluster_start
bench_stats_on
rados -p "$POOL" bench 10 write -b 4096 -t 16 --no-cleanup >/dev/null	# objects to read

# start BIN ARGS TAG: one tracer, back once it has attached; prints its pid
start() {
	local bin=$1 args=$2 tag=$3 pid
	# shellcheck disable=SC2086
	"$bin" -p "$OSDPID" --json 1 $args >"$WORK/$tag.out" 2>"$WORK/$tag.err" &
	pid=$!
	bench_wait_attached "$pid" "$WORK/$tag.err" "$bin"
	echo "$pid"
}

load() { # SECS
	if [ "$MODE" = read ]; then
		rados -p "$POOL" bench "$1" rand -t 16 >/dev/null
	else
		rados -p "$POOL" bench "$1" write -b 4096 -t 16 --no-cleanup >/dev/null
	fi
}

# one_round FIRST(a|b): prints one JSON line
one_round() {
	local first=$1 ra0 na0 rb0 nb0 ra1 na1 rb1 nb1 op0 op1
	if [ "$first" = a ]; then
		PA=$(start "$OSDHIST" "$OSDHIST_ARGS" a); PB=$(start "$OSDHIST_PREV" "$OSDHIST_PREV_ARGS" b)
	else
		PB=$(start "$OSDHIST_PREV" "$OSDHIST_PREV_ARGS" b); PA=$(start "$OSDHIST" "$OSDHIST_ARGS" a)
	fi
	load 2
	sleep 1.5	# a snapshot: the keys get their rows
	read -r ra0 na0 < <(bpf_runs "$PA")
	read -r rb0 nb0 < <(bpf_runs "$PB")
	op0=$(osd_ops)
	load "$SECS"
	op1=$(osd_ops)
	read -r ra1 na1 < <(bpf_runs "$PA")
	read -r rb1 nb1 < <(bpf_runs "$PB")
	stop_tracers
	jq -cn --arg first "$first" --argjson ops "$((op1 - op0))" \
		--argjson ra "$((ra1 - ra0))" --argjson na "$((na1 - na0))" \
		--argjson rb "$((rb1 - rb0))" --argjson nb "$((nb1 - nb0))" \
		'{first: $first, ops: $ops, a_runs: $ra, b_runs: $rb,
		  a: (if $ops > 0 then $na / $ops else null end),
		  b: (if $ops > 0 then $nb / $ops else null end)}'
}

: >"$WORK/rounds.jsonl"
for r in $(seq "$ROUNDS"); do
	one_round "$([ $((r % 2)) = 1 ] && echo a || echo b)" |
		jq -c --argjson r "$r" '. + {round: $r}' | tee -a "$WORK/rounds.jsonl" >&2
done

mkdir -p "$RESULTS"
OUT=$RESULTS/pair-$(date +%Y%m%d-%H%M%S).json
jq -s --arg a "$OSDHIST $OSDHIST_ARGS" --arg b "$OSDHIST_PREV $OSDHIST_PREV_ARGS" \
	--arg mode "$MODE" --arg kernel "$(uname -r)" '
	def mean: add / length;
	def se: (if length > 1 then (mean as $m | (map(. - $m | . * .) | add) / (length - 1) / length | sqrt) else null end);
	# a pair of rounds, one with each build first: its A - B is free of
	# the order, and the order (first - second) free of the builds
	[range(0; length; 2) as $i | .[$i:$i + 2]] as $pairs
	| {a: $a, b: $b, mode: $mode, kernel: $kernel, rounds: .,
	   a_ns: (map(.a) | mean), b_ns: (map(.b) | mean),
	   diffs: ($pairs | map(map(.a - .b) | mean)),
	   order: ($pairs | map(map(if .first == "a" then .b - .a else .a - .b end) | mean))}
	| .diff_ns = (.diffs | mean) | .diff_se = (.diffs | se)
	| .order_ns = (.order | mean) | .ratio = (.a_ns / .b_ns)' "$WORK/rounds.jsonl" >"$OUT"
jq -r '"BPF ns per client op, both builds on the same ops (rados bench \(.mode) -t 16), \(.rounds | length) rounds:",
	"  A \(.a): \(.a_ns | round) ns",
	"  B \(.b): \(.b_ns | round) ns",
	"  A - B: \(.diff_ns | round) ns (+- \(.diff_se // 0 | round) s.e. over \(.diffs | length) pairs of rounds); A / B \(.ratio * 1000 | round / 1000)x",
	"  attached second, a build costs \(.order_ns | round) ns more than attached first",
	"results: '"$OUT"'"' "$OUT"
