#!/bin/bash
# The table (--table, issue 40) on a host of 12 OSDs under rados bench: one
# row per OSD and class per interval, its columns lined up within 120
# columns, and its counts, summed over the run, equal to those of the JSON
# output of the same run and to each OSD's own perf counters, exactly;
# with --sort p99, the same counts, the rows by p99.
# Without --table, on a terminal (script(1)) with more than 4 OSDs the
# table is the default; into a file it stays the text.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
N=12
lib_mktemp WORK -d

# Ids no other cluster on this host uses: osdhist sees every ceph-osd here.
FIRST=$(random_first_id $N) || { fail "no free OSD ids"; finish; }
cluster_up --osds $N --first-id "$FIRST" --pg 64 --timeout 240 || { fail "cluster start"; finish; }
echo "# OSD ids: $OSD_IDS"
check_eq "pool has size 2: replica sub-ops too" "$(ceph osd pool get "$POOL" size -f json | jq .size)" 2

# Both outputs from before the load to after it, at the same interval:
# every op of the run is in each.
"$OSDHIST" --json 2 >"$WORK/json" 2>"$WORK/json.err" &
JPID=$!
"$OSDHIST" --table 2 >"$WORK/table" 2>"$WORK/table.err" &
BPID=$!
"$OSDHIST" --sort p99 2 >"$WORK/sorted" 2>"$WORK/sorted.err" &
SPID=$!
check "osdhist --json attached" wait_line "$WORK/json.err" "attached to ceph-osd" $JPID
check "osdhist --table attached" wait_line "$WORK/table.err" "attached to ceph-osd" $BPID
check "osdhist --sort p99 attached" wait_line "$WORK/sorted.err" "attached to ceph-osd" $SPID

declare -A before
for id in $OSD_IDS; do before[$id]=$(perf_dump "$id"); done
rados -p "$POOL" bench 6 write -b 4096 -t 16 --no-cleanup >/dev/null
rados -p "$POOL" bench 4 seq -t 16 >/dev/null
# ops that fail (ENOENT): the class error, the table's failed column
for i in $(seq 12); do rados -p "$POOL" stat "missing$i" 2>/dev/null; done
echo x >"$WORK/obj"
for i in 1 2 3; do
	rados -p "$POOL" put "obj$i" "$WORK/obj"
	rados -p "$POOL" lock get "obj$i" "lock$i"	# an rw op
done

# A quiet interval in both: two snapshots more than there were once the
# load was over, so the last began after every op of it had ended (a
# replica's end may come just after the client's reply).
nh() { grep -cE '^(!! )?health:|"type":"health"' "$1"; }
declare -A h0
for f in json table sorted; do h0[$f]=$(nh "$WORK/$f"); done
quiet() { for f in json table sorted; do [ "$(nh "$WORK/$f")" -ge $((h0[$f] + 2)) ] || return 1; done; }
for _ in $(seq 300); do quiet && break; sleep 0.1; done
check "a snapshot in each after a whole interval past the load" quiet
kill -INT $JPID $BPID $SPID
wait $JPID; check_eq "osdhist --json exits 0 on SIGINT" "$?" 0
wait $BPID; check_eq "osdhist --table exits 0 on SIGINT" "$?" 0
wait $SPID; check_eq "osdhist --sort p99 exits 0 on SIGINT" "$?" 0
check "osdhist --table: nothing on stderr but its start" \
	bash -c "! grep -v '^osdhist: \(attached\|tracing\|waiting\)' '$WORK/table.err' | grep -q ."

# Read back: aligned, <= 120 columns, one row per OSD and class an interval.
python3 "$LIB_ROOT/tests/integration/table_parse.py" "$WORK/table" >"$WORK/parsed" 2>"$WORK/parse.err"
check "the table's columns line up, within 120 columns, one row per OSD and class per interval ($(jq .tables "$WORK/parsed") tables in $(jq .snapshots "$WORK/parsed") snapshots)" \
	bash -c "cat '$WORK/parse.err' >&2; test ! -s '$WORK/parse.err'"
check "every interval printed a table or 'no op completed', and there were tables" \
	test "$(jq .tables "$WORK/parsed")" -ge 3
python3 "$LIB_ROOT/tests/integration/table_parse.py" "$WORK/sorted" --sort p99 >"$WORK/parsed-p99" \
	2>"$WORK/parse-p99.err"
check "--sort p99: lined up, and in every table the rows by p99, the largest first" \
	bash -c "cat '$WORK/parse-p99.err' >&2; test ! -s '$WORK/parse-p99.err'"
check_eq "--sort p99: the same ops per OSD and class as --table" \
	"$(jq -S .ops "$WORK/parsed-p99")" "$(jq -S .ops "$WORK/parsed")"
echo "# the snapshot of the run with the largest table, --sort p99:"
jq -r .biggest "$WORK/parsed-p99" | sed 's/^/#   /'

tcount() { jq --arg o "osd.$1" --arg c "$2" '.ops[$o][$c] // 0' "$WORK/parsed"; }
jcount() { jq -s --argjson o "$1" --arg c "$2" '[.[] | select(.type == "hist" and .osd == $o
	and .phase == "total" and .class == $c) | .count] | add // 0' "$WORK/json"; }
delta() { echo $(( $(perf_counter "$1" osd "$2") - $(jq ".osd.$2" <<<"${before[$1]}") )); }
busy=0 failed=0 rw=0
for id in $OSD_IDS; do
	for cls in read write rw error subop pg; do
		check_eq "osd.$id $cls: the table's ops = the JSON output's" "$(tcount "$id" $cls)" "$(jcount "$id" $cls)"
	done
	for pair in read:op_r write:op_w rw:op_rw subop:subop_w; do
		check_eq "osd.$id ${pair%%:*}: the table's ops = ${pair#*:} delta" \
			"$(tcount "$id" "${pair%%:*}")" "$(delta "$id" "${pair#*:}")"
	done
	[ "$(tcount "$id" write)" -gt 0 ] && busy=$((busy + 1))
	failed=$((failed + $(tcount "$id" error))) rw=$((rw + $(tcount "$id" rw)))
done
echo "# $busy of $N OSDs wrote"
check "writes on several OSDs ($busy of $N): rows of many OSDs" test $busy -ge 4
check_eq "the failed stats: 12 in the table's error rows" "$failed" 12
check_eq "the lock gets: 3 rw ops in the table" "$rw" 3

# The default: the table on a terminal with more than 4 OSDs (the table's
# self-check line), the text into a file (its verify lines, no table).
script -qec "$OSDHIST 1 2" /dev/null >"$WORK/tty" 2>&1
check_eq "on a terminal: exits 0" "$?" 0
check "on a terminal with $N OSDs: the table without --table" grep -qE '^(!! )?self-check' "$WORK/tty"
check "... and not the text" bash -c "! grep -qE '^(!! )?verify: ' '$WORK/tty'"
script -qec "$OSDHIST --text 1 2" /dev/null >"$WORK/tty-text" 2>&1
check "on a terminal with --text: the text" bash -c \
	"grep -qE '^(!! )?verify: ' '$WORK/tty-text' && ! grep -qE '^(!! )?self-check' '$WORK/tty-text'"
"$OSDHIST" 1 2 >"$WORK/file" 2>/dev/null
check_eq "into a file: exits 0" "$?" 0
check "into a file: the text, whatever the number of OSDs" bash -c \
	"grep -qE '^(!! )?verify: ' '$WORK/file' && ! grep -qE '^(!! )?self-check' '$WORK/file'"
finish
