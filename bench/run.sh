#!/bin/bash
# bench/run.sh (make bench): what does osdhist cost my OSD?
#
# A throwaway cluster (1 memstore OSD), then `rados bench -b 4096 -t 16`
# 4 KiB writes and random reads in alternating rounds, each round running
# every variant once, in an order rotated from round to round so that drift
# (memstore filling, other load on the host) spreads over all of them:
#
#   none       no tracer
#   osdhist    ./osdhist -p OSDPID --json 1 (JSON: its health lines give the
#              keys in use per map, for the map memory model)
#   osdhist-nt osdhist --no-op-types: no op vector read, so osdhist minus
#              osdhist-nt is what the op types cost
#   osdhist+   osdhist with every option that adds probes (--phases -P)
#   prev       with OSDHIST_PREV set: that binary (a previous release), same
#              arguments as osdhist
#   bpftrace   bench/peer.bt, the start/end script one would write by hand
#   sampled    ./osdhist -p OSDPID --sample 100ms/1s --json 1 (10 % duty cycle:
#              probes attached only for 100 ms of every second, plus the drain)
#
# Per variant: client IOPS (mean, stddev over rounds), IOPS loss vs none,
# the OSD's own CPU time per client op (less sensitive to other load on the
# host than IOPS: it includes the uprobe traps and the BPF programs),
# BPF run time and program runs per client op (BPF run-time statistics),
# the tracer's CPU use, RSS and map memory; the BPF cost of op types
# (osdhist - osdhist-nt, and osdhist - prev); then osdhist's map memory: the
# model checked map by map against the kernel's figure here (with the keys
# in use from the health lines), and the model of a large host (24 OSDs,
# 128 CPUs, 32 pools, -P --phases), and PASS/MISS against the targets.
# For sampled, from its JSON health lines (SIGUSR1 snapshots at the edges
# of each window): the duty cycle actually traced (sum traced_s / sum
# interval_s), the probe moves (window_moves, window_move_s: ms per move
# and % of a core of loader time) and the check "sampled loss ~ full-mode
# loss x duty cycle".  Then one extra pair of windows per workload, none and
# then moves (osdhist --sample 10ms/100ms: probes attached and detached as
# fast as the loader can), for what moving probes costs the OSD itself.
# A table on stdout, the same figures in bench/results/bench-*.json, and the
# raw inputs of bench/report.py in bench/results/bench-*.inputs/ (to re-run
# the report: python3 bench/report.py DIR/meta.json DIR/windows.jsonl
# DIR/mapsizes.json OUT).
#
# Usage: bench/run.sh [--round-secs N] [--rounds N] [--smoke] [--results DIR]
#                     [--variants LIST]
#   --smoke     2 s rounds, 1 round, no warm-up (for tests/integration)
#   --variants  run only these (comma-separated; none, the baseline, always)
# Env: OSDHIST (default ./osdhist), BPFTRACE (default bpftrace),
#   OSDHIST_PREV (a previous osdhist binary: adds variant prev),
#   OSDHIST_PREV_ARGS (options prev runs with, e.g. --no-op-types).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

ROUND_SECS=10 ROUNDS=3 WARMUP=1 MODE=full ONLY=""
RESULTS=$ROOT/bench/results
OSDHIST=${OSDHIST:-$ROOT/osdhist}
BPFTRACE=${BPFTRACE:-bpftrace}
OSDHIST_PREV=${OSDHIST_PREV:-}

usage() { sed -n '/^# Usage:/,/^# Env:/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 1; }
note() { echo "bench: $*" >&2; NOTES+=("$*"); }
NOTES=()

while [ $# -gt 0 ]; do
	case $1 in
	--round-secs) ROUND_SECS=${2:?}; shift 2 ;;
	--rounds) ROUNDS=${2:?}; shift 2 ;;
	--smoke) ROUND_SECS=2 ROUNDS=1 WARMUP=0 MODE=smoke; shift ;;
	--results) RESULTS=${2:?}; shift 2 ;;
	--variants) ONLY=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	*) usage ;;
	esac
done
[[ $ROUND_SECS =~ ^[1-9][0-9]*$ ]] || die "--round-secs must be a positive integer"
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || die "--rounds must be a positive integer"
[ "$(id -u)" = 0 ] || die "needs root (BPF, uprobes, bpf_stats): run 'sudo make bench'"
for t in "$OSDHIST" ${OSDHIST_PREV:+"$OSDHIST_PREV"} "$BPFTRACE" bpftool jq python3 rados ceph cc; do
	command -v "$t" >/dev/null || die "$t not found (make deps installs everything)"
done

# shellcheck source=bench/lib.sh
. bench/lib.sh
WORK=$(mktemp -d /tmp/osdhist-bench.XXXXXX)
TPID="" STATS_PID="" TOUT="" KOUT=""
cleanup() {
	# (a die before the functions below are defined has nothing to stop)
	! declare -F tracer_stop >/dev/null || tracer_stop || true
	[ -z "$STATS_PID" ] || { kill "$STATS_PID" 2>/dev/null; wait "$STATS_PID" 2>/dev/null; } || true
	bench_cluster_stop
	rm -rf -- "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- variants ---------------------------------------------------------------
VARIANTS=(none osdhist osdhist-nt osdhist+ bpftrace sampled)
[ -z "$OSDHIST_PREV" ] || VARIANTS+=(prev)
if [ -n "$ONLY" ]; then
	IFS=, read -ra want <<<"$ONLY"
	for v in "${want[@]}"; do
		[[ " ${VARIANTS[*]} " == *" $v "* ]] ||
			die "--variants: no variant '$v' (known: ${VARIANTS[*]}; prev needs OSDHIST_PREV)"
	done
	keep=(none)
	for v in "${VARIANTS[@]}"; do
		[[ ",$ONLY," == *",$v,"* && $v != none ]] && keep+=("$v")
	done
	VARIANTS=("${keep[@]}")
	note "variants run (--variants): ${VARIANTS[*]}"
fi
SAMPLE=100ms/1s		# variant sampled
MOVES_SAMPLE=10ms/100ms	# the extra windows: as many probe moves as possible
# every option that adds probes; --phases may not exist yet in this build
# (the help text in a variable: grep -q on a pipe would SIGPIPE osdhist,
# a failure under pipefail)
HELP=$("$OSDHIST" --help 2>&1 || true)
if grep -q -- '--phases' <<<"$HELP"; then
	ALL_ARGS=(--phases -P)
else
	ALL_ARGS=(-P)
	note "osdhist has no --phases option yet: variant osdhist+ runs with -P only (the phases variant is missing)"
fi
grep -q -- '--no-op-types' <<<"$HELP" ||
	die "$OSDHIST has no --no-op-types option: variant osdhist-nt needs an osdhist with op types"

# --- the cluster ------------------------------------------------------------
# The peer's probes (bpftrace -p does not filter uprobes) hit our OSD only:
# it runs a private copy of ceph-osd.
bench_cluster_start
sed "s|/usr/bin/ceph-osd|$WORK/bin/ceph-osd|" bench/peer.bt >"$WORK/peer.bt"

cc -Wall -Imaps -o "$WORK/mapsizes" bench/mapsizes.c || die "cannot build bench/mapsizes.c"
"$WORK/mapsizes" >"$WORK/mapsizes.json"
# the per-CPU front rows' read, measured here and modelled for the large host
cc -O3 -std=c11 -Wall -D_GNU_SOURCE -Imaps -Iloader -o "$WORK/front_cost" bench/front_cost.c \
	loader/front.c -lbpf || die "cannot build bench/front_cost.c"
"$WORK/front_cost" >"$WORK/front_cost.json" || die "bench/front_cost failed"

# --- measuring --------------------------------------------------------------
bench_stats_on

# One JSON sample of everything a window needs, for tracer TPID (may be empty).
sample() {
	local now ops stats='{}' stat rss=0 ticks=0 on osd_ticks
	now=$(date +%s.%N)
	ops=$(osd_ops)
	osd_ticks=$(sed 's/.*) //' "/proc/$OSDPID/stat" | awk '{print $12 + $13}')
	on=$(kill -0 "$STATS_PID" 2>/dev/null && echo 1 || echo 0)
	if [ -n "$TPID" ]; then
		# utime + stime, fields 14 and 15 (after the "(comm)" field)
		stat=$(sed 's/.*) //' "/proc/$TPID/stat")
		ticks=$(awk '{print $12 + $13}' <<<"$stat")
		rss=$(awk '/^VmRSS:/{print $2}' "/proc/$TPID/status")
		stats=$(jq -n --argjson p "$(bpftool prog show -j)" --argjson m "$(bpftool map show -j)" \
			--argjson pi "$(bpf_ids prog "$TPID")" --argjson mi "$(bpf_ids map "$TPID")" '
			($p | map(select(.id as $i | $pi | index($i)))) as $progs
			| ($progs | map(select(.type == "kprobe"))) as $uprobes
			| ($m | map(select(.id as $i | $mi | index($i)))) as $maps
			| {run_ns: ($uprobes | map(.run_time_ns // 0) | add // 0),
			   run_cnt: ($uprobes | map(.run_cnt // 0) | add // 0),
			   nprogs: ($progs | length),
			   progs: ($progs | map({key: (.name // "?"), value: [(.run_time_ns // 0), (.run_cnt // 0)]})
				   | from_entries),
			   memlock: ($maps | map(.bytes_memlock // 0) | add // 0),
			   maps: ($maps | map({name, type, flags, bytes_key, bytes_value, max_entries, bytes_memlock}))}')
	fi
	jq -nc --argjson t "$now" --argjson ops "$ops" --argjson ticks "$ticks" \
		--argjson rss "$rss" --argjson on "$on" --argjson s "$stats" \
		--argjson osd_ticks "$osd_ticks" \
		'{t: $t, ops: $ops, ticks: $ticks, osd_ticks: $osd_ticks, rss_kb: $rss, stats_on: $on} + $s'
}

uprobes_of() { # PID: uprobes attached by PID (uprobe_multi or perf-event)
	"$ROOT/scripts/uprobes.sh" "$1" | wc -l
}

tracer_start() { # VARIANT ROUND
	local marker want i s bin=$OSDHIST args=()
	TPID="" TOUT="" KOUT=""
	case $1 in
	none) return 0 ;;
	# full-mode tracers: their JSON lines go to KOUT (see window)
	osdhist|osdhist-nt|osdhist+|prev)
		case $1 in
		osdhist-nt) args=(--no-op-types) ;;
		osdhist+) args=("${ALL_ARGS[@]}") ;;
		prev) bin=$OSDHIST_PREV
			read -ra args <<<"${OSDHIST_PREV_ARGS:-}" ;;
		esac
		KOUT=$WORK/$1.r$2.jsonl
		"$bin" -p "$OSDPID" "${args[@]}" --json 1 >"$KOUT" 2>"$WORK/tracer.log" &
		marker="attached to ceph-osd" want=3 ;;
	bpftrace) "$BPFTRACE" "$WORK/peer.bt" >"$WORK/tracer.log" 2>&1 &
		marker="Attaching" want=2 ;;
	# sampled tracers have no uprobes while their window is closed: wait
	# for the message only.  Their JSON lines go to TOUT (see health_sync).
	sampled|moves)
		TOUT=$WORK/$1.r$2.jsonl
		if [ "$1" = sampled ]; then s=$SAMPLE; else s=$MOVES_SAMPLE; fi
		"$OSDHIST" -p "$OSDPID" --sample "$s" --json 1 >"$TOUT" 2>"$WORK/tracer.log" &
		marker="attached to ceph-osd" want=0 ;;
	esac
	TPID=$!
	for i in $(seq 300); do
		if grep -q "$marker" "$WORK/tracer.log" &&
			{ [ $want = 0 ] || [ "$(uprobes_of "$TPID")" -ge $want ]; }; then
			sleep 0.5	# let the last attach settle
			return 0
		fi
		kill -0 "$TPID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$WORK/tracer.log" >&2
	die "variant $1: the tracer did not attach (pid $TPID)"
}

tracer_stop() {
	local i
	[ -n "$TPID" ] || return 0
	kill -INT "$TPID" 2>/dev/null || true
	for i in $(seq 100); do
		kill -0 "$TPID" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$TPID" 2>/dev/null || true
	wait "$TPID" 2>/dev/null || true
	TPID="" TOUT="" KOUT=""
}

# A snapshot of the JSON tracer now (SIGUSR1); prints the number of health
# lines in FILE (its stdout) once it is out, so that the health lines after
# that number cover everything from this moment on.
health_sync() { # FILE
	local n0 n i
	n0=$(grep -c '"type":"health"' "$1" || true)
	kill -USR1 "$TPID"
	for i in $(seq 200); do
		n=$(grep -c '"type":"health"' "$1" || true)
		if [ "$n" -gt "$n0" ]; then
			# a periodic snapshot may have come first: let ours follow
			sleep 0.05
			grep -c '"type":"health"' "$1" || true
			return 0
		fi
		sleep 0.05
	done
	die "the tracer (pid $TPID) printed no snapshot on SIGUSR1"
}

# What the health lines N0+1 .. N1 of TOUT say about a window: sums of the
# per-interval interval_s and traced_s, deltas of the cumulative counters.
health_window() { # N0 N1
	jq -sc --argjson n0 "$1" --argjson n1 "$2" '
		[.[] | select(.type == "health")] as $h | $h[$n0:$n1] as $w
		| {intervals: ($w | length),
		   interval_s: ($w | map(.interval_s) | add),
		   traced_s: ($w | map(.traced_s) | add),
		   window_moves: ($h[$n1 - 1].window_moves - $h[$n0 - 1].window_moves),
		   window_move_s: ($h[$n1 - 1].window_move_s - $h[$n0 - 1].window_move_s),
		   drain_timeout: ($h[$n1 - 1].drain_timeout - $h[$n0 - 1].drain_timeout),
		   losses: ($h[$n1 - 1].losses - $h[$n0 - 1].losses)}' "$TOUT"
}

# rados bench WORKLOAD SECS [extra]: prints "made time_run"
bench() {
	local out
	case $1 in
	write) out=$(rados -p "$POOL" bench "$2" write -b 4096 -t 16 --no-cleanup "${@:3}") ;;
	rand) out=$(rados -p "$POOL" bench "$2" rand -t 16) ;;	# reads whole 4 KiB objects
	esac || die "rados bench $1 failed"
	awk '/^Total (writes|reads) made:/{m=$4} /^Total time run:/{t=$4} END{print m, t}' <<<"$out"
}

# One measured window: VARIANT ROUND WORKLOAD [EXTRA]; the tracer is
# running.  EXTRA=1 marks the windows of the move-cost measurement, which
# stay out of the per-variant figures.
window() {
	local s0 s1 made trun load n0="" n1 health=null keys=null
	[ -z "$TOUT" ] || n0=$(health_sync "$TOUT")
	s0=$(sample)
	# writes overwrite the warm-up's objects (--reuse-bench): memstore keeps
	# ~23 KiB of RAM per 4 KiB object, new objects every round would fill it
	if [ "$3" = write ]; then read -r made trun < <(bench write "$ROUND_SECS" --reuse-bench)
	else read -r made trun < <(bench rand "$ROUND_SECS"); fi
	[ -n "$trun" ] || die "rados bench $3 failed (round $2, variant $1)"
	# a full-mode tracer's health line right before s1 reads bytes_memlock:
	# the keys in use per map that the kernel's figure counts
	if [ -n "$KOUT" ]; then
		n1=$(health_sync "$KOUT")
		keys=$(jq -sc --argjson n "$n1" '[.[] | select(.type == "health")][$n - 1]
			| {hists: .keys_hists, phase_hists: .keys_phase_hists, opcounts: .keys_opcounts, calls: .keys_calls,
			   slowops: .keys_slowops,
			   losses, hist_full, insert_failed, ops_unseen, done, error_ends}' "$KOUT")
	fi
	s1=$(sample)
	[ -z "$TOUT" ] || health=$(health_window "$n0" "$(health_sync "$TOUT")")
	load=$(cut -d' ' -f1 /proc/loadavg)
	jq -nc --arg v "$1" --argjson r "$2" --arg w "$3" --argjson made "$made" \
		--argjson trun "$trun" --argjson a "$s0" --argjson b "$s1" --argjson load "$load" \
		--argjson health "$health" --argjson keys "$keys" --argjson extra "${4:-0}" '
		{variant: $v, round: $r, workload: $w, extra: ($extra == 1), made: $made, time_run: $trun,
		 iops: ($made / $trun), ops: ($b.ops - $a.ops), wall: ($b.t - $a.t),
		 ticks: ($b.ticks - $a.ticks), osd_ticks: ($b.osd_ticks - $a.osd_ticks), run_ns: (($b.run_ns // 0) - ($a.run_ns // 0)),
		 run_cnt: (($b.run_cnt // 0) - ($a.run_cnt // 0)), nprogs: ($b.nprogs // 0),
		 progs: (($b.progs // {}) | with_entries(.key as $k | .value = {
			run_ns: (.value[0] - (($a.progs // {})[$k][0] // 0)),
			run_cnt: (.value[1] - (($a.progs // {})[$k][1] // 0))})),
		 rss_kb: $b.rss_kb, memlock: ($b.memlock // 0), maps: ($b.maps // []),
		 stats_on: ($a.stats_on == 1 and $b.stats_on == 1), load1: $load,
		 health: $health, keys: $keys}' >>"$WORK/windows.jsonl"
	printf 'bench: round %s %-10s %-5s %8.0f IOPS  load %s\n' "$2" "$1" "$3" \
		"$(jq -n "$made / $trun")" "$load" >&2
	if [ "$(jq -s 'last | .stats_on' "$WORK/windows.jsonl")" != true ]; then
		die "bench/bpf_stats.py exited during round $2 ($1 $3): no BPF run-time statistics"
	fi
}

LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
START_DATE=$(date -Iseconds)
: >"$WORK/windows.jsonl"
if [ "$WARMUP" = 1 ]; then
	echo "bench: warm-up: ${ROUND_SECS} s write (creates the objects), ${ROUND_SECS} s rand, no tracer" >&2
	bench write "$ROUND_SECS" >/dev/null
	bench rand "$ROUND_SECS" >/dev/null
else
	# rand and --reuse-bench need objects: a short untimed fill
	bench write 2 >/dev/null
fi

for ((r = 1; r <= ROUNDS; r++)); do
	for ((i = 0; i < ${#VARIANTS[@]}; i++)); do
		v=${VARIANTS[$(((i + r - 1) % ${#VARIANTS[@]}))]}
		tracer_start "$v" "$r"
		window "$v" "$r" write
		window "$v" "$r" rand
		tracer_stop
	done
done
# What moving probes costs the OSD: an osdhist that attaches and detaches
# all the time, right after a window without tracer, both workloads.
echo "bench: probe moves: none, then osdhist --sample $MOVES_SAMPLE" >&2
for v in none moves; do
	tracer_start "$v" extra
	window "$v" "$((ROUNDS + 1))" write 1
	window "$v" "$((ROUNDS + 1))" rand 1
	tracer_stop
done
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

# --- report -----------------------------------------------------------------
mkdir -p "$RESULTS"
OUT=$RESULTS/bench-$(date +%Y%m%d-%H%M%S).json
foreign=$(($(pgrep -cx ceph-osd || true) - 1))
printf '%s\n' "${NOTES[@]}" | jq -R . | jq -s . >"$WORK/notes.json"
jq -n --arg mode "$MODE" --argjson secs "$ROUND_SECS" --argjson rounds "$ROUNDS" \
	--argjson warmup "$WARMUP" --arg date "$START_DATE" --arg kernel "$(uname -r)" \
	--argjson nproc "$(nproc)" --arg ncpus_possible "$(cat /sys/devices/system/cpu/possible)" \
	--arg cpu "$(awk -F': ' '/^model name/{print $2; exit}' /proc/cpuinfo)" \
	--arg mem "$(awk '/^MemTotal/{print $2 " kB"}' /proc/meminfo)" \
	--arg ceph "$(ceph --version)" --arg bpftrace "$("$BPFTRACE" --version)" \
	--arg osdhist "$("$OSDHIST" --version 2>&1 | head -1)" \
	--arg prev "${OSDHIST_PREV:+$OSDHIST_PREV ($("$OSDHIST_PREV" --version 2>&1 | head -1))}" --arg prevargs "${OSDHIST_PREV_ARGS:-}" \
	--argjson variants_run "$(printf '%s\n' "${VARIANTS[@]}" | jq -R . | jq -sc .)" \
	--arg commit "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo -dirty)" \
	--arg load_start "$LOAD_START" --arg load_end "$LOAD_END" --argjson foreign "$foreign" \
	--argjson all_args "$(printf '%s\n' "${ALL_ARGS[@]}" | jq -R . | jq -sc .)" \
	--arg sample "$SAMPLE" --arg moves_sample "$MOVES_SAMPLE" \
	--slurpfile notes "$WORK/notes.json" '
	{mode: $mode, round_secs: $secs, rounds: $rounds, warmup: ($warmup == 1),
	 variants_run: $variants_run,
	 variants: ({none: "no tracer", osdhist: "osdhist -p OSDPID --json 1",
	            "osdhist-nt": "osdhist -p OSDPID --no-op-types --json 1",
	            "osdhist+": ("osdhist -p OSDPID " + ($all_args | join(" ")) + " --json 1"),
	            bpftrace: "bpftrace bench/peer.bt",
	            sampled: ("osdhist -p OSDPID --sample " + $sample + " --json 1"),
	            moves: ("osdhist -p OSDPID --sample " + $moves_sample + " --json 1 (extra windows)")}
	            + (if $prev == "" then {} else {prev: ("OSDHIST_PREV -p OSDPID " + $prevargs + " --json 1: " + $prev)} end)),
	 sample: $sample, moves_sample: $moves_sample,
	 workload: "rados bench -b 4096 -t 16: write --no-cleanup --reuse-bench, rand; 1 memstore OSD, private ceph-osd copy",
	 machine: {date: $date, nproc: $nproc, cpus_possible: $ncpus_possible, cpu: $cpu,
	           memory: $mem, kernel: $kernel, ceph: $ceph, bpftrace: $bpftrace,
	           osdhist: $osdhist, commit: $commit, loadavg_start: $load_start,
	           loadavg_end: $load_end, other_ceph_osds_at_end: $foreign},
	 notes: ($notes[0] | map(select(. != "")))}' >"$WORK/meta.json"
# the report's inputs, to re-run it (bench/report.py changes more often
# than a bench run is worth repeating)
mkdir -p "${OUT%.json}.inputs"
cp "$WORK/meta.json" "$WORK/windows.jsonl" "$WORK/mapsizes.json" "$WORK/front_cost.json" \
	"${OUT%.json}.inputs/"
python3 bench/report.py "$WORK/meta.json" "$WORK/windows.jsonl" "$WORK/mapsizes.json" "$OUT"
