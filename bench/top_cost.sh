#!/bin/bash
# bench/top_cost.sh (make bench-top): what --top costs the loader against
# the text output, at a 1 s interval on a host of 12 OSDs (issue 40: --top
# at most the text's + 0.1 % of a core).  A throwaway cluster of OSDS memstore
# OSDs (default 12) under `rados bench` 4 KiB writes for the whole run; two
# osdhist at once on it, `--text 1` into a file and `--top 1` in a tmux
# pane (160 columns, a row for every OSD and class); in each of ROUNDS rounds
# of SECS seconds, both processes' utime + stime (/proc/PID/stat) over the
# same window.  Odd rounds --top shows the table, even rounds it is
# drilled into the first row's OSD (Enter: that OSD's text rendered every
# snapshot).  A table on stdout, the same in bench/results/top-*.json.
#
# Usage: bench/top_cost.sh (no arguments)
# Env: OSDHIST (default ./osdhist), OSDS (12), ROUNDS (4), SECS (30 a round),
#      RESULTS (bench/results).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OSDHIST=${OSDHIST:-$ROOT/osdhist} OSDS=${OSDS:-12} ROUNDS=${ROUNDS:-4} SECS=${SECS:-30}
RESULTS=${RESULTS:-$ROOT/bench/results}
die() { echo "bench: $*" >&2; exit 1; }
[ $# = 0 ] || die "no arguments: set OSDS, ROUNDS, SECS in the environment (see $0)"
for v in OSDS ROUNDS SECS; do [[ ${!v} =~ ^[1-9][0-9]*$ ]] || die "$v must be a positive integer"; done
[ -x "$OSDHIST" ] || die "no $OSDHIST: run make first"
command -v tmux >/dev/null || die "tmux is missing: apt-get install tmux"

WORK=$(mktemp -d /tmp/osdhist-top.XXXXXX)
TM=(tmux -L "osdhist-topcost-$$" -f /dev/null)
XPID='' BPID=''
cleanup() {
	[ -z "$XPID" ] || kill -INT "$XPID" 2>/dev/null || true
	[ -z "$BPID" ] || kill "$BPID" 2>/dev/null || true
	"${TM[@]}" kill-server 2>/dev/null || true
	"$ROOT/scripts/cluster.sh" stop "$WORK/cluster" >/dev/null 2>&1 || true
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$ROOT/scripts/cluster.sh" start "$WORK/cluster" --osds "$OSDS" --store memstore --pg 64 >&2 ||
	die "cluster start failed"
# shellcheck disable=SC1091
. "$WORK/cluster/env"

rados -p "$POOL" bench $((ROUNDS * SECS + 120)) write -b 4096 -t 16 --no-cleanup >/dev/null 2>&1 &
BPID=$!
"$OSDHIST" --text 1 >"$WORK/text" 2>"$WORK/text.err" &
XPID=$!
H=$(( $(pgrep -c -x ceph-osd) * 6 + 16 ))
"${TM[@]}" new-session -d -s top -x 160 -y "$H" \
	"sh -c 'echo \$\$ >$WORK/top.pid; exec $OSDHIST --top 1 2>$WORK/top.err'"
for _ in $(seq 600); do [ -s "$WORK/top.pid" ] && break; sleep 0.1; done
TPID=$(cat "$WORK/top.pid")
# both attached to every OSD and printing: their first snapshots, then a
# settling while the self-check takes its baselines
for _ in $(seq 600); do
	[ "$(grep -c '^health:\|^!! health:' "$WORK/text" 2>/dev/null || true)" -ge 3 ] &&
		"${TM[@]}" capture-pane -p -t top | grep -q '^osd\.' && break
	kill -0 "$XPID" "$TPID" 2>/dev/null || die "an osdhist exited: $(cat "$WORK/text.err" "$WORK/top.err")"
	sleep 0.1
done
sleep 10
CLK=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

for r in $(seq "$ROUNDS"); do
	view=table
	if [ $((r % 2)) = 0 ]; then
		view=drill
		"${TM[@]}" send-keys -t top Enter
	fi
	sleep 2	# the view settled
	x0=$(ticks "$XPID") t0=$(ticks "$TPID") s0=$(date +%s.%N)
	sleep "$SECS"
	x1=$(ticks "$XPID") t1=$(ticks "$TPID") s1=$(date +%s.%N)
	[ "$view" = drill ] && "${TM[@]}" send-keys -t top Escape
	jq -n --argjson r "$r" --arg view "$view" --argjson clk "$CLK" \
		--argjson wall "$(echo "$s1 - $s0" | bc)" \
		--argjson x "$((x1 - x0))" --argjson t "$((t1 - t0))" \
		'{round: $r, top_view: $view, wall_s: $wall, text_ticks: $x, top_ticks: $t,
		  text_pct: ($x / $clk / $wall * 100), top_pct: ($t / $clk / $wall * 100)}'
done >"$WORK/rounds.json"
"${TM[@]}" capture-pane -p -t top >"$WORK/screen"
kill -0 "$XPID" "$TPID" 2>/dev/null || die "an osdhist exited during the rounds"

mkdir -p "$RESULTS"
OUT=$RESULTS/top-$(date +%Y%m%d-%H%M%S).json
jq -s --argjson osds "$OSDS" --argjson clk "$CLK" --arg cpus "$(nproc)" --arg kernel "$(uname -r)" \
	--arg rev "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
	'{osds: $osds, interval_s: 1, cpus: ($cpus | tonumber), kernel: $kernel, rev: $rev,
	  rounds: ., tick_pct: (100 / $clk / (map(.wall_s) | add)),
	  text_pct: ((map(.text_ticks) | add) / $clk / (map(.wall_s) | add) * 100),
	  top_pct: ((map(.top_ticks) | add) / $clk / (map(.wall_s) | add) * 100)}
	 | .top_minus_text_pct = (.top_pct - .text_pct)' "$WORK/rounds.json" >"$OUT"
jq -r '"osdhist --top 1 vs --text 1, both at once, \(.osds) memstore OSDs under rados bench writes, \(.cpus) CPUs, kernel \(.kernel), \(.rev):",
	(.rounds[] | "  round \(.round) (top: \(.top_view)): text \(.text_pct * 1000 | round / 1000) %, top \(.top_pct * 1000 | round / 1000) % of a core over \(.wall_s | round) s"),
	"all rounds: text \(.text_pct * 1000 | round / 1000) %, top \(.top_pct * 1000 | round / 1000) %, top - text \(.top_minus_text_pct * 1000 | round / 1000) % (limit +0.1 %; one tick is \(.tick_pct * 1000 | round / 1000) %)",
	"results: '"$OUT"'"' "$OUT"
