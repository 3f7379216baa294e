#!/bin/bash
# What a crafted "ceph-osd" can cost the root process that reads it, beyond
# what the fuzzer reaches (its inputs stay under ~50 KB): files built by
# tests/fuzz/mkbomb.py, each small on disk, each ruinous to a reader that
# trusts its header counts.  osdhist --inspect must refuse each with one line,
# in bounded memory.  The 60 s limit detects a hang; it is not a timing check.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
lib_mktemp WORK -d
if ! make -s -C "$LIB_ROOT" osdhist >"$WORK/make.log" 2>&1; then
	fail "building osdhist"
	tail -n 20 "$WORK/make.log"
	finish
fi
python3 "$LIB_ROOT/tests/fuzz/mkbomb.py" "$WORK"
for f in "$WORK"/*.elf; do
	b=$(basename "$f" .elf)
	timeout -k 5 60 /usr/bin/time -o "$WORK/$b.time" -f '%M %e' \
		"$OSDHIST" --inspect "$f" >/dev/null 2>"$WORK/$b.err"
	rc=$?
	kb='' secs=''
	[ -s "$WORK/$b.time" ] && read -r kb secs < <(grep -v '^Command' "$WORK/$b.time")
	echo "# $b ($(du -k "$f" | cut -f1) KB on disk, $(stat -c %s "$f") bytes): rc $rc," \
		"peak RSS ${kb:-?} KB, ${secs:-?} s"
	sed 's/^/#   /' "$WORK/$b.err"
	check_eq "$b: refused (exit 1; 124: still reading after 60 s)" "$rc" 1
	check_eq "$b: exactly one line on stderr" "$(wc -l <"$WORK/$b.err")" 1
	check "$b: peak RSS under 256 MB (got ${kb:-?} KB)" test "${kb:-999999999}" -lt 262144
done
finish
