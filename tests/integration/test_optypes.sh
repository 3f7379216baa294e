#!/bin/bash
# osdhist's per-op-code counts and op types, exact, on every Ceph release.
#
# The oracle first: a workload (optypes_load.py) that knows what it sends,
# checked against Ceph's own view on one OSD: the op codes of every message,
# per op code and per message op type, equal what the OSD's
# dump_historic_ops records for that client; the failed ones equal the
# replies the OSD logged with a result < 0 (debug_ms 1); its op_r / op_w /
# op_rw equal the perf counter deltas, and its errors are exactly the
# messages those counters leave out.  Then osdhist, tracing that OSD during
# the same load, against the oracle: ops and failed ops per op code, messages
# and failed messages per op type, read / write / rw / error per class.
#
#   test_optypes.sh [RELEASE ...]   host (16.2.x, default), reef, tentacle
. "$(dirname "$0")/../lib.sh"

HERE=$(cd "$(dirname "$0")" && pwd)
LOAD="/usr/bin/python3 $HERE/optypes_load.py"
CHECK="/usr/bin/python3 $HERE/historic_ops.py"

asok() { ceph --admin-daemon "$(osd_asok "$OSD_IDS")" "$@"; }
# COUNTER BEFORE AFTER: how much osd.COUNTER grew between two perf dumps
delta() { echo $(($(jq ".osd.$1" <<<"$3") - $(jq ".osd.$1" <<<"$2"))); }


# The load's figures against osdhist's over the same interval.
check_osdhist() { # LABEL ORACLE_JSON FROM TO
	local label=$1 out=$2 view
	view=$(oh_optypes_view "$3" "$4")
	check_eq "$label: osdhist ops and failed ops per op code = the oracle's" \
		"$(jq -cS .ops <<<"$view")" "$(jq -cS .ops "$out")"
	check_eq "$label: osdhist messages and failed messages per op type = the oracle's" \
		"$(jq -cS .op_type <<<"$view")" "$(jq -cS .op_type "$out")"
	check_eq "$label: osdhist classes = the oracle's op_r/op_w/op_rw/errors" \
		"$(jq -cS '.classes | {read: (.read // 0), write: (.write // 0), rw: (.rw // 0), error: (.error // 0)}' <<<"$view")" \
		"$(jq -cS '{read: .op_r, write: .op_w, rw: .op_rw, error: .errors}' "$out")"
	check "$label: osdhist lost nothing, cut and missed no op vector" \
		bash -c "sed -n '$4p' '$TOUT' | jq -e '.losses == 0 and .ops_cut == 0 and .ops_unseen == 0' >/dev/null"
}

# One run of the load with ARGS (STEP=N ...), checked against Ceph and
# against osdhist.
run_load() { # LABEL ARGS...
	local label=$1 before after out hist chk c from to; shift
	lib_mktemp out; lib_mktemp hist; lib_mktemp chk
	from=$(oh_snap) || { fail "$label: osdhist snapshot before the load"; return; }
	before=$(perf_dump "$OSD_IDS")
	check "$label: every message ended as planned" bash -c "$LOAD $* >$out"
	after=$(perf_dump "$OSD_IDS")
	to=$(oh_snap) || { fail "$label: osdhist snapshot after the load"; return; }
	check_osdhist "$label" "$out" "$from" "$to"
	[ -z "${OPTYPES_KEEP:-}" ] || cp "$TOUT" "$OPTYPES_KEEP.$label.json"
	# the ceph CLI takes tens of seconds for a large reply; asok_cmd.py
	# one, and it waits for the history to hold every message of the load
	/usr/bin/python3 "$(dirname "$0")/asok_cmd.py" --until-ops "osd_op($(jq -r .client "$out")." \
		"$(jq .msgs "$out")" "$(osd_asok "$OSD_IDS")" dump_historic_ops >"$hist"
	# the reply log is written by a thread of its own: flush it after the
	# dump, so the reply of every op in the history is in it
	asok log flush >/dev/null
	if ! $CHECK --client "$(jq -r .client "$out")" --pool-id "$(jq .pool_id "$out")" \
		--log "$CLUSTER_DIR/log/osd.$OSD_IDS.log" "$hist" >"$chk"; then
		fail "$label: historic_ops.py read Ceph's view"
		return
	fi
	check_eq "$label: messages = historic ops of this client" \
		"$(jq .msgs "$chk")" "$(jq .msgs "$out")"
	# (ceph_ops: the load's calls as Ceph describes them, by class.method
	# for write ops only; see optypes_load.py)
	check_eq "$label: ops per op code = historic ops'" \
		"$(jq -cS '.ops | map_values(.ops)' "$chk")" "$(jq -cS '.ceph_ops | map_values(.ops)' "$out")"
	check_eq "$label: messages per op type = historic ops'" \
		"$(jq -cS '.op_type | map_values(.msgs)' "$chk")" "$(jq -cS '.ceph_op_type | map_values(.msgs)' "$out")"
	# Ceph logs message results only: a FAILOK op's own failure (rval_only)
	# is in none of its outputs
	check_eq "$label: failed ops per op code = ops of failed replies (+ FAILOK ones)" \
		"$(jq -cS '.ops | map_values(.failed)' "$chk")" \
		"$(jq -cS '.rval_only as $r | .ceph_ops | with_entries(.value = .value.failed - ($r[.key] // 0))' "$out")"
	check_eq "$label: failed messages per op type = failed replies'" \
		"$(jq -cS '.op_type | map_values(.failed_msgs)' "$chk")" \
		"$(jq -cS '.ceph_op_type | map_values(.failed_msgs)' "$out")"
	for c in op_r op_w op_rw; do
		check_eq "$label: $c = perf dump delta" "$(jq .$c "$out")" "$(delta $c "$before" "$after")"
	done
	check_eq "$label: errors = messages in no perf counter" "$(jq .errors "$out")" \
		$(($(jq .msgs "$chk") - $(delta op "$before" "$after")))
	check_eq "$label: errors = failed replies" "$(jq .errors "$out")" \
		"$(jq '[.op_type[].failed_msgs] | add' "$chk")"
	LAST=$out
}

# rados bench writes are [set-alloc-hint, write] (python-rados cannot send
# the hint): the guard rule makes them op type write, and both op codes are
# counted once per message.
bench_writes() { # RELEASE
	local from to before after view w
	from=$(oh_snap) || { fail "$1 bench: osdhist snapshot"; return; }
	before=$(perf_dump "$OSD_IDS")
	check "$1 bench: rados bench writes" \
		bash -c "rados -p '$POOL' bench 2 write -t 4 -b 4096 --no-cleanup >/dev/null"
	after=$(perf_dump "$OSD_IDS")
	to=$(oh_snap) || { fail "$1 bench: osdhist snapshot"; return; }
	view=$(oh_optypes_view "$from" "$to")
	w=$(delta op_w "$before" "$after")
	check "$1 bench: some writes" test "$w" -gt 0
	# and one writefull: rados bench's benchmark_last_metadata object
	check_eq "$1 bench: op types write + the metadata writefull = op_w" \
		"$(jq -cS '.op_type' <<<"$view")" \
		"$(jq -ncS --argjson w "$w" '{write: {msgs: ($w - 1), failed_msgs: 0},
			writefull: {msgs: 1, failed_msgs: 0}}')"
	check_eq "$1 bench: op codes set-alloc-hint and write once per write message" \
		"$(jq -cS '.ops' <<<"$view")" \
		"$(jq -ncS --argjson w "$w" '{"set-alloc-hint": {ops: ($w - 1), failed: 0},
			write: {ops: ($w - 1), failed: 0}, writefull: {ops: 1, failed: 0}}')"
}

# A process numbers at most CALLS_MAX (64) call names (maps/osdhist.h), the
# rest are "call other": NEW calls of methods cls_lock lacks, each failing
# with EOPNOTSUPP and each a name of its own.  The names the process met
# before are the ones osdhist has printed for it.
call_names_bound() { # RELEASE
	local from to view seen named new=70 zero
	from=$(oh_snap) || { fail "$1 bound: osdhist snapshot"; return; }
	seen=$(sed -n "1,${from}p" "$TOUT" | jq -s --argjson id "$OSD_IDS" '[.[] | select(.type == "opcode"
		and .osd == $id and (.op | startswith("call "))) | .op] | unique | length')
	zero=$($LOAD --list | sed 's/=.*/=0/' | tr '\n' ' ')
	# shellcheck disable=SC2086 # one word per step
	check "$1 bound: $new calls of unknown methods, each failed" \
		bash -c "$LOAD $zero call-unknown=$new >/dev/null"
	to=$(oh_snap) || { fail "$1 bound: osdhist snapshot"; return; }
	view=$(oh_optypes_view "$from" "$to")
	named=$((64 - seen))
	echo "# $1: $seen call names before, $named more named, $((new - named)) in call other"
	check_eq "$1 bound: the first $named new names counted apart, the other $((new - named)) as call other" \
		"$(jq -cS '.ops | with_entries(select(.key | startswith("call")))' <<<"$view")" \
		"$(jq -ncS --argjson named "$named" --argjson new "$new" '[range($named) |
			{key: "call lock.bound_\(.)", value: {ops: 1, failed: 1}}] | from_entries
			+ {"call other": {ops: ($new - $named), failed: ($new - $named)}}')"
}

one_release() { # RELEASE
	local rel=$1 root=() r ver
	if [ "$rel" != host ]; then
		r=$(chroot_dir "$rel") || { fail "$rel: no chroot"; return; }
		root=(--root "$r")
	fi
	cluster_up "${root[@]}" --osds 1 --first-id "$(random_first_id)" ||
		{ fail "$rel: cluster start"; return; }
	ver=$(asok version | jq -r .version)
	echo "# $rel: ceph-osd $ver"
	# keep every op (default: the last 20, for 600 s); log every reply
	check "$rel: op history raised, replies logged" bash -c \
		"ceph --admin-daemon '$(osd_asok "$OSD_IDS")' config set osd_op_history_size 100000 >/dev/null &&
		 ceph --admin-daemon '$(osd_asok "$OSD_IDS")' config set osd_op_history_duration 86400 >/dev/null &&
		 ceph --admin-daemon '$(osd_asok "$OSD_IDS")' config set debug_ms 1 >/dev/null"
	oh_start -p "$(osd_pid "$OSD_IDS")" 3600
	check "$rel: osdhist attached" oh_wait_attached
	# a second osdhist with every option on, for the Prometheus series count
	"$OSDHIST" -p "$(osd_pid "$OSD_IDS")" -P --phases -q \
		--textfile "$CLUSTER_DIR/all.prom" 1 2>"$CLUSTER_DIR/all.err" &
	ALLPID=$!
	check "$rel: osdhist counts op types on this release" \
		bash -c "! grep -q 'op types are not counted' '$TERR'"
	run_load "$rel default load"
	check "$rel: the default load sends 22 op codes, 19 op types, every class, failures" \
		jq -e '(.ops | length) == 22 and (.op_type | length) == 19 and .op_r > 0 and .op_w > 0
			and .op_rw > 0 and .errors > 0 and .rval_only.cmpext > 0' "$LAST"
	# issue 25: five class methods, of two classes, one failing
	check_eq "$rel: osdhist counts calls by class.method, none as plain call" \
		"$(jq -c '[.ops | keys[] | select(startswith("call"))]' "$LAST")" \
		'["call lock.get_info","call lock.list_locks","call lock.lock","call lock.unlock","call version.read"]'
	# other counts, from the arguments: a second client, counted apart
	run_load "$rel small load" stat=7 stat-missing=1 lock=1 omap-get=0 multi-write=1 failok-read=0
	# 7 + 1 missing + one before each of the 3 + 2 guarded writes
	check_eq "$rel: small load: its stats" "$(jq -c '.ops.stat' "$LAST")" '{"failed":1,"ops":13}'
	bench_writes "$rel"
	sleep 1.5	# the second osdhist's next textfile has all of it
	cp "$CLUSTER_DIR/all.prom" "$CLUSTER_DIR/default.prom"
	call_names_bound "$rel"
	wait_verified "$rel" "$OSD_IDS"
	kill -INT "$TPID" "$ALLPID"; wait "$TPID" "$ALLPID"
	# every option on: at most 1,000 series per OSD (issue 16), so a
	# 1,000-OSD cluster stays within what one Prometheus holds
	nser=$(grep -c "ceph_daemon=\"osd.$OSD_IDS\"" "$CLUSTER_DIR/default.prom")
	echo "# $rel: $nser Prometheus series for osd.$OSD_IDS with -P --phases"
	check "$rel: -P --phases: $nser series for the OSD, at most 1000" \
		test "$nser" -gt 100 -a "$nser" -le 1000
	# call names add two op-code counters each (ops, failed), the op-type
	# histogram has one op="call": 65 names (64 and call other) are 130
	ncall=$(grep "ceph_daemon=\"osd.$OSD_IDS\"" "$CLUSTER_DIR/all.prom" | grep -c 'op="call ')
	nrest=$(grep "ceph_daemon=\"osd.$OSD_IDS\"" "$CLUSTER_DIR/all.prom" | grep -vc 'op="call ')
	echo "# $rel: after $((64 + 1)) call names: $ncall series of call names, $nrest others"
	check_eq "$rel: 65 call names: 130 series (2 op-code counters each)" "$ncall" 130
	check "$rel: the other series: $nrest, at most 1000" test "$nrest" -le 1000
	no_bad_verify "$rel" "$OSD_IDS"
	cluster_down
}

[ $# -gt 0 ] || set -- host reef tentacle
for rel in "$@"; do
	case $rel in host | reef | tentacle) one_release "$rel" ;;
	*) fail "unknown release '$rel' (host, reef, tentacle)" ;; esac
done
finish
