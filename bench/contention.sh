#!/bin/bash
# bench/contention.sh (make bench-contention): does a build's BPF time per
# op grow when the OSD's threads run on several CPUs?  Counters shared by
# all CPUs (atomic adds into one hash value) pull their cache lines from
# the CPU that wrote them last; per-CPU rows do not.  One memstore OSD
# (a private copy of ceph-osd, bench/lib.sh), pinned to one CPU (taskset -a)
# or spread over all of them, traced by each build in turn (--json 1, so
# that the per-CPU build's keys have their rows after the warm-up), in
# rounds whose order rotates.  A round: 2 s of writes to warm up and let a
# snapshot give the rows, then SECS s of rados bench writes -t 16,
# measured: BPF run time over the OSD's client ops (perf dump op).
# A table on stdout, the same in bench/results/contention-*.json.
#
# Usage: bench/contention.sh [--rounds N] [--secs S] [--results DIR]
# Env: OSDHIST (the build under test, default ./osdhist), OSDHIST_PREV (the
# build to compare it with, required: e.g. one of a commit before the
# per-CPU rows).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ROUNDS=4 SECS=8
RESULTS=$ROOT/bench/results
OSDHIST=${OSDHIST:-$ROOT/osdhist}
OSDHIST_PREV=${OSDHIST_PREV:-}

usage() { sed -n '/^# Usage:/,/^# per-CPU rows)/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) ROUNDS=${2:?}; shift 2 ;;
	--secs) SECS=${2:?}; shift 2 ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer"
[[ $SECS =~ ^[1-9][0-9]*$ ]] || die "--secs must be a positive integer"
[ -n "$OSDHIST_PREV" ] || die "set OSDHIST_PREV to the build to compare with"
for b in "$OSDHIST" "$OSDHIST_PREV"; do [ -x "$b" ] || die "no executable $b"; done
[ "$(nproc)" -ge 2 ] || die "needs 2 CPUs or more"

# shellcheck source=bench/lib.sh
. bench/lib.sh
WORK=$(mktemp -d /tmp/osdhist-contention.XXXXXX)
TPID="" STATS_PID=""
bench_stop_own() {
	[ -z "$TPID" ] || { kill -INT "$TPID" 2>/dev/null; wait "$TPID" 2>/dev/null; }
}
bench_traps

bench_cluster_start
bench_stats_on
ALL=$(taskset -p $$ | awk '{print $NF}')	# this shell's CPU mask: all of them

# one_round BUILD PLACEMENT: prints one JSON line
one_round() {
	local build=$1 place=$2 bin mask runs0 ns0 runs1 ns1 op0 op1
	bin=$([ "$build" = percpu ] && echo "$OSDHIST" || echo "$OSDHIST_PREV")
	mask=$([ "$place" = pinned ] && echo 1 || echo "$ALL")
	taskset -a -p "$mask" "$OSDPID" >/dev/null
	"$bin" -p "$OSDPID" --json 1 >"$WORK/out" 2>"$WORK/err" &
	TPID=$!
	bench_wait_attached "$TPID" "$WORK/err" "$build"
	rados -p "$POOL" bench 2 write -b 4096 -t 16 --no-cleanup >/dev/null
	sleep 1.5	# a snapshot: the keys get their rows
	read -r runs0 ns0 < <(bpf_runs "$TPID")
	op0=$(osd_ops)
	rados -p "$POOL" bench "$SECS" write -b 4096 -t 16 --no-cleanup >/dev/null
	op1=$(osd_ops)
	read -r runs1 ns1 < <(bpf_runs "$TPID")
	kill -INT "$TPID"; wait "$TPID" || true
	TPID=
	jq -cn --arg b "$build" --arg p "$place" --argjson ops "$((op1 - op0))" \
		--argjson runs "$((runs1 - runs0))" --argjson ns "$((ns1 - ns0))" \
		--argjson tail "$(grep '"type":"health"' "$WORK/out" | tail -n 1 | jq '.tail_ops // null')" \
		'{build: $b, placement: $p, ops: $ops, runs: $runs, ns: $ns,
		  ns_per_op: (if $ops > 0 then $ns / $ops else null end), tail_ops: $tail}'
}

combos=("shared pinned" "shared spread" "percpu pinned" "percpu spread")
: >"$WORK/rounds.jsonl"
for r in $(seq "$ROUNDS"); do
	for i in 0 1 2 3; do
		c=${combos[$(((i + r) % 4))]}
		# shellcheck disable=SC2086
		one_round $c | jq -c --argjson r "$r" '. + {round: $r}' | tee -a "$WORK/rounds.jsonl" >&2
	done
done
taskset -a -p "$ALL" "$OSDPID" >/dev/null

mkdir -p "$RESULTS"
OUT=$RESULTS/contention-$(date +%Y%m%d-%H%M%S).json
jq -s --arg cpus "$(nproc)" --arg kernel "$(uname -r)" --arg prev "$OSDHIST_PREV" '
	def mean: add / length;
	def se: (if length > 1 then (mean as $m | (map(. - $m | . * .) | add) / (length - 1) / length | sqrt) else null end);
	{cpus: ($cpus | tonumber), kernel: $kernel, shared_build: $prev, rounds: .,
	 table: (group_by(.build + " " + .placement) | map({build: .[0].build, placement: .[0].placement,
		ns_per_op: (map(.ns_per_op) | mean), se: (map(.ns_per_op) | se), n: length}))}
	| .ratio = ([.table[] | {key: "\(.build) \(.placement)", value: .ns_per_op}] | from_entries
		| {shared: (.["shared spread"] / .["shared pinned"]), percpu: (.["percpu spread"] / .["percpu pinned"])})' \
	"$WORK/rounds.jsonl" >"$OUT"
jq -r '"BPF ns per client op, rados bench write -t 16, \(.cpus) CPUs, kernel \(.kernel), \(.rounds | length / 4) rounds:",
	(.table[] | "  \(.build) \(.placement): \(.ns_per_op | round) ns (+- \(.se // 0 | round) s.e.)"),
	"  spread / pinned: shared \(.ratio.shared * 1000 | round / 1000)x, per-CPU \(.ratio.percpu * 1000 | round / 1000)x",
	"results: '"$OUT"'"' "$OUT"
