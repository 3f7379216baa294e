#!/bin/bash
# bench/loader_cost.sh (make bench-loader): what the loader costs a host of
# many OSDs at a 1 s interval, self-check included.  A throwaway cluster of
# N memstore OSDs (default 24) on this host, one osdhist with its defaults
# (--json 1: every snapshot rendered, the self-check on), its CPU time
# (utime + stime of /proc/PID/stat) over a quiet window and over one under
# rados bench writes.  Then the per-CPU front rows' read for a host of more
# CPUs (bench/front_cost.c: measured here, modelled for 128 CPUs and the
# rows the loader gives them) added to the figure measured here, which
# read this host's rows already: an upper bound for the large host.
# A table on stdout, the same in bench/results/loader-*.json.
#
# Usage: bench/loader_cost.sh [--osds N] [--secs S] [--results DIR]
# Env: OSDHIST (default ./osdhist).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OSDS=24 SECS=60
RESULTS=$ROOT/bench/results
OSDHIST=${OSDHIST:-$ROOT/osdhist}

usage() { sed -n '/^# Usage:/,/^# Env:/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
	case $1 in
	--osds) OSDS=${2:?}; shift 2 ;;
	--secs) SECS=${2:?}; shift 2 ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $OSDS =~ ^[1-9][0-9]*$ ]] || die "--osds must be a positive integer"
[[ $SECS =~ ^[1-9][0-9]*$ ]] || die "--secs must be a positive integer"
[ -x "$OSDHIST" ] || die "no $OSDHIST: run make first"

WORK=$(mktemp -d /tmp/osdhist-loader.XXXXXX)
TPID=
cleanup() {
	[ -z "$TPID" ] || kill -INT "$TPID" 2>/dev/null || true
	[ -z "$TPID" ] || wait "$TPID" 2>/dev/null || true
	"$ROOT/scripts/cluster.sh" stop "$WORK/cluster" >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$ROOT/scripts/cluster.sh" start "$WORK/cluster" --osds "$OSDS" --store memstore >&2 ||
	die "cluster start failed"
# shellcheck disable=SC1091
. "$WORK/cluster/env"
FSID=$(awk '$1 == "fsid" && $2 == "=" {print $3; exit}' "$WORK/cluster/ceph.conf")

"$OSDHIST" --json 1 >"$WORK/out.json" 2>"$WORK/err" &
TPID=$!
# every OSD of this cluster verified once: attached, and the self-check
# has its baseline
for _ in $(seq 300); do
	n=$(jq -s --arg f "$FSID" '[.[] | select(.type == "verify" and .fsid == $f
		and .state == "verified") | .osd] | unique | length' "$WORK/out.json" 2>/dev/null || echo 0)
	[ "$n" -ge "$OSDS" ] && break
	kill -0 "$TPID" 2>/dev/null || { cat "$WORK/err" >&2; die "osdhist exited"; }
	sleep 1
done
[ "$n" -ge "$OSDS" ] || die "only $n of $OSDS OSDs verified after 300 s"
CLK=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$TPID/stat"; }
health() { grep '"type":"health"' "$WORK/out.json" | tail -n 1; }

# window NAME [CMD...]: osdhist's CPU over SECS s, CMD running meanwhile
window() {
	local name=$1 t0 t1 s0 s1 lines0 lines1 h
	shift
	lines0=$(wc -l <"$WORK/out.json")
	t0=$(ticks) s0=$(date +%s.%N)
	if [ $# -gt 0 ]; then timeout -k 5 $((SECS + 30)) "$@" >/dev/null 2>&1 || true; else sleep "$SECS"; fi
	t1=$(ticks) s1=$(date +%s.%N)
	lines1=$(wc -l <"$WORK/out.json")
	h=$(health)
	jq -n --arg name "$name" --argjson t "$((t1 - t0))" --argjson clk "$CLK" \
		--argjson wall "$(echo "$s1 - $s0" | bc)" --argjson h "$h" \
		--argjson snaps "$(sed -n "$((lines0 + 1)),${lines1}p" "$WORK/out.json" | grep -c '"type":"health"')" \
		--argjson checks "$(sed -n "$((lines0 + 1)),${lines1}p" "$WORK/out.json" | grep -c '"type":"verify"')" \
		'{window: $name, wall_s: $wall, cpu_s: ($t / $clk), cpu_pct: ($t / $clk / $wall * 100),
		  snapshots: $snaps, verify_lines: $checks, front_rows: $h.front_rows,
		  front_rows_max: $h.front_rows_max, opc_rows: $h.opc_rows, tail_ops: $h.tail_ops,
		  done: $h.done, losses: $h.losses}'
}
window quiet >"$WORK/quiet.json"
window "rados bench write -t 16" rados -p "$POOL" bench "$SECS" write -b 4096 -t 16 >"$WORK/load.json"

cc -O3 -std=c11 -Wall -D_GNU_SOURCE -Imaps -Iloader -o "$WORK/front_cost" bench/front_cost.c \
	loader/front.c -lbpf || die "cannot build bench/front_cost.c"
"$WORK/front_cost" >"$WORK/front.json" || die "bench/front_cost failed"

mkdir -p "$RESULTS"
OUT=$RESULTS/loader-$(date +%Y%m%d-%H%M%S).json
jq -s --argjson osds "$OSDS" --arg cpus "$(nproc)" --arg kernel "$(uname -r)" \
	'{osds: $osds, interval_s: 1, cpus_here: ($cpus | tonumber), kernel: $kernel,
	  windows: .[0:2], front_cost: .[2],
	  large_host_pct: ((.[0:2] | map(.cpu_pct) | max) + .[2].model.cpu_pct_at_1s)}' \
	"$WORK/quiet.json" "$WORK/load.json" "$WORK/front.json" >"$OUT"
jq -r '"osdhist loader, \(.osds) OSDs, --json 1 (self-check on), \(.cpus_here) CPUs, kernel \(.kernel):",
	(.windows[] | "  \(.window): \(.cpu_pct * 1000 | round / 1000) % of a core over \(.wall_s | round) s, \(.snapshots) snapshots, \(.verify_lines) verify lines, front rows \(.front_rows)/\(.front_rows_max), op-code rows \(.opc_rows), tail ops \(.tail_ops), losses \(.losses)"),
	"  per-CPU front rows on \(.front_cost.model.cpus) CPUs (modelled, bench/front_cost.c): +\(.front_cost.model.cpu_pct_at_1s) % at 1 s",
	"large host, 1 s interval: \(.large_host_pct * 1000 | round / 1000) % of a core (limit 0.5 %)",
	"results: '"$OUT"'"' "$OUT"
