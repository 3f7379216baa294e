#!/bin/bash
# Issue 37: two clusters on one host, each with an osd.ID of the same id,
# traced by one osdhist.  Ceph names a daemon by its cluster (fsid) and its
# id: each OSD is counted exactly under its own (fsid, id), against its own
# op_w/op_r, in JSON (the fsid field), text (osd.ID@FSID8 once two clusters
# are traced) and Prometheus (the cluster label); neither is a duplicate of
# the other, and both self-checks are verified.  A third process that
# claims cluster A's osd.ID (--fsid A on its command line, as Rook starts
# OSDs) is a true duplicate: reported, under cluster A only.
. "$(dirname "$0")/../lib.sh"

K=40		# writes, then as many reads, on cluster A
K2=25		# ... on cluster B: other counts, so the two cannot be swapped
lib_mktemp W -d
ID=$(random_first_id)

cluster_up --osds 1 --first-id "$ID" || { fail "cluster A starts"; finish; }
A=$CLUSTER_DIR FSID_A=$(cluster_fsid) PID_A=$(osd_pid "$ID")
cluster_up --osds 1 --first-id "$ID" || { fail "cluster B starts"; finish; }
B=$CLUSTER_DIR FSID_B=$(cluster_fsid) PID_B=$(osd_pid "$ID")
echo "# osd.$ID of cluster A: fsid $FSID_A, pid $PID_A; of cluster B: fsid $FSID_B, pid $PID_B"
check "the two clusters have two fsids" [ -n "$FSID_A" -a -n "$FSID_B" -a "$FSID_A" != "$FSID_B" ]

oh_start --osd "$ID" --textfile "$W/osdhist.prom" 1
"$OSDHIST" --osd "$ID" 1 >"$W/text" 2>"$W/text.err" &
XPID=$!
oh_wait_attached || { cat "$TERR"; fail "osdhist attached"; finish; }
check "text osdhist attached" wait_line "$W/text.err" "attached to ceph-osd" "$XPID"

# N writes of new objects, then N reads of them, on cluster DIR.
load() { # DIR N
	cluster_use "$1"
	/usr/bin/python3 "$(dirname "$0")/rados_load.py" put "$2" >/dev/null &&
		/usr/bin/python3 "$(dirname "$0")/rados_load.py" canary "$2" "$2" >/dev/null
}
counters() { # DIR -> "op_w op_r" of its osd.ID
	cluster_use "$1"
	echo "$(perf_counter "$ID" osd op_w) $(perf_counter "$ID" osd op_r)"
}
# osdhist's count of osd.ID of cluster FSID, class CLASS, lines FROM+1..TO
count() { # FROM TO FSID CLASS
	sed -n "$(($1 + 1)),$2p" "$TOUT" | jq -s --argjson o "$ID" --arg f "$3" --arg c "$4" '
		[.[] | select(.type == "hist" and .osd == $o and .fsid == $f and
			.phase == "total" and .class == $c) | .count] | add // 0'
}

read -r wa0 ra0 <<<"$(counters "$A")"
read -r wb0 rb0 <<<"$(counters "$B")"
l0=$(oh_snap) || { fail "snapshot"; finish; }
load "$A" "$K" || fail "load on cluster A"
load "$B" "$K2" || fail "load on cluster B"
read -r wa1 ra1 <<<"$(counters "$A")"
read -r wb1 rb1 <<<"$(counters "$B")"
l1=$(oh_snap) || { fail "snapshot"; finish; }
check_eq "A: op_w delta = $K" "$((wa1 - wa0))" "$K"
check_eq "B: op_w delta = $K2" "$((wb1 - wb0))" "$K2"
check_eq "A: osdhist writes of osd.$ID fsid $FSID_A = op_w delta" "$(count "$l0" "$l1" "$FSID_A" write)" "$((wa1 - wa0))"
check_eq "A: osdhist reads = op_r delta" "$(count "$l0" "$l1" "$FSID_A" read)" "$((ra1 - ra0))"
check_eq "B: osdhist writes of osd.$ID fsid $FSID_B = op_w delta" "$(count "$l0" "$l1" "$FSID_B" write)" "$((wb1 - wb0))"
check_eq "B: osdhist reads = op_r delta" "$(count "$l0" "$l1" "$FSID_B" read)" "$((rb1 - rb0))"
check_eq "no hist line of osd.$ID without its cluster" \
	"$(jq -c --argjson o "$ID" 'select(.type == "hist" and .osd == $o and .fsid == "")' "$TOUT" | wc -l)" 0
h=$(head -n "$l1" "$TOUT" | grep '"type":"health"' | tail -n 1)
check_eq "health: osd.$ID is no duplicate id" \
	"$(jq -c --argjson o "$ID" '[.duplicate_id_list[] | select(.osd == $o)]' <<<"$h")" "[]"
check_eq "no process of osd.$ID had its ops held or counted as osd.dup" \
	"$(grep -cE "claims osd\.$ID[@,]|claimed osd\.$ID[@ ]" "$TERR")" 0

# --- both self-checks verified, after the load (60 s at most)
last_state() { # FSID
	jq -c --argjson o "$ID" --arg f "$1" \
		'select(.type == "verify" and .osd == $o and .fsid == $f)' "$TOUT" | tail -n 1
}
n_a=$(last_state "$FSID_A" | jq '.checks // 0') n_b=$(last_state "$FSID_B" | jq '.checks // 0')
ok=false
for _ in $(seq 60); do
	sleep 1
	oh_snap >/dev/null || break
	last_state "$FSID_A" | jq -e --argjson n "${n_a:-0}" '.state == "verified" and .checks > $n' >/dev/null &&
		last_state "$FSID_B" | jq -e --argjson n "${n_b:-0}" '.state == "verified" and .checks > $n' >/dev/null &&
		{ ok=true; break; }
done
check "both self-checks verified a comparison after the load (A: $(last_state "$FSID_A" | jq -c '{state, pid}'), B: $(last_state "$FSID_B" | jq -c '{state, pid}'))" $ok
check_eq "A's verify line is pid $PID_A's" "$(last_state "$FSID_A" | jq .pid)" "$PID_A"
check_eq "B's verify line is pid $PID_B's" "$(last_state "$FSID_B" | jq .pid)" "$PID_B"

# --- Prometheus: one set of series per cluster, told apart by the label
for c in A B; do
	f=FSID_$c
	check "Prometheus: osd.$ID of cluster $c (${!f}) verified" \
		grep -qx "osdhist_verify_state{ceph_daemon=\"osd.$ID\",cluster=\"${!f}\",state=\"verified\"} 1" "$W/osdhist.prom"
	check "Prometheus: osd.$ID of cluster $c has its write count series" \
		grep -q "^osdhist_op_latency_seconds_count{ceph_daemon=\"osd.$ID\",cluster=\"${!f}\",class=\"write\",phase=\"total\"} " "$W/osdhist.prom"
done
check_eq "Prometheus: no osd.$ID series without a cluster" \
	"$(grep "{ceph_daemon=\"osd.$ID\"" "$W/osdhist.prom" | grep -vc "{ceph_daemon=\"osd.$ID\",cluster=\"")" 0

# --- a true duplicate: a third process claiming cluster A's osd.ID
fake_claimant "$W/dup" --id "$ID" --fsid "$FSID_A" || fail "the third process starts"
DUP=$FAKE_PID
sleep 1.5	# a rescan (1 s) sees it
oh_snap >/dev/null
l=$(oh_snap) || { fail "snapshot"; finish; }
h=$(head -n "$l" "$TOUT" | grep '"type":"health"' | tail -n 1)
echo "# health duplicates: $(jq -c .duplicate_id_list <<<"$h")"
check_eq "health: cluster A's osd.$ID claimed by 2 processes, its series pid $PID_A's" \
	"$(jq -c --argjson o "$ID" '[.duplicate_id_list[] | select(.osd == $o)]' <<<"$h")" \
	"[{\"osd\":$ID,\"fsid\":\"$FSID_A\",\"processes\":2,\"pid\":$PID_A}]"
"$OSDHIST" --list >"$W/list" 2>"$W/list.err"
check_eq "--list: exit 0" "$?" 0
check "--list: A's osd.$ID (pid $PID_A) with its cluster, a duplicate of this cluster" \
	grep -qE "^osd\.$ID pid $PID_A .*; cluster $FSID_A; duplicate: 2 processes claim osd\.$ID of this cluster" "$W/list"
check "--list: the third process (pid $DUP) the same" \
	grep -qE "^osd\.$ID pid $DUP .*; cluster $FSID_A; duplicate: 2 processes claim osd\.$ID of this cluster" "$W/list"
check "--list: B's osd.$ID (pid $PID_B) with its cluster, no duplicate" \
	grep -qE "^osd\.$ID pid $PID_B .*; cluster $FSID_B; admin socket" "$W/list"
kill "$DUP"

# --- text: each OSD named with its cluster
kill -INT "$TPID" "$XPID"
wait "$TPID"; check_eq "osdhist exits 0 on SIGINT" "$?" 0
wait "$XPID"; check_eq "text osdhist exits 0 on SIGINT" "$?" 0
for c in A B; do
	f=FSID_$c
	check "text: osd.$ID@${!f:0:8} (cluster $c) has write lines" \
		grep -q "^osd\.$ID@${!f:0:8} write total: " "$W/text"
	check "text: osd.$ID@${!f:0:8} (cluster $c) verified" \
		grep -q "^verify: osd\.$ID@${!f:0:8} verified" "$W/text"
done
check_eq "text: no line names osd.$ID without its cluster" \
	"$(grep -cE "(^|[^.])osd\.$ID( |:|$)" "$W/text")" 0
for d in "$A" "$B"; do
	cluster_use "$d"
	check "osd.$ID of $d survived" kill -0 "$(osd_pid "$ID")"
done
finish
