#!/bin/bash
# The include graph of loader/ points one way: a file includes files of
# its own folder or of lower ones, never of a higher one; only tracer.c
# includes the BPF skeleton; and no two modules include each other,
# however far round.  A file's rank is its folder's: a new folder fails
# this test until it is ranked below, and so does an include that is
# neither a file of loader/ nor of maps/ (or the generated skeleton).
# Also: only loader/ceph/ reads a process, and no function of loader/
# returns a failure as -1 (the return convention, below).
# No root, no cluster: tests/run-all.sh runs it after the unit tests.
#   tests/test_layers.sh [DIR]   checks DIR instead of this tree's loader/
. "$(dirname "$0")/lib.sh"

DIR=${1:-$LIB_ROOT/loader}

# Top to bottom: the data flows up, from what a process is to what is
# printed.  Includes within a folder are fine.
declare -A rank=(
	# 6 the program: options, the modes (--list, --inspect), the loop;
	# so only it knows the options (cli.h)
	[cli]=6
	# 5 the core at loader/ itself: the tracer (the only composer),
	# discovery, attach, snapshot, in-flight ops, sampling, the process
	# table, the self-check, the kernel's features; it fills the report
	[.]=5
	# 4 outputs: text, table, JSON, Prometheus, the HTTP server; below
	# the core, so that they see nothing of it, the self-check's results
	# included, but what the report model carries
	[output]=4
	# 3 the report model the core fills and the outputs read: series,
	# health, the self-check's judgements (verify_report), the slowest
	# ops, call names, an OSD's name (clusters) and every printed name
	[report]=3
	# 2 the trust boundary: everything read from or about a process
	# (/proc, exe, cmdline, config, sockets, ELF, the derivation); so it
	# includes only itself and util/
	[ceph]=2
	# 1 pieces that include nothing of ours but maps/: escaping, clocks,
	# readers with deadlines (job), test hooks, OSD-id sentinels
	[util]=1
)

folder() { local d; d=$(dirname "${1#"$DIR"/}"); echo "$d"; }
key() { local b; b=$(basename "$1"); echo "${b%.[ch]}"; }
# A module of the cycle check: a file's folder and key, except that the
# derivation's parts (derive_facts.h, derive_read.c, ...) are the module
# derive.  They are one derivation split by job: derive_facts.h, what
# passes between the parts, is included by them only and itself needs
# derive.h's types, so the arrows between them stay inside the
# derivation, which only derive.h shows the rest of the loader.
module() { local k; k=$(key "$1"); [[ $k == derive_* ]] && k=derive; echo "$(folder "$1")/$k"; }
# What an include names, as the compiler finds it (-Iloader -Imaps
# -Ibuild): the includer's folder first, then loader/; "" for maps/ and
# the skeleton, "?" for what is neither.
resolve() {
	local from=$1 inc=$2
	if [ -f "$(dirname "$from")/$inc" ]; then realpath -m "$(dirname "$from")/$inc"
	elif [ -f "$DIR/$inc" ]; then realpath -m "$DIR/$inc"
	elif [ -f "$LIB_ROOT/maps/$inc" ] || [ "$inc" = osdhist.skel.h ]; then echo ""
	else echo "?"; fi
}

DIR=$(realpath "$DIR")
files=() edges=0 unranked=0 up=0 skel=0 graph=()
while IFS= read -r f; do files+=("$f"); done < <(find "$DIR" -name '*.[ch]' | sort)
check "$DIR has sources" test ${#files[@]} -gt 0

for f in "${files[@]}"; do
	rel=${f#"$DIR"/} from=$(folder "$f")
	if [ -z "${rank[$from]:-}" ]; then
		fail "$rel: its folder $from/ has no rank in $(basename "$0")"
		unranked=$((unranked + 1))
		continue
	fi
	while IFS= read -r inc; do
		edges=$((edges + 1))
		to=$(resolve "$f" "$inc")
		if [ "$to" = "?" ]; then
			fail "$rel includes \"$inc\", which is in neither loader/ nor maps/"
			unranked=$((unranked + 1))
			continue
		fi
		[ "$inc" = osdhist.skel.h ] && [ "$rel" != tracer.c ] && {
			fail "$rel includes the BPF skeleton: only tracer.c owns it"
			skel=$((skel + 1))
		}
		[ -z "$to" ] && continue	# maps/ and the skeleton: below every folder
		graph+=("$(module "$f") $(module "$to")")
		tof=$(folder "$to")
		if [ "${rank[$tof]}" -gt "${rank[$from]}" ]; then
			fail "$rel ($from/, layer ${rank[$from]}) includes \"$inc\" ($tof/, layer ${rank[$tof]})"
			up=$((up + 1))
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done

check_eq "every folder and every include has a rank (${#files[@]} files, $edges includes)" "$unranked" 0
check_eq "no include points to a higher layer" "$up" 0
check_eq "only tracer.c includes osdhist.skel.h" "$skel" 0

# No circle at module level either (a module: a file's .c and .h, as
# key() names them): arrows within a layer may not come back to where they
# started, or no file of the circle can be understood, built or moved
# without the others.  tsort (coreutils) says "input contains a loop:"
# on stderr, then the loop's modules a line each, for every loop it breaks.
loops=$(for e in "${graph[@]}"; do
		read -r a b <<<"$e"
		[ "$a" != "$b" ] && echo "$a $b"
	done | tsort 2>&1 >/dev/null |
	awk '/input contains a loop/ { if (l) print l; l = ""; next }
	     { sub(/^tsort: /, ""); l = l ? l ", " $0 : $0 }
	     END { if (l) print l }')
cycles=0
while IFS= read -r l; do
	[ -z "$l" ] && continue
	fail "modules in an include cycle: $l"
	cycles=$((cycles + 1))
done <<<"$loops"
check_eq "no include cycle between modules of loader/" "$cycles" 0
check "loader/ceph/ holds the readers of a process" test -f "$DIR/ceph/procs.c" -a -f "$DIR/ceph/binary.c"

# The trust boundary: what is read from or about a process (its /proc
# entries, its exe's link and its files) is read in loader/ceph/ only,
# which resolves paths inside the process's root and bounds every read.
# Outside it, no "/proc", no readlink, no open or stat of a process path
# (p->exe and the like).
leak=0
for f in "${files[@]}"; do
	rel=${f#"$DIR"/}
	[[ $rel == ceph/* ]] && continue
	while IFS= read -r hit; do
		fail "$rel:$hit: reads a process outside loader/ceph/"
		leak=$((leak + 1))
	done < <(grep -nE '"/proc|\breadlink(at)?[[:space:]]*\(|\b(open|openat|openat2|fopen|opendir|stat|lstat|statx|access)[[:space:]]*\([^;]*(exe|proc_root|/proc)' "$f")
done
check_eq "no file outside loader/ceph/ names /proc, readlinks or opens a process path" "$leak" 0

# One return convention (docs/how-it-works.md "Return values"): a function
# that fails returns a negative errno naming the cause, never -1.  So no
# `return -1;` (nor `rc/ret/err = -1;`, nor `err ? -1 : 0`) in loader/,
# except in these functions, where -1 is a value and not a failure:
declare -A minus_one_value=(
	# the code point of a UTF-8 sequence (a long), -1: none starts here
	[util/escape.c:utf8_at]=1
	# an offset in the code read (int64_t), -1: no such pair of loads
	[ceph/derive_read.c:utime_pair]=1
	# a stack slot (int64_t), -1: the parameter is in a register
	[ceph/derive_witness.c:abi_stack_slot]=1
	# node and register indices of a trace; -1 is the trace's own "no
	# node" (struct sval, st_event.node), stored, compared, passed on
	[ceph/symtrace_x86.c:gpr_of]=1 [ceph/symtrace_x86.c:xmm_of]=1
	[ceph/symtrace_arm64.c:gpr_of]=1 [ceph/symtrace_arm64.c:vec_of]=1
	[ceph/symtrace_arm64.c:reg_op]=1 [ceph/symtrace_arm64.c:cmp_node]=1
	[ceph/symtrace_core.c:intern]=1 [ceph/symtrace_core.c:st_ev_load]=1
	[ceph/symtrace_core.c:st_arg]=1 [ceph/symtrace_core.c:st_sp]=1
	[ceph/symtrace_core.c:st_load]=1
	# 1 supported, 0 crimson-osd, -1 not an OSD name: a kind, not a failure
	[ceph/procs.c:osd_name]=1
	# the first missing feature's index, or -1: none is missing
	[kfeatures.c:kfeatures_missing]=1
	# seconds (a double), -1: not a duration; callers check the range
	[cli/cli.c:cli_duration]=1
	# a row of bpf/'s rows[], or -1: b->row's own "no row"
	[attach.c:take_row]=1
)
# Each hit with the function it is in: a definition starts at column 0
# with its name before the first '(', its body opens with '{' at column 0.
minus_one() { # FILE
	awk -v rel="${1#"$DIR"/}" '
		/^[A-Za-z_]/ && !/;[[:space:]]*$/ && match($0, /[A-Za-z_][A-Za-z_0-9]*\(/) {
			cand = substr($0, RSTART, RLENGTH - 1)
		}
		/^\{/ { fn = cand }
		/^\}/ { fn = "" }
		/return[[:space:]]*\(?[[:space:]]*-1[[:space:]]*\)?[[:space:]]*;/ ||
		/(^|[^A-Za-z_0-9>.])(rc|ret|err)[[:space:]]*=[[:space:]]*-1[[:space:]]*;/ ||
		/\?[[:space:]]*-1[[:space:]]*:[[:space:]]*0[[:space:]]*;/ {
			print rel ":" fn ":" FNR
		}' "$1"
}
minus=0 kept=0
for f in "${files[@]}"; do
	[[ $f == *.c ]] || continue
	while IFS=: read -r rel fn line; do
		if [ -n "$fn" ] && [ -n "${minus_one_value[$rel:$fn]:-}" ]; then
			kept=$((kept + 1))
			continue
		fi
		fail "$rel:$line: ${fn:-?}() returns -1: return the negative errno that names the cause"
		minus=$((minus + 1))
	done < <(minus_one "$f")
done
check_eq "no failure returned as -1 in loader/ ($kept value -1s kept, in ${#minus_one_value[@]} functions named above)" "$minus" 0
finish
