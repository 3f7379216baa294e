#!/bin/bash
# osdhist's slowest ops (--slowest, issue 25) on every Ceph release.
#
# Each check is on one interval that holds exactly one load: a snapshot
# before it, one after (oh_snap), so the slots and the histograms of that
# interval hold the same ops.
#   1. 4 KiB writes to many objects and, at the same time, 4 MiB writes of
#      a few big.* objects: min(K, ops) slots; no histogram bucket above
#      the K-th slot's holds an op that no slot holds (0 missing, or at
#      most the candidates the health line says were skipped); every slot
#      names an object the load wrote, its op, class, pool, PG (Ceph's
#      own `osd map`) and client (the load's, with the op's tid).
#   2. Ceph's op history (osd_op_history_size raised: every op kept)
#      holds each slot's reqid with the same object, as Ceph prints an
#      hobject_t (pool:hash:nspace:key:name:snap); how far Ceph's
#      ranking is from osdhist's is printed, by Ceph's latency at the
#      write's commit_sent (stamped next to log_op_stats, where osdhist's
#      ends): "gap_us" per slot, and the ops in one top K only, with how
#      far each is from the K-th.  Printed, not asserted: the two ends are
#      a few instructions apart but a thread preempted between them moves
#      one op's Ceph latency by up to 1.9 ms here, so an op 15 % slower by
#      Ceph's clock can sit below osdhist's K-th (seen once in 11 runs).
#   4. fewer ops than K, so all are slots: a 70-byte name is cut at 64
#      bytes and says by how much; a name with control bytes, quote,
#      backslash, %, :, / and UTF-8 is printed as Ceph escapes objects, in
#      JSON and in text; a failed stat is a slot of class error; an object
#      in a namespace with a 40-byte locator key (cut at 32).  Each
#      slot's object, pool:hash:nspace:key:name:snap, is the one Ceph's
#      op history prints for its reqid; so is a read's at a pool
#      snapshot (the snap id in hex where a head is "head").
# And --slowest 0 keeps none.
#
#   test_slowops.sh [RELEASE ...]   host (16.2.x, default), reef, tentacle
. "$(dirname "$0")/../lib.sh"

HERE=$(cd "$(dirname "$0")" && pwd)
LOAD="/usr/bin/python3 $HERE/slowops_load.py"
K=10

asok() { ceph --admin-daemon "$(osd_asok "$OSD_IDS")" "$@"; }

# JSON lines FROM+1 .. TO of osdhist's output
lines() { sed -n "$(($1 + 1)),$2p" "$TOUT"; }
# Ceph's op history, once it holds the N ops of the load that wrote OUT
# (asok_cmd.py: it is filled a few hundred ms after the replies)
history() { # OUT N
	/usr/bin/python3 "$HERE/asok_cmd.py" --until-ops "osd_op($(jq -r .client "$1")." "$2" \
		"$(osd_asok "$OSD_IDS")" dump_historic_ops_by_duration
}
last_health() { jq -sc '[.[] | select(.type == "health")] | last' "$1"; }

mixed() { # RELEASE
	local rel=$1 out chk ceph hist from to o pg want
	lib_mktemp out; lib_mktemp chk; lib_mktemp ceph; lib_mktemp hist
	from=$(oh_snap) || { fail "$rel mixed: osdhist snapshot"; return; }
	check "$rel mixed: 300 small writes beside 12 big ones" bash -c "$LOAD mixed 300 12 >$out"
	to=$(oh_snap) || { fail "$rel mixed: osdhist snapshot"; return; }
	lines "$from" "$to" | /usr/bin/python3 "$HERE/slowops_check.py" "$OSD_IDS" $K "$out" >"$chk"
	echo "# $rel mixed: $(jq -c '{slots, ops, above, missing, skipped, big, small_slots, small_near}' "$chk")"
	check_eq "$rel mixed: the histograms hold the load's 312 ops" "$(jq .ops "$chk")" 312
	check_eq "$rel mixed: $K slots" "$(jq .slots "$chk")" $K
	check "$rel mixed: no op above the K-th slot's bucket is missing from the slots" \
		jq -e '.missing <= .skipped' "$chk"
	check_eq "$rel mixed: every slot names what the load sent" "$(jq -c .bad "$chk")" '[]'
	# the big writes are the slowest, unless a small one was as slow: then
	# the write op type's histogram holds it in the K-th slot's bucket or
	# above (12 big writes: enough for the K slots)
	check "$rel mixed: every slot is a big write, but for small ones as slow as the K-th slot" \
		jq -e '.big + .small_slots == .slots and .small_slots <= .small_near' "$chk"
	# Ceph's PG of each object
	want=0
	for o in $(jq -r '.names[]' "$chk"); do
		pg=$(ceph osd map "$POOL" "$o" -f json | jq -r .pgid)
		[ "$(lines "$from" "$to" | jq -r --arg o "$o" 'select(.type == "slowop" and .name == $o) | .pg')" = "$pg" ] ||
			{ echo "# $o: osdhist's pg is not Ceph's $pg"; want=1; }
	done
	check_eq "$rel mixed: each slot's PG is Ceph's osd map of its object" $want 0
	# test 2: Ceph's history
	history "$out" 312 >"$hist"
	/usr/bin/python3 "$HERE/slowops_ceph.py" "$(jq -r .client "$out")" $K "$chk" <"$hist" >"$ceph"
	echo "# $rel Ceph's view: $(jq -c . "$ceph")"
	check_eq "$rel mixed: Ceph's history has every op of the load" "$(jq .history "$ceph")" 312
	check_eq "$rel mixed: Ceph's history has each slot's reqid, with its object" \
		"$(jq .found "$ceph")" $K
}

names() { # RELEASE
	local rel=$1 out chk from to o hist ceph
	lib_mktemp out; lib_mktemp chk; lib_mktemp hist; lib_mktemp ceph
	from=$(oh_snap) || { fail "$rel names: osdhist snapshot"; return; }
	check "$rel names: a long name, control bytes, a failed stat, a namespace and key" \
		bash -c "$LOAD names >$out"
	to=$(oh_snap) || { fail "$rel names: osdhist snapshot"; return; }
	check "$rel names: every JSON line parses" bash -c "lines() { sed -n \"\$(($from + 1)),${to}p\" '$TOUT'; }; lines | jq -e . >/dev/null"
	lines "$from" "$to" | /usr/bin/python3 "$HERE/slowops_check.py" "$OSD_IDS" $K "$out" >"$chk"
	check_eq "$rel names: 4 ops, 4 slots" "$(jq -c '[.ops, .slots]' "$chk")" '[4,4]'
	check_eq "$rel names: the names as Ceph prints them, the long one cut" \
		"$(jq -cS '.names | sort' "$chk")" "$(jq -cS '.objects | keys | sort' "$out")"
	check_eq "$rel names: every slot names what the load sent (class error for the stat)" \
		"$(jq -c .bad "$chk")" '[]'
	check "$rel names: the 70-byte name says it was cut by 6 bytes" \
		bash -c "jq -e '.names | map(select(endswith(\" (+6 bytes)\"))) | length == 1' '$chk' >/dev/null"
	check "$rel names: the 40-byte key says it was cut by 8 bytes" \
		bash -c "jq -e '.objects | map(select(endswith(\" (+8 bytes)\"))) | length == 1' '$chk' >/dev/null"
	# the whole object, hash and namespace and key included, as Ceph's own
	# op history prints it (cut where osdhist cuts)
	history "$out" 4 >"$hist"
	/usr/bin/python3 "$HERE/slowops_ceph.py" "$(jq -r .client "$out")" $K "$chk" <"$hist" >"$ceph"
	echo "# $rel names, Ceph's view: $(jq -c '{found, notfound}' "$ceph")"
	check_eq "$rel names: each slot's object is the one Ceph's history prints for its reqid" \
		"$(jq .found "$ceph")" 4
	# the text output, a second osdhist printing every second
	for _ in $(seq 600); do	# 60 s at most
		grep -qF -- "$(jq -r '.objects[] | select(contains(":loc."))' "$chk")" \
			"$CLUSTER_DIR/text.out" && break
		sleep 0.1
	done
	for o in $(jq -r '.objects[] | @base64' "$chk"); do
		o=$(base64 -d <<<"$o")
		check "$rel names: text shows ${o:0:40}... escaped, on one line" grep -qF -- "$o" "$CLUSTER_DIR/text.out"
	done
	check "$rel names: no control byte in the text output" \
		bash -c "! LC_ALL=C grep -q \$'[\\x01-\\x08\\x0b-\\x1f\\x7f-\\xff]' '$CLUSTER_DIR/text.out'"
}

# a read at a pool snapshot: Ceph prints the snap id (hex) where a head is
# "head"
snapshot() { # RELEASE
	local rel=$1 prep out chk hist ceph from to
	lib_mktemp prep; lib_mktemp out; lib_mktemp chk; lib_mktemp hist; lib_mktemp ceph
	check "$rel snap: an object and a pool snapshot of it" bash -c "$LOAD snapprep >$prep"
	from=$(oh_snap) || { fail "$rel snap: osdhist snapshot"; return; }
	check "$rel snap: a stat as of the snapshot" bash -c \
		"$LOAD snapread $(jq -r .objects.prep.name "$prep") $(jq -r .objects.prep.snap_id "$prep") >$out"
	to=$(oh_snap) || { fail "$rel snap: osdhist snapshot"; return; }
	lines "$from" "$to" | /usr/bin/python3 "$HERE/slowops_check.py" "$OSD_IDS" $K "$out" >"$chk"
	check_eq "$rel snap: 1 op, 1 slot" "$(jq -c '[.ops, .slots]' "$chk")" '[1,1]'
	check_eq "$rel snap: the slot names the object at its snap id (class read)" \
		"$(jq -c .bad "$chk")" '[]'
	history "$out" 1 >"$hist"
	/usr/bin/python3 "$HERE/slowops_ceph.py" "$(jq -r .client "$out")" $K "$chk" <"$hist" >"$ceph"
	echo "# $rel snap: $(jq -r '.objects[0]' "$chk"), Ceph's view: $(jq -c '{found, notfound}' "$ceph")"
	check_eq "$rel snap: the object is the one Ceph's history prints for its reqid" \
		"$(jq .found "$ceph")" 1
}

one_release() { # RELEASE
	local rel=$1 root=() r
	if [ "$rel" != host ]; then
		r=$(chroot_dir "$rel") || { fail "$rel: no chroot"; return; }
		root=(--root "$r")
	fi
	cluster_up "${root[@]}" --osds 1 --first-id "$(random_first_id)" ||
		{ fail "$rel: cluster start"; return; }
	echo "# $rel: ceph-osd $(asok version | jq -r .version)"
	check "$rel: op history keeps every op" bash -c \
		"ceph --admin-daemon '$(osd_asok "$OSD_IDS")' config set osd_op_history_size 100000 >/dev/null &&
		 ceph --admin-daemon '$(osd_asok "$OSD_IDS")' config set osd_op_history_duration 86400 >/dev/null"
	oh_start -p "$(osd_pid "$OSD_IDS")" 3600
	check "$rel: osdhist attached" oh_wait_attached
	check "$rel: osdhist names the slowest ops on this release" \
		bash -c "! grep -q 'slowest ops of pid' '$TERR'"
	"$OSDHIST" -p "$(osd_pid "$OSD_IDS")" 1 >"$CLUSTER_DIR/text.out" 2>"$CLUSTER_DIR/text.err" &
	TEXTPID=$!
	"$OSDHIST" -p "$(osd_pid "$OSD_IDS")" --slowest 0 --json 1 >"$CLUSTER_DIR/off.out" 2>"$CLUSTER_DIR/off.err" &
	OFFPID=$!
	# both before the first op: --slowest 0 must count every op of the loads
	check "$rel: the text run attached" wait_line "$CLUSTER_DIR/text.err" "attached to ceph-osd" $TEXTPID
	check "$rel: the --slowest 0 run attached" wait_line "$CLUSTER_DIR/off.err" "attached to ceph-osd" $OFFPID
	mixed "$rel"
	names "$rel"
	snapshot "$rel"
	sleep 1.5	# one more snapshot of the other two
	kill -INT "$TPID" "$TEXTPID" "$OFFPID"; wait "$TPID" "$TEXTPID" "$OFFPID"
	check "$rel: osdhist lost nothing" bash -c \
		"jq -se '[.[] | select(.type == \"health\")] | last | .losses == 0 and .keys_slowops >= 1' '$TOUT' >/dev/null"
	echo "# $rel --slowest 0: $(grep -c '"slowop"' "$CLUSTER_DIR/off.out") slowop lines, last health" \
		"$(last_health "$CLUSTER_DIR/off.out" | jq -c '{keys_slowops, done, error_ends}')"
	check "$rel: --slowest 0: no slowop line, no slowops key, the ops counted" bash -c \
		"! grep -q '\"slowop\"' '$CLUSTER_DIR/off.out' &&
		 jq -se '[.[] | select(.type == \"health\")] | last | .keys_slowops == 0 and .done + .error_ends >= 315' '$CLUSTER_DIR/off.out' >/dev/null"
	cluster_down
}

[ $# -gt 0 ] || set -- host reef tentacle
for rel in "$@"; do
	case $rel in host | reef | tentacle) one_release "$rel" ;;
	*) fail "unknown release '$rel' (host, reef, tentacle)" ;; esac
done
finish
