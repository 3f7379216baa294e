#!/bin/bash
# Issue 42: the arm64 BPF object (build/arm64/osdhist.bpf.o, clang
# -D__TARGET_ARCH_arm64) before this x86-64 kernel's verifier, and its
# register reads against arm64's own struct user_pt_regs.  No cluster, no
# arm64 kernel: the programs are loaded, never attached.
#
# What an x86 kernel can show (tests/verifier/verify_arch.c): every program
# of every variant the loader loads passes the verifier, except reads of
# the context past x86's 168-byte pt_regs, which it refuses ("invalid
# bpf_context access off=248 size=8": arm64's sp, which op_submit reads
# for submit_transaction's stack argument).  Each such program is loaded
# again with only the refused instruction's offset moved to x86's sp, and
# must then pass: the rest of it is the verifier's own verdict.  What it
# cannot show: that arm64's kernel accepts off=248 (its pt_regs is larger:
# it does), nor anything of attaching or running there.  The x86 object,
# the control, passes everything as is.
#
# The register file: tests/verifier/arm64_regs.c, cross-built and run under
# qemu-aarch64, holds bpf/arm64_regs.h against <asm/ptrace.h> of the arm64
# kernel headers, field by field; then each program's context reads in
# the object (a scan of its code) must be the arm64 registers its source
# reads, at the kernel's offsets.
# packages: scripts/setup.sh static-arm64 (gcc-aarch64-linux-gnu qemu-user-static ...)
. "$(dirname "$0")/../lib.sh"

lib_mktemp W -d
if ! "$LIB_ROOT/scripts/setup.sh" static-arm64 >"$W/setup.log" 2>&1; then
	fail "scripts/setup.sh static-arm64"
	tail -5 "$W/setup.log" | sed 's/^/    /'
	finish
fi
if ! make -C "$LIB_ROOT" build/arm64_verify build/x86_verify build/arm64/arm64_regs \
	>"$W/make.log" 2>&1; then
	fail "building build/arm64_verify, build/x86_verify, build/arm64/arm64_regs"
	tail -20 "$W/make.log" | sed 's/^/    /'
	finish
fi

# --- the register file, bpf/'s against the kernel's
out=$(qemu-aarch64-static "$LIB_ROOT/build/arm64/arm64_regs"); rc=$?
check_eq "arm64_regs under qemu-aarch64: every field at the kernel's offset (exit 0)" "$rc" 0
check_eq "... 31 registers, sp, pc, pstate and the size compared" "$(wc -l <<<"$out")" 35
check_eq "... the fields that differ" "$(awk '$2 != $3' <<<"$out")" ""
for f in x0 x1 x2 x3 x4 x5 x6 x7 sp pc; do
	check_eq "user_pt_regs.$f: bpf/ reads it at the kernel's offset ($(awk -v f=$f '$1 == f {print $3}' <<<"$out"))" \
		"$(awk -v f=$f '$1 == f {print ($2 == $3)}' <<<"$out")" 1
done
# offset -> register name, by the kernel's header
declare -A reg
while read -r name _ kernel; do reg[$kernel]=$name; done <<<"$out"

# --- the arm64 object before this kernel's verifier
"$LIB_ROOT/build/arm64_verify" >"$W/arm64" 2>&1; rc=$?
grep -v '^ctx ' "$W/arm64" | grep -v '^pass ' | sed 's/^/# /'
check_eq "arm64 object: every program passes, as is or with only refused sp reads moved (exit 0)" "$rc" 0
check_eq "... 5 variants x 8 programs judged" "$(grep -cE '^(pass|remapped|fail) ' "$W/arm64")" 40
check_eq "... none refused for another reason" "$(grep -c '^fail ' "$W/arm64")" 0
check_eq "... 35 pass as they are (all but op_submit, in each variant)" \
	"$(grep -c '^pass ' "$W/arm64")" 35
check_eq "... op_submit passes with its one sp read moved, in each variant" \
	"$(grep '^remapped ' "$W/arm64" | sed 's/^remapped [^|]*|\([a-z_]*\) [0-9]* \([0-9]*\)$/\1 \2/' | sort | uniq -c | awk '{$1=$1; print}')" \
	"5 op_submit 1"
check_eq "... every refusal: the context read at arm64's sp (off=248), past x86's pt_regs" \
	"$(grep '^refused ' "$W/arm64" | grep -vc ' 248: invalid bpf_context access off=248 size=8$')" 0
check_eq "... and arm64's sp is at 248 by the kernel's header" "${reg[248]:-}" sp

# --- the object's context reads are the registers its source reads
declare -A want=(
	[op_done]="x1"			# log_op_stats(pg, op): op
	[subop_done]="x1"		# repop_commit(backend, rm&)
	[op_unregistered]="x0"		# OpRequest::_unregistered(this)
	[op_enqueue]="x1 x2"		# enqueue_op(osd, &spg copy, opref&&): AAPCS64
	[op_submit]="sp"		# submit_transaction's stack argument
)
for p in op_done subop_done op_unregistered op_enqueue op_submit; do
	got=$(awk -v p=$p '$1 == "ctx" && $2 == p {print $3}' "$W/arm64" | sort -n -u |
		while read -r off; do echo "${reg[$off]:-off$off}"; done | tr '\n' ' ')
	check_eq "arm64 object: $p reads ${want[$p]} of the context, at the kernel's offsets" \
		"${got% }" "${want[$p]}"
done

# --- the control: the x86 object passes every program as it is
"$LIB_ROOT/build/x86_verify" >"$W/x86" 2>&1; rc=$?
check_eq "x86 object (control): exit 0, 40 programs pass as they are" \
	"$rc $(grep -c '^pass ' "$W/x86") $(grep -cE '^(refused|remapped|fail) ' "$W/x86")" "0 40 0"
finish
