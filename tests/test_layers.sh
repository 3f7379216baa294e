#!/bin/bash
# The include graph of loader/ points one way (issue 24): a file includes
# files of its own layer or of lower ones, never of a higher one; only
# main.c and cli.c include cli.h; only tracer.c includes the BPF skeleton;
# loader/ceph/, the trust boundary, includes only itself and the base
# layer (maps/, clock.h: nothing of the tracer); and no two modules
# include each other, however far round.
# Every file has a rank below, by its name, wherever under loader/ it lives
# (loader/ceph/procs.c is procs): a new file fails this test until it is
# ranked, and so does an include of a file the table does not know.
# No root, no cluster: tests/run-all.sh runs it after the unit tests.
#   tests/test_layers.sh [DIR]   checks DIR instead of this tree's loader/
. "$(dirname "$0")/lib.sh"

DIR=${1:-$LIB_ROOT/loader}

# Top to bottom.  Same-layer includes are fine.
declare -A rank=(
	# 6 the program: options, modes (--list, --inspect), the loop
	[main]=6 [cli]=6 [list]=6
	# 5 outputs: they render the report model, and read the verify and
	# sampler types it points to
	[render_text]=5 [render_json]=5 [prom]=5 [export]=5 [http]=5
	# 4 the tracer core; trace_config is main's gift to it, bpf_handles
	# what tracer.c lends the rest of the skeleton it owns
	[tracer]=4 [trace_config]=4 [bpf_handles]=4 [osdhist.skel]=4
	[discover]=4 [proctable]=4 [attach]=4 [binaries]=4 [inflight]=4
	[sample]=4 [sampler]=4 [snapshot]=4 [deadkeys]=4 [verify]=4 [claims]=4
	[front]=4
	# 3 the report model the core fills and the outputs render (with the
	# self-check's lines, verify_report.h)
	[report]=3 [stats]=3 [verify_report]=3 [calls]=3 [slowops]=3
	# the printed names of bpf/'s enums, for the report and slowops alike
	[names]=3
	# an OSD's name: its cluster (fsid) and id in one key
	[clusters]=3
	# the readers of a process, each in a job with a deadline (job.h)
	[readers]=3
	# 2 readers of an OSD's process and binary (the trust boundary), and
	# of the kernel's features
	[procs]=2 [binary]=2 [derive]=2 [symtrace]=2 [asok]=2 [asok_find]=2
	[proot]=2 [cephfns]=2 [kfeatures]=2
	# the derivation's parts, beside derive (derive_facts.h between them)
	[derive_facts]=2 [derive_read]=2 [derive_read_obj]=2 [derive_witness]=2
	# 1 base: pieces that include nothing of ours but maps/ (http_guard is
	# a pure policy: it owns enum http_reject, which the report counts)
	[escape]=1 [clock]=1 [testhooks]=1 [http_guard]=1 [version]=1 [job]=1
	[osdhist]=1 [osdhist_ops]=1 [osd_id]=1
)

key() { local b; b=$(basename "$1"); echo "${b%.[ch]}"; }
# A module of the cycle check: a file's key, except that the derivation's
# parts (derive_facts.h, derive_read.c, ...) are the module derive.  They
# are one derivation split by job: derive_facts.h, what passes between the
# parts, is included by them only and itself needs derive.h's types, so
# the arrows between them stay inside the derivation, which only derive.h
# shows the rest of the loader.
module() { local k; k=$(key "$1"); [[ $k == derive_* ]] && k=derive; echo "$k"; }

files=() edges=0 unranked=0 up=0 cli=0 skel=0 out=0 graph=()
while IFS= read -r f; do files+=("$f"); done < <(find "$DIR" -name '*.[ch]' | sort)
check "$DIR has sources" test ${#files[@]} -gt 0

for f in "${files[@]}"; do
	from=$(key "$f") rel=${f#"$DIR"/}
	if [ -z "${rank[$from]:-}" ]; then
		fail "$rel has no rank in $(basename "$0")"
		unranked=$((unranked + 1))
		continue
	fi
	while IFS= read -r inc; do
		to=$(key "$inc")
		edges=$((edges + 1))
		graph+=("$(module "$f") $(module "$inc")")
		if [ -z "${rank[$to]:-}" ]; then
			fail "$rel includes \"$inc\", which has no rank in $(basename "$0")"
			unranked=$((unranked + 1))
			continue
		fi
		if [ "${rank[$to]}" -gt "${rank[$from]}" ]; then
			fail "$rel (layer ${rank[$from]}) includes \"$inc\" (layer ${rank[$to]})"
			up=$((up + 1))
		fi
		if [ "$to" = cli ] && [ "$from" != main ] && [ "$from" != cli ]; then
			fail "$rel includes cli.h: only main.c and cli.c know the options"
			cli=$((cli + 1))
		fi
		if [[ $rel == ceph/* ]] && [ ! -f "$DIR/ceph/$inc" ] && [ "${rank[$to]}" -gt 1 ]; then
			fail "$rel includes \"$inc\": loader/ceph/ includes only itself and the base layer"
			out=$((out + 1))
		fi
		if [ "$to" = osdhist.skel ] && [ "$(basename "$f")" != tracer.c ]; then
			fail "$rel includes the BPF skeleton: only tracer.c owns it"
			skel=$((skel + 1))
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done

check_eq "every file and every include has a rank (${#files[@]} files, $edges includes)" "$unranked" 0
check_eq "no include points to a higher layer" "$up" 0
check_eq "only main.c and cli.c include cli.h" "$cli" 0
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
check_eq "loader/ceph/ includes nothing of loader/ above the base layer" "$out" 0

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
finish
