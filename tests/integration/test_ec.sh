#!/bin/bash
# Issue 5: client ops on an erasure-coded pool (k=2 m=1 on 3 OSDs) are
# counted and timed like any other: each OSD's read/write/rw equal its
# op_r/op_w/op_rw deltas exactly.  (Older tracers dropped them: EC reads
# complete asynchronously, outside the thread that executed the op.)
. "$(dirname "$0")/../lib.sh"

FIRST=$((RANDOM % 800 + 100))
cluster_up --osds 3 --first-id $FIRST || { fail "cluster start"; finish; }
OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}

ceph osd erasure-code-profile set k2m1 k=2 m=1 crush-failure-domain=osd >/dev/null
ceph osd pool create ec 8 8 erasure k2m1 >/dev/null 2>&1
ceph osd pool application enable ec rados >/dev/null 2>&1
"$LIB_ROOT"/scripts/cluster.sh wait-clean "$CLUSTER_DIR" 60 >/dev/null
EC=$(ceph osd pool ls detail -f json | jq '.[] | select(.pool_name=="ec") | .pool_id')
# No primaries on the OSD that leads the first EC PG: the PGs it led
# (shard 0) get a primary that holds another shard, so that the slowest
# ops see shards above 0.
LEAD=$(ceph pg dump pgs_brief -f json 2>/dev/null |
	jq "[.pg_stats[] | select(.pgid | startswith(\"$EC.\"))][0].acting[0]")
ceph osd primary-affinity "osd.$LEAD" 0 >/dev/null 2>&1
"$LIB_ROOT"/scripts/cluster.sh wait-clean "$CLUSTER_DIR" 60 >/dev/null
check_eq "pool ec is erasure-coded" "$(ceph osd pool ls detail -f json | jq -r '.[] | select(.pool_name=="ec") | .type')" 3

declare -A before
for id in $OSD_IDS; do before[$id]=$(perf_dump "$id"); done
TOUT=$CLUSTER_DIR/oh.json TERR=$CLUSTER_DIR/oh.err
"$OSDHIST" --json -P 3600 >"$TOUT" 2>"$TERR" &
TPID=$!
wait_line "$TERR" "attached to ceph-osd" $TPID || fail "osdhist attached ($(head -c 200 "$TERR"))"

made=$(rados -p ec bench 3 write -b 4096 -t 16 --no-cleanup | awk '/Total writes made/{print $4}')
reads=$(rados -p ec bench 2 seq -t 16 | awk '/Total reads made/{print $4}')
echo hello >"$CLUSTER_DIR/obj"
rados -p ec put small "$CLUSTER_DIR/obj"
rados -p ec get small "$CLUSTER_DIR/got"
rados -p ec stat missing 2>/dev/null
sleep 0.5
kill -INT $TPID; wait $TPID
check_eq "osdhist exits 0 on SIGINT" $? 0

q() { jq -s "[.[] | select(.type==\"hist\" and .osd==$1 and .class==\"$2\" and .phase==\"total\") | .count] | add // 0" "$TOUT"; }
delta() { echo $(( $(perf_counter "$1" osd "$2") - $(jq ".osd.$2" <<<"${before[$1]}") )); }
tw=0 tr=0
for id in $OSD_IDS; do
	for pair in read:op_r write:op_w rw:op_rw; do
		check_eq "osd.$id ${pair%%:*} = ${pair#*:} delta" "$(q "$id" "${pair%%:*}")" "$(delta "$id" "${pair#*:}")"
	done
	tw=$((tw + $(q "$id" write))) tr=$((tr + $(q "$id" read)))
done
# bench writes + its metadata object + the put; bench reads + metadata + get
check_eq "EC writes seen on all OSDs = rados' writes" "$tw" $((made + 2))
check_eq "EC reads seen on all OSDs = rados' reads" "$tr" $((reads + 2))
check "EC ops carry the EC pool id" [ "$(jq -s "[.[] | select(.type==\"hist\" and .pool==$EC and .class==\"write\")] | length" "$TOUT")" -gt 0 ]
errs=0
for id in $OSD_IDS; do errs=$((errs + $(q "$id" error))); done
check_eq "the missing-object stat is an error" "$errs" 1
# The slowest ops name an EC op's PG as Ceph does (spg_t: 2.3s1): the
# shard is the primary's place in the PG's acting set.
ceph pg dump pgs_brief -f json 2>/dev/null >"$CLUSTER_DIR/pgs.json"
slots=0 wrong=0
while read -r osd pg; do
	slots=$((slots + 1))
	want=$(jq -r --arg pg "${pg%s*}" --argjson o "$osd" \
		'.pg_stats[] | select(.pgid == $pg) | "\(.pgid)s\(.acting | index($o))"' "$CLUSTER_DIR/pgs.json")
	[ "$pg" = "$want" ] || { wrong=$((wrong + 1)); echo "  osd.$osd slot pg $pg, Ceph's $want"; }
done < <(jq -r "select(.type==\"slowop\" and .pool==$EC) | \"\\(.osd) \\(.pg)\"" "$TOUT")
echo "# EC slots: $slots, their PGs' shards: $(jq -r "select(.type==\"slowop\" and .pool==$EC) | .pg | sub(\".*s\"; \"s\")" "$TOUT" | sort | uniq -c | paste -sd' ')"
check "EC ops are among the slowest ops" [ "$slots" -gt 0 ]
check_eq "each EC slot's PG has its primary's shard, as Ceph prints it" "$wrong" 0
# Which slots the load's ops take is chance: put, alone, objects whose
# primary holds a shard above 0 (fewer ops than K: every op is a slot);
# one of the 8 PGs at least has such a primary, so 200 names find two.
picked=()
for i in $(seq 200); do
	m=$(ceph osd map ec "shard-$i" -f json)
	sh=$(jq '.acting_primary as $p | .acting | index($p)' <<<"$m")
	[ "$sh" -ge 1 ] && picked+=("shard-$i $(jq -r .pgid <<<"$m")s$sh $(jq .acting_primary <<<"$m")")
	[ ${#picked[@]} -ge 2 ] && break
done
check_eq "objects found whose primary holds shard 1 or 2" ${#picked[@]} 2
"$OSDHIST" --json -P 3600 --slowest 64 >"$TOUT.2" 2>"$TERR.2" &
TPID=$!
wait_line "$TERR.2" "attached to ceph-osd" $TPID || fail "osdhist --slowest 64 attached ($(head -c 200 "$TERR.2"))"
for p in "${picked[@]}"; do rados -p ec put "${p%% *}" "$CLUSTER_DIR/obj"; done
sleep 0.5
kill -INT $TPID; wait $TPID
for p in "${picked[@]}"; do
	read -r o pg osd <<<"$p"
	check_eq "$o: its slot is on its primary with its shard ($pg, osd.$osd)" \
		"$(jq -r --arg o "$o" 'select(.type=="slowop" and .name==$o) | "\(.pg) osd.\(.osd)"' "$TOUT.2")" \
		"$pg osd.$osd"
done
check_eq "nothing lost" "$(jq -s '[.[] | select(.type=="health")] | last | .losses' "$TOUT")" 0
finish
