#!/bin/bash
# The per-op-code oracle (optypes_load.py) against Ceph's own view: on one
# OSD, the op codes of every message its workload sends, per op code and per
# message op type, equal what the OSD's dump_historic_ops records for that
# client; the failed ones equal the replies the OSD logged with a result < 0
# (debug_ms 1); its op_r / op_w / op_rw equal the perf counter deltas, and
# its errors are exactly the messages those counters leave out.
#
#   test_optypes_oracle.sh [RELEASE ...]   host (16.2.x, default), reef, tentacle
. "$(dirname "$0")/../lib.sh"

HERE=$(cd "$(dirname "$0")" && pwd)
LOAD="/usr/bin/python3 $HERE/optypes_load.py"
CHECK="/usr/bin/python3 $HERE/historic_ops.py"

asok() { ceph --admin-daemon "$(osd_asok "$OSD_IDS")" "$@"; }
# COUNTER BEFORE AFTER: how much osd.COUNTER grew between two perf dumps
delta() { echo $(($(jq ".osd.$1" <<<"$3") - $(jq ".osd.$1" <<<"$2"))); }

# One run of the load with ARGS (STEP=N ...), checked against Ceph.
run_load() { # LABEL ARGS...
	local label=$1 before after out hist chk c; shift
	lib_mktemp out; lib_mktemp hist; lib_mktemp chk
	before=$(perf_dump "$OSD_IDS")
	check "$label: every message ended as planned" bash -c "$LOAD $* >$out"
	after=$(perf_dump "$OSD_IDS")
	asok dump_historic_ops >"$hist"
	if ! $CHECK --client "$(jq -r .client "$out")" --pool-id "$(jq .pool_id "$out")" \
		--log "$CLUSTER_DIR/log/osd.$OSD_IDS.log" "$hist" >"$chk"; then
		fail "$label: historic_ops.py read Ceph's view"
		return
	fi
	check_eq "$label: messages = historic ops of this client" \
		"$(jq .msgs "$chk")" "$(jq .msgs "$out")"
	check_eq "$label: ops per op code = historic ops'" \
		"$(jq -cS '.ops | map_values(.ops)' "$chk")" "$(jq -cS '.ops | map_values(.ops)' "$out")"
	check_eq "$label: messages per op type = historic ops'" \
		"$(jq -cS '.op_type | map_values(.msgs)' "$chk")" "$(jq -cS '.op_type | map_values(.msgs)' "$out")"
	# Ceph logs message results only: a FAILOK op's own failure (rval_only)
	# is in none of its outputs
	check_eq "$label: failed ops per op code = ops of failed replies (+ FAILOK ones)" \
		"$(jq -cS '.ops | map_values(.failed)' "$chk")" \
		"$(jq -cS '.rval_only as $r | .ops | with_entries(.value = .value.failed - ($r[.key] // 0))' "$out")"
	check_eq "$label: failed messages per op type = failed replies'" \
		"$(jq -cS '.op_type | map_values(.failed_msgs)' "$chk")" \
		"$(jq -cS '.op_type | map_values(.failed_msgs)' "$out")"
	for c in op_r op_w op_rw; do
		check_eq "$label: $c = perf dump delta" "$(jq .$c "$out")" "$(delta $c "$before" "$after")"
	done
	check_eq "$label: errors = messages in no perf counter" "$(jq .errors "$out")" \
		$(($(jq .msgs "$chk") - $(delta op "$before" "$after")))
	check_eq "$label: errors = failed replies" "$(jq .errors "$out")" \
		"$(jq '[.op_type[].failed_msgs] | add' "$chk")"
	LAST=$out
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
	run_load "$rel default load"
	check "$rel: the default load sends 18 op codes, 15 op types, every class, failures" \
		jq -e '(.ops | length) == 18 and (.op_type | length) == 15 and .op_r > 0 and .op_w > 0
			and .op_rw > 0 and .errors > 0 and .rval_only.cmpext > 0' "$LAST"
	# other counts, from the arguments: a second client, counted apart
	run_load "$rel small load" stat=7 stat-missing=1 lock=1 omap-get=0 multi-write=1 failok-read=0
	# 7 + 1 missing + one before each of the 3 + 2 guarded writes
	check_eq "$rel: small load: its stats" "$(jq -c '.ops.stat' "$LAST")" '{"failed":1,"ops":13}'
	cluster_down
}

[ $# -gt 0 ] || set -- host
for rel in "$@"; do
	case $rel in host | reef | tentacle) one_release "$rel" ;;
	*) fail "unknown release '$rel' (host, reef, tentacle)" ;; esac
done
finish
