#!/bin/bash
# Issue 22: an LTO build can inline a probed non-virtual function at every
# call site and keep its exported copy, which then never runs (cephtrace
# issue 104, el9 19.2.3): a probe there would count nothing.  osdhist looks
# for a direct call or jump to each such function; with none, a required
# one refuses the build and an optional one refuses only its feature.
# The builds: copies of /usr/bin/ceph-osd whose calls of the function are
# turned away from it (each rel32 + 1), so nothing calls it any more.
# Only --inspect reads them: they are never run.
# packages: binutils (objdump, nm, readelf)
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
ORIG=/usr/bin/ceph-osd
lib_mktemp WORK -d
BUILD_ID=$(readelf -n "$ORIG" | awk '/Build ID/ {print $3}')

fileoff() {	# VADDR -> its offset in ORIG
	local off va filesz
	while read -r _ off va _ filesz _; do
		if [ "$1" -ge $((va)) ] && [ "$1" -lt $((va + filesz)) ]; then
			echo $(($1 - va + off)); return
		fi
	done < <(readelf -lW "$ORIG" | awk '$1 == "LOAD"')
}

# unreach SYM COPY: every `call`/`jmp` rel32 to SYM in COPY now lands one
# byte past it; prints how many were turned.
unreach() {
	local addr n=0 insn rel off
	addr=$(nm -D "$ORIG" | awk -v s="$1" '$3 == s {sub(/^0+/, "", $1); print $1}')
	while read -r insn; do
		off=$(fileoff $((0x$insn + 1)))
		rel=$(od -An -t d4 -j "$off" -N 4 "$2" | tr -d ' ')
		printf '%08x' $(((rel + 1) & 0xffffffff)) | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/' |
			xxd -r -p | dd of="$2" bs=1 seek="$off" conv=notrunc status=none
		n=$((n + 1))
	done < <(awk -v a="$addr" '$2 ~ /^(call|jmp)$/ && $3 == a {sub(":", "", $1); print $1}' "$WORK/dis")
	echo $n
}

objdump -d --no-show-raw-insn "$ORIG" >"$WORK/dis"

# --- the original: each probed non-virtual function is called
"$OSDHIST" --inspect "$ORIG" >"$WORK/orig.out" 2>&1
check_eq "the original is traceable (exit 0)" $? 0
check "no feature refused on the original" bash -c "! grep -q 'without' '$WORK/orig.out'"

# --- log_op_stats (required: the success end of every client op)
cp "$ORIG" "$WORK/ceph-osd.los"
n=$(unreach _ZN12PrimaryLogPG12log_op_statsERK9OpRequestmm "$WORK/ceph-osd.los")
echo "# PrimaryLogPG::log_op_stats: $n calls turned away"
check "its calls were found and turned ($n)" [ "$n" -ge 1 ]
"$OSDHIST" --inspect "$WORK/ceph-osd.los" >"$WORK/los.out" 2>"$WORK/los.err"
rc=$?
echo "# refusal: $(cat "$WORK/los.err")"
check_eq "nothing calls log_op_stats: refused (exit 1)" $rc 1
check_eq "one line on stderr" "$(wc -l <"$WORK/los.err")" 1
check "it names the function, inlining and the build-id" \
	grep -q "build-id $BUILD_ID): nothing in the binary calls PrimaryLogPG::log_op_stats: it was inlined at every call site" "$WORK/los.err"

# --- dequeue_op (only --phases needs it): traceable, --phases refused
cp "$ORIG" "$WORK/ceph-osd.deq"
n=$(unreach _ZN3OSD10dequeue_opEN5boost13intrusive_ptrI2PGEENS1_I9OpRequestEERN10ThreadPool8TPHandleE "$WORK/ceph-osd.deq")
echo "# OSD::dequeue_op: $n calls turned away"
check "its calls were found and turned ($n)" [ "$n" -ge 1 ]
"$OSDHIST" --inspect "$WORK/ceph-osd.deq" >"$WORK/deq.out" 2>"$WORK/deq.err"
check_eq "nothing calls dequeue_op: still traceable (exit 0)" $? 0
echo "# $(cat "$WORK/deq.out" | head -1)"
check "--phases is refused, saying dequeue_op is inlined" \
	grep -q "without --phases (OSD::dequeue_op is inlined at every call site)" "$WORK/deq.out"
finish
