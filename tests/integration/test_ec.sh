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
check_eq "pool ec is erasure-coded" "$(ceph osd pool ls detail -f json | jq -r '.[] | select(.pool_name=="ec") | .type')" 3

declare -A before
for id in $OSD_IDS; do before[$id]=$(perf_dump "$id"); done
TOUT=$CLUSTER_DIR/oh.json TERR=$CLUSTER_DIR/oh.err
"$OSDHIST" --json -P 3600 >"$TOUT" 2>"$TERR" &
TPID=$!
for _ in $(seq 100); do grep -q "attached" "$TERR" && break; sleep 0.1; done

made=$(rados -p ec bench 3 write -b 4096 -t 16 --no-cleanup | awk '/Total writes made/{print $4}')
reads=$(rados -p ec bench 2 seq -t 16 | awk '/Total reads made/{print $4}')
echo hello >"$CLUSTER_DIR/obj"
rados -p ec put small "$CLUSTER_DIR/obj"
rados -p ec get small "$CLUSTER_DIR/got"
rados -p ec stat missing 2>/dev/null
sleep 0.5
kill -INT $TPID; wait $TPID
check_eq "osdhist exits 0 on SIGINT" $? 0

EC=$(ceph osd pool ls detail -f json | jq '.[] | select(.pool_name=="ec") | .pool_id')
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
check_eq "nothing lost" "$(jq -s '[.[] | select(.type=="health")] | last | .losses' "$TOUT")" 0
finish
