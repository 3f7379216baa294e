# shellcheck shell=bash
# tests/lib.sh - small bash library for osdhist integration tests.
#
# packages: ceph-mon ceph-osd ceph-mgr ceph-common jq iproute2 util-linux procps coreutils
#           debootstrap (chroot_dir)
#
# Usage (from tests/integration/test_foo.sh):
#   source "$(dirname "$0")/../lib.sh"
#   cluster_up --osds 1            # args go to scripts/cluster.sh start
#   check "pool is there" rados -p "$POOL" ls
#   finish                         # last line: "N passed, N failed"
#
# cluster_up ARGS...   mktemp -d, scripts/cluster.sh start DIR ARGS, source
#                      DIR/env (CEPH_CONF, POOL, CEPH_MON_HOST, ...), set
#                      CLUSTER_DIR=DIR. May be called several times (several
#                      clusters at once); env/CLUSTER_DIR are those of the
#                      last one. Every cluster is stopped (by pid) and its dir
#                      removed on any exit: normal, failure, Ctrl-C, TERM.
# cluster_down [DIR]   stop one cluster now (default $CLUSTER_DIR).
# cluster_use DIR      make DIR the current cluster (re-source its env).
# pass MSG / fail MSG  count and print a result.
# check MSG CMD...     pass if CMD succeeds (its output shown only on failure).
# check_eq MSG A B     pass if A == B (strings).
# finish               stop clusters, print "N passed, N failed", exit 1 if any failed.
# perf_dump ID         "perf dump" JSON of osd.ID via its admin socket.
# perf_counter ID SECTION COUNTER   one counter, e.g. perf_counter 0 osd op_w
#                      (latency counters print as compact JSON objects).
# sched_wait PID       ns PID's threads were runnable and not running (and
#                      the host's steal), for check_latency_sum.
# check_latency_sum LABEL CLASS CEPH_NS OSDHIST_NS OPS WAIT_NS
#                      osdhist's latency sum against Ceph's, exact bounds.
# osd_pid ID           pid of osd.ID of the current cluster.
# cluster_fsid         the fsid of the current cluster (its ceph.conf).
# osd_labels ID        osdhist's Prometheus labels of osd.ID of the current
#                      cluster: ceph_daemon="osd.ID",cluster="FSID".
# random_first_id [N]  a random OSD id ID in 100..899 such that ID .. ID+N-1
#                      (N default 1) are used by no ceph-osd running on the
#                      host: `cluster_up --first-id $(random_first_id)`
#                      lets a test that cannot use osdhist -p tell its OSD
#                      from other clusters' (filter with --osd ID).
# wait_line FILE PATTERN [PID]  until grep -q PATTERN FILE: 0 once it is
#                      there, 1 after 60 s (deriving and attaching on a
#                      loaded CI host has taken more than 10 s) or once PID
#                      has exited without it; WAITED is the seconds it took.
# fake_claimant DIR ARG...  a process named ceph-osd (DIR/ceph-osd, a copy
#                      of bash: a binary osdhist refuses) whose command line
#                      ends in ARG... (--id N claims osd.N), blocked in a
#                      read on DIR/fifo: no child to outlive the test.  In
#                      the background; FAKE_PID is its pid.
# osd_stand_in DIR [ROOT]  DIR/ceph-hold, an --osd-wrap that never starts
#                      the OSD: named ceph-* (as cluster.sh's launch wants),
#                      blocked in a builtin read on DIR/fifo, no child to
#                      outlive its TERM.  A start then waits for its OSD, so
#                      a signal sent meanwhile lands mid-way however slow
#                      the host.  With ROOT (DIR inside it), paths as seen
#                      in the chroot.  Prints the --osd-wrap argument.
# lib_mktemp VAR [-d]  VAR=$(mktemp [-d]), removed again on exit.
# lib_on_exit CMD...   CMD run on every exit path, before the clusters stop.
# start_prometheus     Debian's prometheus with $W/prometheus.yml, data in
#                      $W/data, on a random free loopback port (tried 3
#                      times); sets PPORT and PROMPID; 1 if it never got ready.
# chroot_dir NAME      the root of the chroot holding Ceph release NAME
#                      (reef = 18.2.x, tentacle = 20.2.x), built first by
#                      scripts/chroots.sh if missing (minutes, once; cached
#                      in /var/cache/osdhist/chroots): a test then runs that
#                      release's daemons with
#                        cluster_up --root "$(chroot_dir reef)" --osds 1
#                      and osd_pid, perf_dump, perf_counter work as on the
#                      host (admin sockets and pids are in CLUSTER_DIR;
#                      clients run on the host).  $OSDHIST_ROOT (from the
#                      env file) is the chroot of the current cluster, ""
#                      for host clusters.
# chroot_version NAME  the "ceph version X.Y.Z (...)" line of NAME's ceph-osd.
# build_id FILE        the ELF build-id of FILE (readelf -n), "" if none.
# MHD_CACHE            where `make static` keeps libmicrohttpd's build for
#                      the tests ($OSDHIST_MHD_CACHE, default
#                      /var/cache/osdhist/mhd; the Makefile's MHD_CACHE).

LIB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLUSTER_SH=$LIB_ROOT/scripts/cluster.sh
MHD_CACHE=${OSDHIST_MHD_CACHE:-/var/cache/osdhist/mhd}
TESTS_PASSED=0
TESTS_FAILED=0
_LIB_CLUSTERS=()
_LIB_TRAPPED=0
_LIB_TMPS=()
_LIB_EXITS=()

# lib_on_exit CMD...   runs CMD on every exit path, before the clusters stop
# (a tmux server of the test, say: not a job of it, so not killed below)
lib_on_exit() { _lib_install_trap; _LIB_EXITS+=("$*"); }

_lib_cleanup() {
    local d
    for d in "${_LIB_EXITS[@]}"; do eval "$d" >/dev/null 2>&1 || true; done
    _LIB_EXITS=()
    for d in "${_LIB_CLUSTERS[@]}"; do
        [ -n "$d" ] || continue
        "$CLUSTER_SH" stop "$d" >/dev/null 2>&1 || echo "lib.sh: stopping cluster $d failed" >&2
        rm -rf -- "$d"
    done
    _LIB_CLUSTERS=()
    for d in "${_LIB_TMPS[@]}"; do rm -rf -- "$d"; done
    _LIB_TMPS=()
    # background jobs of the test itself: TERM, and KILL for any still
    # there after 5 s (an osdhist stuck in a read a process fed it ignored
    # TERM once and outlived its test by an hour: no leftover, ever)
    local kids k alive
    kids=$(jobs -p)
    [ -n "$kids" ] || return 0
    # shellcheck disable=SC2086
    kill $kids 2>/dev/null || true
    for _ in $(seq 50); do
        alive=""
        for k in $kids; do kill -0 "$k" 2>/dev/null && alive="$alive $k"; done
        [ -n "$alive" ] || return 0
        sleep 0.1
    done
    echo "lib.sh: killing what SIGTERM did not end:$alive" >&2
    # shellcheck disable=SC2086
    kill -KILL $alive 2>/dev/null || true
}

_lib_on_signal() { # SIG
    trap '' INT TERM
    echo "lib.sh: got SIG$1, cleaning up" >&2
    _lib_cleanup
    trap - EXIT "$1"
    kill "-$1" $$
    exit 128
}

_lib_install_trap() {
    [ "$_LIB_TRAPPED" = 1 ] && return 0
    _LIB_TRAPPED=1
    trap '_lib_cleanup' EXIT
    trap '_lib_on_signal INT' INT
    trap '_lib_on_signal TERM' TERM
}

cluster_up() {
    _lib_install_trap
    local dir
    dir=$(mktemp -d "${TMPDIR:-/tmp}/osdhist-cluster.XXXXXX") || return 1
    _LIB_CLUSTERS+=("$dir")
    if ! "$CLUSTER_SH" start "$dir" "$@"; then
        echo "lib.sh: cluster start failed; logs: $dir/log (removed on exit)" >&2
        tail -n 20 "$dir"/log/*.log >&2 2>/dev/null || true
        return 1
    fi
    cluster_use "$dir"
}

lib_mktemp() { # VAR [-d]
    _lib_install_trap
    local _t
    _t=$(mktemp ${2:+"$2"}) || return 1
    _LIB_TMPS+=("$_t")
    printf -v "$1" '%s' "$_t"
}

cluster_use() {
    CLUSTER_DIR=$1
    # shellcheck disable=SC1091
    source "$CLUSTER_DIR/env"
}

cluster_down() {
    local dir=${1:-$CLUSTER_DIR} i rc=0
    "$CLUSTER_SH" stop "$dir" || rc=$?
    rm -rf -- "$dir"
    for i in "${!_LIB_CLUSTERS[@]}"; do
        [ "${_LIB_CLUSTERS[$i]}" != "$dir" ] || unset "_LIB_CLUSTERS[$i]"
    done
    return $rc
}

pass() {
    TESTS_PASSED=$((TESTS_PASSED + 1))
    echo "ok - $*"
}

fail() {
    TESTS_FAILED=$((TESTS_FAILED + 1))
    echo "FAIL - $*"
}

check() {
    local msg=$1 out; shift
    if out=$("$@" 2>&1); then
        pass "$msg"
    else
        fail "$msg"
        [ -z "$out" ] || sed 's/^/    /' <<<"$out" | tail -n 20
    fi
}

check_eq() {
    if [ "$2" == "$3" ]; then
        pass "$1"
    else
        fail "$1 (got '$2', want '$3')"
    fi
}

finish() {
    _lib_cleanup
    trap - EXIT INT TERM
    echo "$TESTS_PASSED passed, $TESTS_FAILED failed"
    [ "$TESTS_FAILED" -eq 0 ] || exit 1
    exit 0
}

chroot_dir() { # NAME
    "$LIB_ROOT/scripts/chroots.sh" "$1" || {
        echo "lib.sh: no $1 chroot (scripts/chroots.sh $1 failed, see above)" >&2
        return 1
    }
}

build_id() { readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: //p'; }

chroot_version() { # NAME
    local root
    root=$(chroot_dir "$1") || return 1
    tail -n 1 "$(dirname "$root")/VERSION"
}

# The offsets of maps/osdhist.h's table (OSDHIST_OFFSETS) that NEED
# (FEAT_TRACE: the required ones; nothing: all), one field name per line:
# the table itself, through cpp, so a test lists none by hand.
offset_names() { # [NEED]
	printf '#include "osdhist.h"\n#define R(id, field, need) @@field:need@@\nOSDHIST_OFFSETS(R)\n' |
		cpp -P -I"$LIB_ROOT/maps" | grep -oE '@@[a-z_0-9]+:[A-Z_]+@@' | tr -d @ |
		awk -F: -v need="${1:-}" 'need == "" || $2 == need { print $1 }'
}

osd_asok() { echo "$CLUSTER_DIR/run/ceph-osd.$1.asok"; }

perf_dump() {
    ceph --admin-daemon "$(osd_asok "$1")" perf dump
}

perf_counter() { # ID SECTION COUNTER
    perf_dump "$1" | jq -ce --arg s "$2" --arg c "$3" '.[$s][$c]'
}

# sched_wait PID: ns the process's threads have waited on a run queue
# (schedstat's second field), plus the host's stolen time on all CPUs (a VM
# whose vCPU the hypervisor took away): together, every ns one of its
# threads was runnable and not running.
sched_wait() {
    local rd st
    rd=$(cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{s += $2} END {printf "%.0f", s}')
    st=$(awk -v hz="$(getconf CLK_TCK)" '/^cpu / {printf "%.0f", $9 * 1e9 / hz}' /proc/stat)
    echo $((rd + st))
}

# check_latency_sum LABEL CLASS CEPH_SUM_NS OSDHIST_SUM_NS OPS WAIT_NS
# osdhist's latency of an op against Ceph's, over the same OPS ops: both
# are now - recv_stamp at log_op_stats, on the same clock (osdhist's TAI
# minus the TAI offset, or its fallback, is CLOCK_REALTIME); osdhist reads
# it at the function's entry, Ceph a few instructions later.  So, exactly:
#   0 <= Ceph's sum - osdhist's <= OPS x 50 us + WAIT_NS + 2 ticks per CPU
# where 50 us is ten times a whole uprobe hit on this VM (the rest of the
# probe and its return run between the two reads), and WAIT_NS, the
# OSD's run-queue wait and the host's stolen time over the same stretch
# (sched_wait), covers any preemption between them, whatever the load.
# A wrong start stamp (dequeue time instead of recv_stamp) or a wrong clock
# offset moves every op, and fails it on a quiet host; a ratio within 1 %
# was the check before, and an overloaded host could miss it.
check_latency_sum() {
    local gap ticks
    gap=$(jq -n "$3 - $4")
    ticks=$((2 * $(nproc) * 1000000000 / $(getconf CLK_TCK)))
    echo "# $1: $2 latency over $5 ops: osdhist mean $(jq -n "$4 / $5" | xargs printf %.0f) ns," \
        "Ceph's $(jq -n "$3 / $5" | xargs printf %.0f) ns, gap $(jq -n "$gap / $5" | xargs printf %.0f) ns per op," \
        "ratio $(jq -n "$4 / $3"); run-queue wait + steal $(($6 / 1000)) us"
    # Ceph prints its sum in seconds with 9 decimals: 1 ns of slack
    check "$1: $2 latency sum not above Ceph's" jq -e -n "$gap >= -1"
    check "$1: $2 latency sum below Ceph's by at most $5 x 50 us + the OSD's run-queue wait and steal" \
        jq -e -n "$gap <= $5 * 50000 + $6 + $ticks"
}

osd_pid() {
    "$CLUSTER_SH" osd-pid "$CLUSTER_DIR" "$1"
}

cluster_fsid() { awk '$1 == "fsid" && $2 == "=" {print $3; exit}' "$CLUSTER_DIR/ceph.conf"; }
osd_labels() { printf 'ceph_daemon="osd.%s",cluster="%s"' "$1" "$(cluster_fsid)"; }

random_first_id() { # [N]
    local n=${1:-1} used id i ok _
    # ids of the ceph-osd processes running now (-i N, --id N, -n osd.N)
    used=" $(ps -C ceph-osd -o args= | awk '{
        for (i = 1; i < NF; i++)
            if ($i == "-i" || $i == "--id") print $(i + 1)
            else if ($i == "-n" || $i == "--name") { sub(/^osd\./, "", $(i + 1)); print $(i + 1) }
    }' | tr '\n' ' ') "
    for _ in $(seq 100); do
        id=$((100 + RANDOM % (800 - n + 1)))
        ok=1
        for ((i = id; i < id + n; i++)); do
            [[ $used == *" $i "* ]] && ok=0
        done
        [ $ok = 0 ] || { echo "$id"; return 0; }
    done
    echo "lib.sh: no free OSD id range found" >&2
    return 1
}

# --- osdhist in the background, JSON output ----------------------------------
# oh_start ARGS...     starts $OSDHIST --json ARGS with stdout in $TOUT and
#                      stderr in $TERR (files in $CLUSTER_DIR), pid in $TPID.
# oh_map_id NAME       the id of osdhist's own BPF map NAME (its fds)
# oh_wait_attached [PATTERN]  waits up to 60 s for PATTERN (default
#                      "attached to ceph-osd") on its stderr; 1 if not seen.
# oh_serve ARGS...     oh_start --prometheus 127.0.0.1:0 ARGS (the kernel
#                      picks a free port, osdhist says which), then waits
#                      until it is attached and the port answers HTTP (503
#                      before the first snapshot): sets PORT and URL (its
#                      /metrics).  1, with its stderr shown, if not.
# oh_snap              SIGUSR1 and wait for two health lines more: every op
#                      that ended before the call is in the output's first
#                      N lines; prints N.  Every op that ends after it
#                      returned is after line N.
# oh_count FROM TO OSD CLASS  its count for osd.OSD, class CLASS ("" = all),
#                      phase total, in output lines FROM+1 .. TO.
# oh_optypes_view FROM TO  output lines FROM+1 .. TO summed as
#                      optypes_load.py prints its plan: {ops: {op: {ops,
#                      failed}}, op_type: {op: {msgs, failed_msgs}},
#                      classes: {class: count}}.
OSDHIST=${OSDHIST:-$LIB_ROOT/osdhist}

oh_start() {
    TOUT=$CLUSTER_DIR/osdhist.json TERR=$CLUSTER_DIR/osdhist.err
    : >"$TOUT"; : >"$TERR"
    "$OSDHIST" --json "$@" >"$TOUT" 2>"$TERR" &
    TPID=$!
}

wait_line() { # FILE PATTERN [PID]
    local start=$SECONDS
    for _ in $(seq 600); do
        grep -q -- "$2" "$1" 2>/dev/null && break
        [ -n "${3:-}" ] && ! kill -0 "$3" 2>/dev/null && break
        sleep 0.1
    done
    WAITED=$((SECONDS - start))
    grep -q -- "$2" "$1" 2>/dev/null
}

fake_claimant() { # DIR ARG...
    mkdir -p "$1" && cp /bin/bash "$1/ceph-osd" && mkfifo "$1/fifo" || return 1
    "$1/ceph-osd" -c 'exec 3<>"$0"; read -r -u 3 _' "$1/fifo" "${@:2}" &
    FAKE_PID=$!
}

osd_stand_in() { # DIR [ROOT]
    local inside=${1#"${2:-}"}
    mkfifo "$1/fifo" || return 1
    printf '#!/bin/bash\nexec 3<>"%s"\nread -r -u 3 _\n' "$inside/fifo" >"$1/ceph-hold"
    chmod 755 "$1/ceph-hold"
    echo "$inside/ceph-hold"
}

# The id of osdhist's own map NAME, through its fds (bpftool 7.1 here does
# not show which process holds a map).
oh_map_id() { # NAME
    local f id
    for f in /proc/"$TPID"/fdinfo/*; do
        id=$(awk '/^map_id:/ {print $2}' "$f" 2>/dev/null)
        [ -n "$id" ] || continue
        [ "$(bpftool map show id "$id" -j | jq -r .name)" = "$1" ] && { echo "$id"; return 0; }
    done
    return 1
}

oh_wait_attached() { wait_line "$TERR" "${1:-attached to ceph-osd}" "$TPID"; }

oh_serve() {
    oh_start --prometheus 127.0.0.1:0 "$@"
    PORT= URL=
    oh_wait_attached || { cat "$TERR" >&2; return 1; }
    PORT=$(sed -n 's|^osdhist: serving metrics on http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$TERR")
    [ -n "$PORT" ] || { cat "$TERR" >&2; return 1; }
    URL=http://127.0.0.1:$PORT/metrics
    for _ in $(seq 50); do
        [ "$(curl -s -o /dev/null -m 5 -w '%{http_code}' "$URL")" != 000 ] && return 0
        sleep 0.1
    done
    echo "osdhist does not answer on $URL" >&2
    return 1
}

_oh_nhealth() { grep -c '"type":"health"' "$TOUT"; }

# The first health line after the call may close a snapshot whose maps were
# read before it (a periodic one, or an earlier SIGUSR1's): not enough.  The
# snapshots are taken one after the other by one thread, so the one after
# it read the maps after that line was printed, hence after the call.  A
# second SIGUSR1, sent once the first new line is out, makes that snapshot
# come now whatever the interval.  Bounded by 60 s (a snapshot takes ms).
oh_snap() {
    local n h sent=1 deadline=$((SECONDS + 60))
    n=$(_oh_nhealth)
    kill -USR1 "$TPID"
    while [ $SECONDS -lt $deadline ]; do
        h=$(_oh_nhealth)
        [ "$h" -ge $((n + 2)) ] && { wc -l <"$TOUT"; return 0; }
        if [ "$h" -ge $((n + 1)) ] && [ $sent = 1 ]; then
            kill -USR1 "$TPID"; sent=2
        fi
        kill -0 "$TPID" 2>/dev/null || break
        sleep 0.05
    done
    echo "no snapshot after SIGUSR1 (osdhist gone?)" >&2
    return 1
}

# wait_verified LABEL OSD / no_bad_verify LABEL OSD: the built-in check,
# exact (issue 26): a correct osdhist never prints a
# mismatch or a class outside the bound, on any comparison.  Load may make
# a perf dump miss VERIFY_TIMEOUT_MS (200 ms): "unverified: timeout" for
# the 10 s backoff, neutral.  So: a verified comparison made after the
# load is waited for with SIGUSR1 snapshots (up to 60 s: six tries), then
# every verify line of the run is checked.
_vlines() { jq -c --argjson o "$1" 'select(.type == "verify" and .osd == $o)' "$TOUT"; }
wait_verified() { # LABEL OSD, osdhist running
    local n ok=false
    oh_snap >/dev/null    # every comparison numbered above n began after it
    n=$(_vlines "$2" | jq -s 'map(.checks) | max // 0')
    for _ in $(seq 60); do
        sleep 1
        oh_snap >/dev/null || break
        _vlines "$2" | tail -1 | jq -e --argjson n "$n" '.state == "verified" and .checks > $n' >/dev/null &&
            { ok=true; break; }
    done
    check "$1: the built-in check verified a comparison after the load (within 60 s)" $ok
}
# With STOPPED and SINCE (a pid the test stopped, or several separated by
# spaces, and the wall-clock time it began to stop the first): that process's lines from then on may be unverified
# for any reason, neutral too: an OSD going down closes its admin socket
# under a call in flight ("recv: Connection reset by peer", issue 26).  A
# mismatch or a class outside the bound is never neutral.
no_bad_verify() { # LABEL OSD [STOPPED SINCE], osdhist stopped
    local bad p
    p="[$(tr -s ' ' ',' <<<"${3:-0}")]"	# STOPPED: one pid or several
    bad=$(_vlines "$2" | jq -c --argjson p "$p" --argjson t "${4:-0}" '
        select(.state == "mismatch" or ([.classes[] | .excess != 0 or .mismatch] | any)
        or (.state == "unverified" and (.reason | test("^(waiting|baseline|timeout)") | not)
            and (((.pid | IN($p[])) | not) or .time < $t)))' | head -3)
    check_eq "$1: the built-in check: no comparison outside the bound, no mismatch ($(_vlines "$2" | grep -c '"reason":"timeout') lines unverified by a timeout${3:+, $(_vlines "$2" | jq -s --argjson p "$p" --argjson t "$4" 'map(select((.pid | IN($p[])) and .time >= $t and .state == "unverified")) | length') of pid $3 while it was stopped}, neutral)" "$bad" ""
}

oh_count() { # FROM TO OSD CLASS
    sed -n "$(($1 + 1)),$2p" "$TOUT" | jq -s --argjson osd "$3" --arg c "$4" '
        [.[] | select(.type == "hist" and .osd == $osd and .phase == "total"
            and ($c == "" or .class == $c)) | .count] | add // 0'
}

oh_optypes_view() { # FROM TO
	sed -n "$(($1 + 1)),$2p" "$TOUT" | jq -s '
		def sum_by(f; g): group_by(f) | map({key: (.[0] | f), value: g}) | from_entries;
		{ops: ([.[] | select(.type == "opcode")]
		       | sum_by(.op; {ops: (map(.ops) | add), failed: (map(.failed) | add)})),
		 op_type: ([.[] | select(.type == "optype" and .phase == "total")]
		       | sum_by(.op; {msgs: (map(.count) | add),
				      failed_msgs: (map(select(.class == "error") | .count) | add // 0)})),
		 classes: ([.[] | select(.type == "hist" and .phase == "total")]
		       | sum_by(.class; map(.count) | add))}'
}

start_prometheus() {	# on a random free port; tries again if it was taken meanwhile
	local try
	for try in 1 2 3; do
		PPORT=$((20000 + RANDOM % 30000))
		ss -Hltn "sport = :$PPORT" | grep -q . && continue
		prometheus --config.file="$W/prometheus.yml" --storage.tsdb.path="$W/data" \
			--web.listen-address="127.0.0.1:$PPORT" >"$W/prometheus.log" 2>&1 &
		PROMPID=$!
		for _ in $(seq 100); do
			curl -sf "http://127.0.0.1:$PPORT/-/ready" >/dev/null && return 0
			kill -0 $PROMPID 2>/dev/null || break
			sleep 0.1
		done
		kill $PROMPID 2>/dev/null; wait $PROMPID 2>/dev/null
	done
	tail -5 "$W/prometheus.log" >&2
	return 1
}

# --- throwaway writable views of a chroot -------------------------------------
# ov_up NAME LOWER     an overlayfs view of the chroot LOWER (never written:
#                      every change lands in an upper dir in a temp dir),
#                      with /proc mounted, in a private mount namespace that
#                      a background process holds (nothing is mounted on the
#                      host; killing the holder unmounts everything).  Sets
#                      OV_PID and OV_ROOT (the view's path inside that
#                      namespace).  One view at a time; 1 if it failed.
# ov_ns CMD...         CMD in the view's mount namespace (host paths, and
#                      the view at $OV_ROOT), e.g. ov_ns cp F "$OV_ROOT/tmp/".
# ov_run CMD...        CMD chrooted in the view, clean environment.
# ov_down              kill the holder (unmounts) and remove the view.
ov_up() { # NAME LOWER
    local d
    lib_mktemp d -d || return 1
    mkdir "$d/upper" "$d/work" "$d/root"
    unshare -m --propagation private sh -c '
        d=$1 lower=$2
        mount -t overlay overlay -o "lowerdir=$lower,upperdir=$d/upper,workdir=$d/work" "$d/root" &&
        mount -t proc proc "$d/root/proc" && echo up >"$d/ready" && exec sleep infinity' \
        sh "$d" "$2" 2>"$d/err" &
    OV_PID=$! OV_ROOT=$d/root OV_DIR=$d
    for _ in $(seq 100); do
        [ -e "$d/ready" ] && return 0
        kill -0 "$OV_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "lib.sh: no overlay view of $2 ($1): $(cat "$d/err")" >&2
    return 1
}

ov_ns() { nsenter -t "$OV_PID" -m "$@"; }

ov_run() {
    nsenter -t "$OV_PID" -m chroot "$OV_ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

ov_down() {
    [ -n "${OV_PID:-}" ] || return 0
    kill "$OV_PID" 2>/dev/null
    wait "$OV_PID" 2>/dev/null
    rm -rf -- "$OV_DIR"
    OV_PID=
}
