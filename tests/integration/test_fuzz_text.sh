#!/bin/bash
# The parsers of the text a process offers osdhist (issue 23) under
# libFuzzer with ASan, UBSan and leak detection, as test_fuzz.sh does for
# the ELF path: fuzz_conf (a ceph.conf: asok_conf_parse, asok_expand),
# fuzz_cmdline (a command line: procs_osd_id, asok_cmdline_parse) and
# fuzz_perf (an admin socket's answer: asok_parse_perf).  Each:
#   - the inputs that once crashed it (tests/fuzz/crashes-NAME/) run clean;
#   - FUZZ_TEXT_SECONDS (30) of fuzzing from tests/fuzz/seeds-NAME with
#     tests/fuzz/NAME.dict: exit 0, no crash, leak or timeout input, at
#     least FUZZ_TEXT_MIN_EXECS (10000) inputs.  An input takes micro-
#     seconds: -timeout is 20 s, not 5, because a loaded host stalled a
#     nice'd fuzzer for over 5 s on one 205-byte input that runs in 6 ms;
#     a parser that loops for good is still caught;
#   - one input far larger than the fuzzer makes (its inputs stay under
#     4 KiB), each with a bound on the CPU time it may take (user + sys, so
#     a loaded machine does not count) or a refusal.
#   FUZZ_CORPUS=DIR keeps the corpora (DIR/NAME) between runs.
. "$(dirname "$0")/../lib.sh"

RUN_S=${FUZZ_TEXT_SECONDS:-30}
MIN_EXECS=${FUZZ_TEXT_MIN_EXECS:-10000}
TARGETS=(conf cmdline perf)
lib_mktemp WORK -d
ART=$LIB_ROOT/build/fuzz-artifacts/text-$(date -u +%Y%m%dT%H%M%S)-$$

if ! make -s -C "$LIB_ROOT" "${TARGETS[@]/#/build/fuzz_}" >"$WORK/make.log" 2>&1; then
	fail "building the fuzz targets (make build/fuzz_conf build/fuzz_cmdline build/fuzz_perf)"
	tail -n 20 "$WORK/make.log"
	finish
fi

# cpu_of LOG: user + sys seconds from /usr/bin/time -f '%U %S %M' (last line)
cpu_of() { tail -n 1 "$1" | awk '{ printf "%.2f", $1 + $2 }'; }
rss_of() { tail -n 1 "$1" | awk '{ printf "%d", $3 / 1024 }'; }

# big NAME FILE MAX_CPU_S WHAT EXPECT: runs the harness once on FILE; it must
# exit 0 within MAX_CPU_S of CPU and print a line matching EXPECT.
big() {
	local t=$1 f=$2 max=$3 what=$4 expect=$5 out=$WORK/big-$1.out rc cpu
	FUZZ_VERBOSE=1 ASAN_OPTIONS=detect_leaks=1 /usr/bin/time -o "$WORK/big-$t.time" \
		-f '%U %S %M' timeout -k 5 600 "$LIB_ROOT/build/fuzz_$t" -rss_limit_mb=4096 \
		"$f" >"$out" 2>&1
	rc=$?
	cpu=$(cpu_of "$WORK/big-$t.time")
	echo "# $t: $what: $cpu s CPU, $(rss_of "$WORK/big-$t.time") MiB peak RSS (ASan build)"
	check_eq "$t: $what: harness exit status" "$rc" 0
	check "$t: $what: within $max s of CPU (took $cpu)" \
		awk -v c="$cpu" -v m="$max" 'BEGIN { exit !(c <= m) }'
	check "$t: $what: outcome '$expect'" grep -q -- "$expect" "$out"
	[ "$rc" = 0 ] || grep -E -A20 '^==[0-9]+==ERROR|runtime error' "$out" | head -n 30
}

for t in "${TARGETS[@]}"; do
	FUZZ=$LIB_ROOT/build/fuzz_$t
	corpus=${FUZZ_CORPUS:+$FUZZ_CORPUS/$t}
	corpus=${corpus:-$WORK/corpus-$t}
	mkdir -p "$corpus" "$ART/$t"
	for f in "$LIB_ROOT"/tests/fuzz/crashes-$t/*; do
		[ -f "$f" ] || continue
		check "$t: crash input $(basename "$f") runs clean" "$FUZZ" -timeout=5 "$f"
	done
	echo "# fuzz_$t for $RUN_S s"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		timeout -k 10 $((RUN_S + 120)) "$FUZZ" -max_total_time="$RUN_S" -timeout=20 \
		-rss_limit_mb=2048 -dict="$LIB_ROOT/tests/fuzz/$t.dict" -print_final_stats=1 \
		-artifact_prefix="$ART/$t/" "$corpus" "$LIB_ROOT/tests/fuzz/seeds-$t" \
		>"$WORK/fuzz-$t.log" 2>&1
	rc=$?
	execs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$WORK/fuzz-$t.log")
	cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$WORK/fuzz-$t.log" | tail -n 1)
	echo "# fuzz_$t: ${execs:-no} inputs in $RUN_S s, $cov," \
		"corpus $(find "$corpus" -type f | wc -l) files"
	check_eq "$t: fuzzer exit status (1: crash or leak, 70: timeout, 124: hung)" "$rc" 0
	check "$t: at least $MIN_EXECS inputs run (got ${execs:-none})" \
		test "${execs:-0}" -ge "$MIN_EXECS"
	found=$(find "$ART/$t" -type f | sort)
	if [ -z "$found" ]; then
		pass "$t: no crash, leak, timeout or out-of-memory input"
	else
		fail "$t: the fuzzer found: $(basename -a $found | tr '\n' ' ')"
		cp "$WORK/fuzz-$t.log" "$ART/$t/"
		echo "# inputs and log kept in ${ART#"$LIB_ROOT"/}/$t; the report:"
		grep -E -A40 '^==[0-9]+==ERROR|runtime error|^SUMMARY|ALARM' "$WORK/fuzz-$t.log" |
			head -n 60
	fi
done
find "$ART" -type f | grep -q . || rm -rf "$ART"

# --- sizes the fuzzer cannot reach.  The bounds: each parser is one pass
# over its input, a few seconds of CPU here under ASan (measured: 9 s for
# the 200 MiB config, 1.3 s for the command line, 0.8 s for the nested
# JSON, 12 s for the wide one); a parser quadratic in its input would take
# hours on any of them.  osdhist itself reads at most ASOK_CONF_MAX of a
# config, 16 KiB of a command line and ASOK_MAX_REPLY of an answer: these
# are the parsers alone, on what a caller that forgot its cap would pass.
head -c $((200 << 20)) /dev/zero | tr '\0' 'a' >"$WORK/conf-200m"
big conf "$WORK/conf-200m" 60 "a 200 MiB config without a newline" \
	'admin_socket "", run_dir ""'
python3 -c 'import sys; sys.stdout.buffer.write(b"--admin-socket\0/x\0" * 500000)' \
	>"$WORK/cmdline-1m"
big cmdline "$WORK/cmdline-1m" 30 "a command line of 10^6 arguments" \
	'id -1, admin_socket "/x"'
python3 -c 'import sys; n = 8 << 20; sys.stdout.buffer.write(b"[" * n + b"]" * n)' \
	>"$WORK/perf-nested"
big perf "$WORK/perf-nested" 30 "a 16 MiB answer nested 8 M deep" \
	'refused: answer is not JSON'
python3 - "$WORK/perf-wide" <<'EOF'
import sys
n = 16 << 20
out = [b'{"osd":{"op_r":1,"op_w":2,"op_rw":3,"subop_w":4']
size, i = len(out[0]), 0
while size < n - 64:
    p = b',"k%d":%d' % (i, i)
    out.append(p)
    size += len(p)
    i += 1
out.append(b'}}')
open(sys.argv[1], 'wb').write(b''.join(out))
EOF
big perf "$WORK/perf-wide" 90 "a valid 16 MiB answer of 1.2 M counters" 'accepted'
finish
