#!/bin/bash
# The verifier's stack depth of every BPF program in every variant the
# loader can load (tests/stack/stack_depth.c: the kernel's own frame of
# each function, added up along the deepest call chain of the loaded code
# as the verifier adds them).  The next field an op carries must find room: a program with
# less than 64 of the verifier's 512 bytes left fails here, not at a
# user's load, and so does one that makes the verifier walk more than half
# of its million instructions.  No cluster: the programs are loaded, never attached.
. "$(dirname "$0")/../lib.sh"

lib_mktemp WORK -d
if ! make -s -C "$LIB_ROOT" build/stack_depth >"$WORK/make.log" 2>&1; then
	fail "building build/stack_depth"
	tail -n 20 "$WORK/make.log"
	finish
fi
SD=$LIB_ROOT/build/stack_depth
"$SD" 64 >"$WORK/out" 2>"$WORK/err"
rc=$?
sed 's/^/# /' "$WORK/out" "$WORK/err"
check_eq "every variant loads, every program has >= 64 bytes left and < 500k instructions (exit 0)" "$rc" 0
# 5 uprobe programs and the 3 process-event ones (bpf/procwatch.bpf.h)
check_eq "5 variants x 8 programs measured" "$(grep -c ' left$' "$WORK/out")" 40
least=$(awk '{ print $(NF-1) }' "$WORK/out" | sort -n | head -1)
most=$(awk '{ for (i = 1; i < NF; i++) if ($(i + 1) == "insns,") print $i }' "$WORK/out" | sort -n | tail -1)
echo "# most instructions walked: $most"
echo "# least headroom: $least bytes"
check "the largest variant keeps >= 96 bytes (got $least)" test "${least:--1}" -ge 96
# the check can fail: asking for more headroom than any program can have
"$SD" 512 >/dev/null 2>"$WORK/err512"
check_eq "asked for 512 bytes left, it fails (exit 1)" "$?" 1
check "and says so on stderr" grep -q "less than 512 bytes" "$WORK/err512"
finish
