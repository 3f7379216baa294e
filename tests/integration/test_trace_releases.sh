#!/bin/bash
# Issue 17: osdhist traces the Ceph releases operators run, with offsets it
# derives from each binary's own code.  On 18.2.x (reef) and 20.2.x
# (tentacle) OSDs in chroots, reached through /proc/PID/root like
# containers, over a mixed workload: read / write / rw equal that OSD's
# op_r / op_w / op_rw deltas, failed ops land in error, the built-in check
# says verified; a size-2 pool's subop equals subop_w; an erasure-coded
# pool's client ops are exact, --phases included.  Then one osdhist traces
# two releases at once (the host's 16.2.x and an 18.2.x OSD), each exact
# against its own counters, and --list names all three releases.
. "$(dirname "$0")/../lib.sh"

OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}
LOAD="/usr/bin/python3 $(dirname "$0")/rados_load.py"

q() { # FILE OSD CLASS [PHASE]: osdhist's count over the whole run
	jq -s --argjson o "$2" --arg c "$3" --arg p "${4:-total}" \
		'[.[] | select(.type=="hist" and .osd==$o and .class==$c and .phase==$p) | .count] | add // 0' "$1"
}
# osdhist in the background (tests/lib.sh: output in $TOUT), attached.
start_tracer() { # ARGS...
	oh_start "$@" 3600
	oh_wait_attached && return 0
	cat "$TERR" >&2
	return 1
}
stop_tracer() { kill -INT $TPID; wait $TPID; }

# The mixed workload on POOL; sets ERRORS to the number of ops that fail.
workload() { # POOL
	local p=$1 i
	ERRORS=0
	echo data >"$CLUSTER_DIR/obj"
	rados -p "$p" bench 2 write -b 4096 -t 8 --no-cleanup >/dev/null
	rados -p "$p" bench 2 seq -t 8 >/dev/null
	rados -p "$p" put o1 "$CLUSTER_DIR/obj"
	rados -p "$p" stat o1 >/dev/null
	for i in 1 2 3 4 5; do
		rados -p "$p" stat "missing$i" 2>/dev/null && fail "stat of a missing object succeeded"
		ERRORS=$((ERRORS + 1))
	done
	rados -p "$p" setomapval o1 k v
	rados -p "$p" getomapval o1 k >/dev/null
	rados -p "$p" setxattr o1 a v
	rados -p "$p" getxattr o1 a >/dev/null
	rados -p "$p" getxattr o1 nosuch 2>/dev/null; ERRORS=$((ERRORS + 1))
	rados -p "$p" lock get o1 l1
	rados -p "$p" lock info o1 l1 >/dev/null
	rados -p "$p" rm o1
	rados -p "$p" rm missing 2>/dev/null; ERRORS=$((ERRORS + 1))
	sleep 0.5
}

# The mixed workload on one OSD of RELEASE: exact classes, errors, verified.
one_osd() { # RELEASE
	local rel=$1 root pid before after out
	root=$(chroot_dir "$rel") || { fail "$rel: no chroot"; return; }
	cluster_up --root "$root" --osds 1 --first-id "$(random_first_id)" ||
		{ fail "$rel: cluster start"; return; }
	pid=$(osd_pid "$OSD_IDS")
	check "$rel: the OSD runs the chroot's binary" \
		[ "$(readlink "/proc/$pid/root")" = "$root" ]
	before=$(perf_dump "$OSD_IDS")
	start_tracer -p "$pid" || { fail "$rel: osdhist did not attach"; cluster_down; return; }
	workload "$POOL"
	after=$(perf_dump "$OSD_IDS")
	wait_verified "$rel" "$OSD_IDS"
	stop_tracer
	check_eq "$rel: osdhist exits 0" $? 0
	out=$TOUT
	local c cls
	for c in r w rw; do
		case $c in r) cls=read ;; w) cls=write ;; rw) cls=rw ;; esac
		check_eq "$rel: $cls = op_$c delta" "$(q "$out" "$OSD_IDS" $cls)" \
			$(( $(jq ".osd.op_$c" <<<"$after") - $(jq ".osd.op_$c" <<<"$before") ))
	done
	check "$rel: every class exercised" [ "$(q "$out" "$OSD_IDS" read)" -gt 100 -a \
		"$(q "$out" "$OSD_IDS" write)" -gt 100 -a "$(q "$out" "$OSD_IDS" rw)" -ge 1 ]
	check_eq "$rel: failed ops in error" "$(q "$out" "$OSD_IDS" error)" "$ERRORS"
	check_eq "$rel: nothing lost" "$(jq -s '[.[] | select(.type=="health")] | last | .losses' "$out")" 0
	no_bad_verify "$rel" "$OSD_IDS"
	cluster_down
}

# Size-2 pool on 2 OSDs: subop = subop_w on each; EC k=2 m=1 on 3 OSDs with
# --phases: client ops exact and every write's commit phase there.
replicas_and_ec() { # RELEASE
	local rel=$1 root out id before
	root=$(chroot_dir "$rel") || { fail "$rel: no chroot"; return; }
	cluster_up --root "$root" --osds 3 --first-id "$(random_first_id 3)" ||
		{ fail "$rel: 3-OSD cluster start"; return; }
	ceph osd pool set "$POOL" size 2 >/dev/null 2>&1
	ceph osd erasure-code-profile set k2m1 k=2 m=1 crush-failure-domain=osd >/dev/null
	ceph osd pool create ec 8 8 erasure k2m1 >/dev/null 2>&1
	ceph osd pool application enable ec rados >/dev/null 2>&1
	"$CLUSTER_SH" wait-clean "$CLUSTER_DIR" 90 >/dev/null
	declare -A before
	for id in $OSD_IDS; do before[$id]=$(perf_dump "$id"); done
	start_tracer --phases || { fail "$rel: osdhist did not attach"; cluster_down; return; }
	rados -p "$POOL" bench 2 write -b 4096 -t 8 --no-cleanup >/dev/null
	rados -p ec bench 2 write -b 4096 -t 8 --no-cleanup >/dev/null
	rados -p ec bench 2 seq -t 8 >/dev/null
	rados -p ec stat missing 2>/dev/null
	sleep 0.5
	stop_tracer
	out=$TOUT
	local d sw=0
	for id in $OSD_IDS; do
		for pair in read:op_r write:op_w rw:op_rw subop:subop_w; do
			d=$(( $(perf_counter "$id" osd "${pair#*:}") - $(jq ".osd.${pair#*:}" <<<"${before[$id]}") ))
			check_eq "$rel: osd.$id ${pair%%:*} = ${pair#*:} delta" "$(q "$out" "$id" "${pair%%:*}")" "$d"
		done
		sw=$((sw + $(q "$out" "$id" subop)))
		check_eq "$rel: osd.$id every write has a commit phase (--phases)" \
			"$(q "$out" "$id" write commit)" "$(q "$out" "$id" write)"
	done
	check "$rel: replica sub-ops were seen ($sw)" [ "$sw" -gt 0 ]
	check_eq "$rel: nothing lost" "$(jq -s '[.[] | select(.type=="health")] | last | .losses' "$out")" 0
	check_eq "$rel: size-2 pool" "$(ceph osd pool get "$POOL" size -f json | jq .size)" 2
	cluster_down
}

for rel in reef tentacle; do
	one_osd "$rel"
	replicas_and_ec "$rel"
done

# --- two releases at once, one osdhist, no -p: each OSD exact against its own
A=$(random_first_id)
cluster_up --osds 1 --first-id "$A" || { fail "host cluster start"; finish; }
HOST_DIR=$CLUSTER_DIR HOST_POOL=$POOL
B=$(random_first_id)
[ "$B" != "$A" ] || B=$((A + 1))
cluster_up --root "$(chroot_dir reef)" --osds 1 --first-id "$B" || { fail "reef cluster start"; finish; }
REEF_DIR=$CLUSTER_DIR
declare -A pre
cluster_use "$HOST_DIR"; pre[$A]=$(perf_dump "$A")
cluster_use "$REEF_DIR"; pre[$B]=$(perf_dump "$B")
lib_mktemp BOTH
"$OSDHIST" --json 3600 >"$BOTH" 2>"$BOTH.err" &
TPID=$!
for _ in $(seq 600); do [ "$(grep -c "attached to ceph-osd" "$BOTH.err")" -ge 2 ] && break; sleep 0.1; done
check "one osdhist attached to both binaries" [ "$(grep -c "attached to ceph-osd" "$BOTH.err")" -ge 2 ]
cluster_use "$HOST_DIR"; workload "$HOST_POOL"; e_host=$ERRORS
cluster_use "$REEF_DIR"; workload "$POOL"; e_reef=$ERRORS
kill -INT $TPID; wait $TPID
for pair in "$A:$HOST_DIR:$e_host:16.2" "$B:$REEF_DIR:$e_reef:18.2"; do
	IFS=: read -r id dir errs ver <<<"$pair"
	cluster_use "$dir"
	for c in r w rw; do
		case $c in r) cls=read ;; w) cls=write ;; rw) cls=rw ;; esac
		check_eq "two at once: osd.$id ($ver) $cls = op_$c delta" "$(q "$BOTH" "$id" $cls)" \
			$(( $(perf_counter "$id" osd "op_$c") - $(jq ".osd.op_$c" <<<"${pre[$id]}") ))
	done
	check_eq "two at once: osd.$id ($ver) errors" "$(q "$BOTH" "$id" error)" "$errs"
done
check "two at once: two build-ids attached" [ "$(grep -o 'build-id [0-9a-f]*' "$BOTH.err" | sort -u | wc -l)" -ge 2 ]

# --- --list names every release running
C=$(random_first_id)
cluster_up --root "$(chroot_dir tentacle)" --osds 1 --first-id "$C" || { fail "tentacle cluster start"; finish; }
lib_mktemp LIST
"$OSDHIST" --list >"$LIST" 2>&1
check_eq "--list exits 0" $? 0
for pair in "$A:16.2.15" "$B:18.2.7" "$C:20.2.4"; do
	check "--list: osd.${pair%%:*} is Ceph ${pair#*:}, traceable, with its admin socket" \
		grep -Eq "osd\\.${pair%%:*}\\b.*${pair#*:}.*traceable.*admin socket /.*ceph-osd\\.${pair%%:*}\\.asok" "$LIST"
done
finish
