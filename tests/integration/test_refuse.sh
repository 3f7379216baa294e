#!/bin/bash
# A ceph-osd whose witnesses disagree is refused, with one line naming the
# offset, the functions and the build-id, and nothing is attached to it.
# The patch: in a copy of /usr/bin/ceph-osd, shared_ptr<RepModify>::_M_dispose
# releases the op at [this + 0x18] instead of [this + 0x10], so it says
# RepModify::op is at 8 while repop_commit says 0.  Only replica sub-ops run
# that code: a one-OSD cluster on the patched copy works normally.  An
# unpatched copy is traceable with exactly the offsets of the original.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
ORIG=/usr/bin/ceph-osd
lib_mktemp WORK -d
mkdir -p "$WORK/plain" "$WORK/patched"
cp "$ORIG" "$WORK/plain/ceph-osd"
cp "$ORIG" "$WORK/patched/ceph-osd"
BUILD_ID=$(readelf -n "$ORIG" | awk '/Build ID/ {print $3}')

# --- the unpatched copy: the same derivation as the original
"$OSDHIST" --inspect "$ORIG" -v >"$WORK/orig.out" 2>"$WORK/orig.err"
check_eq "original: traceable (exit 0)" "$?" 0
"$OSDHIST" --inspect "$WORK/plain/ceph-osd" -v >"$WORK/plain.out" 2>"$WORK/plain.err"
check_eq "unpatched copy: traceable (exit 0)" "$?" 0
check "unpatched copy: nothing on stderr" test ! -s "$WORK/plain.err"
check_eq "unpatched copy: the same offsets as the original" \
	"$(grep '^  ' "$WORK/plain.out")" "$(grep '^  ' "$WORK/orig.out")"
REQUIRED=$(offset_names FEAT_TRACE)
check "the table has required offsets" test -n "$REQUIRED"
check_eq "the original's required offsets all derived" \
	"$(grep -oE "^  ($(echo $REQUIRED | tr ' ' '|')) = 0x" "$WORK/orig.out" | awk '{print $1}')" "$REQUIRED"

# --- patch the copy: find `mov 0x10(%reg),%rdi` before the call of
# TrackedOp::put in _M_dispose, through the symbol table and the PT_LOADs.
sym=_ZNSt23_Sp_counted_ptr_inplaceIN17ReplicatedBackend9RepModifyESaIvELN9__gnu_cxx12_Lock_policyE2EE10_M_disposeEv
read -r start size < <(nm -D -S "$ORIG" | awk -v s="$sym" '$4 == s {print $1, $2}')
[ -n "$start" ] || fail "no $sym in $ORIG"
line=$(objdump -d --start-address=0x$start --stop-address=$(printf '0x%x' $((0x$start + 0x$size))) "$ORIG" |
	grep -B3 '_ZN9TrackedOp3putEv' | grep -E 'mov +0x10\(%r[a-z0-9]+\),%rdi' | head -1)
echo "# patching: $line"
insn=$(awk -F'\t' '{gsub(/[ :]/, "", $1); print $1}' <<<"$line")
bytes=($(awk -F'\t' '{print $2}' <<<"$line"))
check_eq "the witness instruction ends in its displacement 0x10" "${bytes[-1]}" 10
vaddr=$((0x$insn + ${#bytes[@]} - 1))
fileoff=
while read -r _ off va _ filesz _; do
	if [ "$vaddr" -ge $((va)) ] && [ "$vaddr" -lt $((va + filesz)) ]; then
		fileoff=$((vaddr - va + off)); break
	fi
done < <(readelf -lW "$ORIG" | awk '$1 == "LOAD"')
[ -n "$fileoff" ] || fail "0x$insn is in no PT_LOAD"
printf '\x18' | dd of="$WORK/patched/ceph-osd" bs=1 seek="$fileoff" conv=notrunc status=none
check "the copy differs from the original in one byte" \
	test "$(cmp -l "$ORIG" "$WORK/patched/ceph-osd" | wc -l)" = 1

# --- --inspect refuses it: exit 1, one line, offset + functions + build-id
"$OSDHIST" --inspect "$WORK/patched/ceph-osd" >"$WORK/p.out" 2>"$WORK/p.err"
rc=$?
echo "# refusal: $(cat "$WORK/p.err")"
check_eq "patched copy: refused (exit 1)" "$rc" 1
check_eq "patched copy: exactly one line on stderr" "$(wc -l <"$WORK/p.err")" 1
check "the line names the offset" grep -q "cannot derive repmod_op: witnesses disagree" "$WORK/p.err"
check "the line names both functions and their answers" \
	grep -q "ReplicatedBackend::repop_commit says 0x0, shared_ptr<RepModify>::_M_dispose says 0x8" "$WORK/p.err"
check "the line names the build-id" grep -q "build-id $BUILD_ID" "$WORK/p.err"
check "stdout says not traceable" grep -q ": not traceable$" "$WORK/p.out"

# --- an OSD running the patched copy: it works, osdhist refuses it and
# attaches nothing
cluster_up --osds 1 --first-id "$(random_first_id)" --osd-bin "$WORK/patched/ceph-osd"
ID=${OSD_IDS%% *}
PID=$(osd_pid "$ID")
check "the OSD runs the patched copy" test "$(readlink "/proc/$PID/exe")" = "$WORK/patched/ceph-osd"
echo hello >"$WORK/obj"
check "the patched OSD serves writes" rados -p "$POOL" put obj "$WORK/obj"
check "the patched OSD serves reads" rados -p "$POOL" get obj "$WORK/got"

"$OSDHIST" -p "$PID" 1 2 >"$WORK/t.out" 2>"$WORK/t.err" &
TPID=$!
uprobes=0
while kill -0 "$TPID" 2>/dev/null; do
	n=$(bpftool perf show 2>/dev/null | grep -c "^pid $TPID .*uprobe" || true)
	[ "$n" -gt "$uprobes" ] && uprobes=$n
	sleep 0.05
done
wait "$TPID"
rc=$?
echo "# osdhist -p: rc $rc, stderr: $(cat "$WORK/t.err")"
check_eq "osdhist -p on the patched OSD exits 1" "$rc" 1
check "it says why, naming repmod_op and the build-id" \
	grep -q "cannot trace pid $PID: .*build-id $BUILD_ID: cannot derive repmod_op" "$WORK/t.err"
check "it never attached" bash -c "! grep -q 'attached to' '$WORK/t.err'"
check_eq "no uprobe of osdhist's seen by bpftool while it ran" "$uprobes" 0

"$OSDHIST" --list >"$WORK/list.out" 2>&1
check_eq "--list exits 0" "$?" 0
check "--list shows the patched OSD as not traceable, and why" \
	grep -qE "^osd\.[0-9]+ pid $PID Ceph 16\.2\.15 build-id $BUILD_ID, x86-64: not traceable: .*repmod_op" "$WORK/list.out"
check "the OSD survived" kill -0 "$PID"
finish
