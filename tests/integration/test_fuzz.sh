#!/bin/bash
# The ELF-and-derivation path under libFuzzer: osdhist runs as root and reads
# whatever a container runs as "ceph-osd", so binary_inspect() must survive any
# file.  Seeds are cut from the real binaries at test time (tests/fuzz/mkseed.py:
# tens of KB instead of 25-40 MB, the probed and witness functions at their
# own addresses) and must reach the same verdict and offsets as the binary they
# come from, which proves they run the whole derivation.  Then the fuzzer runs
# FUZZ_SECONDS (120) with ASan, UBSan and leak detection: no crash, no input
# slower than 5 s, no leak, exit status 0, at least FUZZ_MIN_EXECS inputs.
#   FUZZ_CORPUS=DIR keeps the corpus between runs (make fuzz does).
. "$(dirname "$0")/../lib.sh"

RUN_S=${FUZZ_SECONDS:-120}
MIN_EXECS=${FUZZ_MIN_EXECS:-5000}
FUZZ=$LIB_ROOT/build/fuzz_binary
COV=$LIB_ROOT/build/fuzz_binary_cov
CHROOTS=${OSDHIST_CHROOTS:-/var/cache/osdhist/chroots}
# what the harness links besides itself (the Makefile's FUZZ_LINKED)
read -ra SRCS < <(make -s --no-print-directory -C "$LIB_ROOT" fuzz-linked)
lib_mktemp WORK -d
CORPUS=${FUZZ_CORPUS:-$WORK/corpus}
# crash, leak and timeout inputs outlive the run (removed again if none)
ART=$LIB_ROOT/build/fuzz-artifacts/$(date -u +%Y%m%dT%H%M%S)-$$
mkdir -p "$CORPUS" "$WORK/seeds"

if ! make -s -C "$LIB_ROOT" build/fuzz_binary build/fuzz_binary_cov >"$WORK/make.log" 2>&1; then
	fail "building the fuzz target (make build/fuzz_binary)"
	tail -n 20 "$WORK/make.log"
	finish
fi
check "the Makefile names what the harness links (make fuzz-linked: ${#SRCS[@]} files)" \
	test "${#SRCS[@]}" -ge 3
echo "# fuzzing tests/fuzz/fuzz_binary.c ${SRCS[*]}"

# outcome FILE: the harness's verdict on FILE, without the input's size (a
# seed is smaller than its binary, the verdict must be the same).
outcome() {
	FUZZ_VERBOSE=1 "$FUZZ" "$1" 2>/dev/null | grep '^fuzz_binary: ' |
		grep -v '^fuzz_binary: input of' | sort -u
}

# --- seeds: one per real ceph-osd on this host, keeping the functions whose
# names the harness holds (its .rodata: the names as compiled, macros pasted)
objcopy -O binary --only-section=.rodata "$FUZZ" "$WORK/names"
bins=(/usr/bin/ceph-osd)
for r in reef tentacle; do
	if [ -e "$CHROOTS/$r/root/usr/bin/ceph-osd" ]; then
		bins+=("$CHROOTS/$r/root/usr/bin/ceph-osd")
	else
		echo "# no $r chroot ($CHROOTS/$r, scripts/chroots.sh builds it): no $r seed"
	fi
done
for b in "${bins[@]}"; do
	case $b in /usr/bin/*) r=host ;; *) r=${b#"$CHROOTS/"}; r=${r%%/*} ;; esac
	seed=$WORK/seeds/seed-$r
	if ! python3 "$LIB_ROOT/tests/fuzz/mkseed.py" "$b" "$seed" "$WORK/names"; then
		fail "$r: a seed from $b"
		continue
	fi
	want=$(outcome "$b") got=$(outcome "$seed")
	sed 's/^/#   /' <<<"$want"
	if [ -n "$want" ] && [ "$want" == "$got" ]; then
		pass "$r: the $(stat -c %s "$seed")-byte seed gets the same verdict as $b"
	else
		fail "$r: the seed's verdict differs from $b's"
		sed 's/^/#   seed: /' <<<"$got"
	fi
	[ $r != host ] || check "host: Debian's ceph-osd is accepted" \
		grep -q '^fuzz_binary: accepted' <<<"$want"
done

# --- inputs that once crashed must not crash again
for f in "$LIB_ROOT"/tests/fuzz/crashes/*; do
	[ -f "$f" ] || continue
	check "crash input $(basename "$f") runs clean" "$FUZZ" -timeout=5 "$f"
done

# --- which lines the seeds reach, and later the corpus (printed, not asserted:
# the verdicts above are the check that the derivation runs)
coverage() { # LABEL DIR...
	local label=$1; shift
	LLVM_PROFILE_FILE=$WORK/cov.profraw "$COV" -runs=0 "$@" >/dev/null 2>&1
	llvm-profdata merge -sparse "$WORK/cov.profraw" -o "$WORK/cov.profdata" 2>/dev/null &&
	(cd "$LIB_ROOT" && llvm-cov report "$COV" -instr-profile="$WORK/cov.profdata" \
		"${SRCS[@]}") 2>/dev/null |
		awk -v l="$label" '$1 ~ /\.c$/ { sub(/.*\//, "", $1)
			printf "# coverage from %s: %s lines %s (%s of %s missed), branches %s\n",
				l, $1, $10, $9, $8, $13 }'
}
coverage seeds "$WORK/seeds"

# --- the run
mkdir -p "$ART"
max=$(stat -c %s "$WORK"/seeds/* | sort -n | tail -1)
echo "# fuzzing for $RUN_S s (corpus $CORPUS, max_len $((max + 16384)))"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	timeout -k 10 $((RUN_S + 300)) "$FUZZ" -max_total_time="$RUN_S" -timeout=5 \
	-rss_limit_mb=2048 -max_len=$((max + 16384)) -print_final_stats=1 \
	-artifact_prefix="$ART/" "$CORPUS" "$WORK/seeds" >"$WORK/fuzz.log" 2>&1
rc=$?
execs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$WORK/fuzz.log")
rate=$(awk '/^stat::average_exec_per_sec:/ { print $2 }' "$WORK/fuzz.log")
rss=$(awk '/^stat::peak_rss_mb:/ { print $2 }' "$WORK/fuzz.log")
echo "# $execs inputs in $RUN_S s ($rate/s), peak RSS $rss MB," \
	"corpus $(find "$CORPUS" -type f | wc -l) files"
check_eq "fuzzer exit status (1: crash or leak, 70: timeout, 124: hung)" "$rc" 0
check "at least $MIN_EXECS inputs run (got ${execs:-none})" test "${execs:-0}" -ge "$MIN_EXECS"
found=$(find "$ART" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
	-o -name 'oom-*' \) | sort)
if [ -z "$found" ]; then
	pass "no crash, leak, timeout or out-of-memory input"
	rm -rf "$ART"
else
	fail "the fuzzer found: $(basename -a $found | tr '\n' ' ')"
	cp "$WORK/fuzz.log" "$ART/"
	echo "# inputs and log kept in ${ART#"$LIB_ROOT"/}; the report:"
	grep -E -A40 '^==[0-9]+==ERROR|runtime error|^SUMMARY|ALARM' "$WORK/fuzz.log" | head -n 80
fi
coverage "seeds+corpus" "$WORK/seeds" "$CORPUS"
finish
