#!/usr/bin/env bash
# scripts/cluster.sh - a throwaway single-host Ceph cluster for tests, demos
# and benchmarks.  Everything lives under one directory; nothing in
# /etc/ceph or /var/lib/ceph is read or written.
#
# Needs (Debian 12): ceph-mon ceph-osd ceph-mgr ceph-common (ceph, rados,
# monmaptool), util-linux (setsid), iproute2 (ss), procps, coreutils.
#
# Usage:
#   cluster.sh start DIR [--osds N] [--store memstore|bluestore]
#                        [--pool NAME] [--pg N] [--timeout SECONDS]
#                        [--first-id N] [--osd-bin PATH] [--osd-wrap "CMD"]
#                        [--root CHROOT]
#       --first-id N    OSD ids are N, N+1, ... (default 0): lets a test
#                       tell its OSDs from other clusters' osd.0 on the host
#       --osd-bin PATH  the ceph-osd executable that mkfs's, starts and
#                       restarts the OSDs (default: ceph-osd from PATH)
#       --osd-wrap CMD  a command prefix (shell words, quotes honoured) for
#                       starting and restarting OSDs, e.g. "unshare -m ...";
#                       it gets "BIN -f -c CONF -i ID" appended and must end
#                       by exec'ing ceph-osd (the pid recorded is the
#                       wrapper's, so it must become ceph-osd itself)
#       --root CHROOT   run every daemon and every mkfs tool (monmaptool,
#                       ceph-mon, ceph-mgr, ceph-osd) inside the Debian chroot
#                       CHROOT (see scripts/chroots.sh), with its own Ceph
#                       release; clients (ceph, rados) stay on the host.
#                       --osd-bin is then a path inside CHROOT and the
#                       --osd-wrap command runs inside CHROOT too.  CHROOT
#                       needs ceph-mgr as well: PG states (and so this
#                       script's wait for active+clean) come from it.
#   cluster.sh stop DIR                 # kill recorded pids, rm -rf DIR
#   cluster.sh restart-osd DIR ID [--timeout S] [--daemonize|--hold-parent]
#                                       # restart one OSD (same command line, new
#                                       # pid in DIR/pids), wait active+clean;
#                                       # bluestore only; --daemonize: without
#                                       # -f, ceph-osd forks its daemon (pid
#                                       # recorded) and the parent, in
#                                       # DIR/parent.osd.ID, exits once it runs;
#                                       # --hold-parent: it is left stopped
#                                       # (SIGSTOP) until the caller sends it
#                                       # SIGCONT (or stop), so that a tracer
#                                       # sees parent and daemon both
#   cluster.sh osd-pid DIR ID           # print the pid of osd.ID
#   cluster.sh wait-clean DIR [SECONDS] # wait until all PGs active+clean
#   cluster.sh status DIR               # ceph -s
#
# Files in DIR:
#   ceph.conf        cluster configuration (pass -c DIR/ceph.conf, or source env)
#   env              sourceable: CEPH_CONF, POOL, CEPH_MON_HOST, CEPH_MON_PORT,
#                    OSDHIST_CLUSTER_DIR, OSDHIST_NUM_OSDS, OSDHIST_STORE,
#                    OSD_IDS ("N N+1 ..."), OSDHIST_OSD_BIN (with --root: a
#                    path inside the chroot), OSDHIST_ROOT (CHROOT or "")
#   pids             "name pid" per line: mon.a, mgr.x, osd.N ... (one per id)
#   cmd.<name>       NUL-separated command line each daemon was started with
#                    (for OSDs: wrapper + binary; restart-osd reuses it)
#   log/             <name>.log (ceph log), <name>.out (stdout/stderr), cluster.log
#   run/             admin sockets (ceph-<name>.asok), pid files
#   crash/           ceph crash dumps
#   mon.a/ mgr.x/ osd.N/  daemon data;  osd.N.block  bluestore block file
#   root             (--root only) CHROOT, then the topmost dir that start
#                    created inside CHROOT for DIR's mount point
#
# --root: each daemon runs in a mount namespace of its own (unshare -m,
# private propagation) in which DIR is bind-mounted at the same path inside
# CHROOT, and proc and sysfs (read-only) are mounted on CHROOT/proc, /sys;
# then it is chroot'ed and exec'ed (the pid recorded is the daemon's).  All
# these mounts live and die with the namespace: none is ever made on the
# host, so none is left by a crash, a Ctrl-C or a KILL.  Paths are the same
# inside and out, so ceph.conf, admin sockets and logs work from the host,
# and the daemon's /proc/PID/root is CHROOT.  "stop" removes the empty
# mount point dirs it made inside CHROOT.
#
# Daemons: ceph-mon -f -c DIR/ceph.conf -i a (msgr v2 only, 127.0.0.1, random
# free port in 20000-40000), ceph-mgr -i x (no python modules, only for PG
# stats), [WRAP] BIN -f -c DIR/ceph.conf -i N (ports 6800-7300). Each runs in its
# own session (setsid), so Ctrl-C on the caller does not reach them: always
# "stop". Auth is off. The op tracker is left on (default).
# Env: CEPH_CLI_TIMEOUT (s, default 30) bounds every ceph CLI call made here.
set -euo pipefail

# --root: the command prefix that runs "CMD ARGS" inside $ROOT (empty: on
# the host).  See "--root" above; $1 = DIR, $2 = CHROOT for the sh script.
RUN=()
ROOT=
# shellcheck disable=SC2016
ROOT_SH='d=$1 r=$2; shift 2
mount --bind "$d" "$r$d" && mount -t proc proc "$r/proc" &&
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$r/sys" && exec chroot "$r" "$@"'

PROG=cluster.sh
MARKER=.osdhist-cluster
CEPH_CLI_TIMEOUT=${CEPH_CLI_TIMEOUT:-30}

log() { echo "$PROG: $*" >&2; }
die() { echo "$PROG: error: $*" >&2; exit 1; }

usage() {
    sed -n '/^# Usage:/,/^# Files/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# ceph CLI against this cluster, never hanging forever.
c() {
    timeout -k 5 "$CEPH_CLI_TIMEOUT" ceph -c "$CONF" --connect-timeout 15 "$@"
}

set_dir() {
    [ -n "${1:-}" ] || usage
    DIR=$(realpath -m -- "$1")
    [[ $DIR != *[[:space:]]* ]] || die "DIR must not contain whitespace"
    CONF=$DIR/ceph.conf
}

# Is PID a live (non-zombie) ceph daemon of the cluster in $DIR?
is_ours() {
    local pid=$1 comm state
    [[ $pid =~ ^[0-9]+$ ]] || return 1
    comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
    [[ $comm == ceph-* ]] || return 1
    state=$(awk '/^State:/{print $2}' "/proc/$pid/status" 2>/dev/null) || return 1
    [ "$state" != Z ] || return 1
    tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | grep -qxF -- "$CONF"
}

pid_of() { # name -> pid from DIR/pids
    [ -f "$DIR/pids" ] || return 1
    awk -v n="$1" '$1 == n { p = $2 } END { if (p == "") exit 1; print p }' "$DIR/pids"
}

record_pid() { # name pid : replace in place or append
    local tmp=$DIR/pids.tmp
    touch "$DIR/pids"
    awk -v n="$1" -v p="$2" '$1 == n { $2 = p; f = 1 } { print } END { if (!f) print n, p }' \
        "$DIR/pids" >"$tmp"
    mv -f "$tmp" "$DIR/pids"
}

# spawn NAME CMD...: CMD in a session of its own, in the background, its
# stdout/stderr to DIR/log/NAME.out, no core files, none of the caller's
# fds.  The subshell execs setsid which execs CMD (a non-group-leader does
# not fork in setsid), so $! is CMD's pid.
spawn() {
    local name=$1; shift
    (
        ulimit -c 0
        # do not leak the caller's fds (pipes of $(...), test harnesses)
        for fd in /proc/"$BASHPID"/fd/*; do
            fd=${fd##*/}
            if [ "$fd" -gt 2 ] 2>/dev/null; then eval "exec $fd>&-" 2>/dev/null || true; fi
        done
        cd "$DIR"
        exec setsid "$@" </dev/null >>"$DIR/log/$name.out" 2>&1
    ) &
}

# launch NAME CMD...: start a daemon (spawn), record "NAME PID" in
# DIR/pids and CMD in DIR/cmd.NAME.
launch() {
    local name=$1; shift
    printf '%s\0' "$@" >"$DIR/cmd.$name"
    spawn "$name" "$@"
    local pid=$!
    record_pid "$name" "$pid"
    # make sure the pid really is the daemon (comm changes after exec; an
    # --osd-wrap may take a moment: mount, copy)
    local i
    for i in $(seq 200); do
        if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == ceph-* ]]; then
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.05
    done
    die "$name (pid $pid) did not start; see $DIR/log/$name.out and $DIR/log/$name.log"
}

relaunch() { # name : same command line as before
    local name=$1
    local -a cmd
    mapfile -d '' cmd <"$DIR/cmd.$name"
    launch "$name" "${cmd[@]}"
}

# relaunch_daemonizing NAME: the same command line without -f, as a person
# or a sysvinit script starts an OSD: ceph-osd forks the daemon, and the
# first process (Ceph's Preforker parent) exits once the daemon runs.  The
# pid recorded is the daemon's, the child; DIR/cmd.NAME keeps -f.
relaunch_daemonizing() {
    local name=$1 hold=$2 a parent child i
    local -a cmd args=()
    mapfile -d '' cmd <"$DIR/cmd.$name"
    for a in "${cmd[@]}"; do [ "$a" = -f ] || args+=("$a"); done
    spawn "$name" "${args[@]}"
    parent=$!
    for i in $(seq 400); do
        child=$(pgrep -P "$parent" 2>/dev/null | head -n 1 || true)
        if [ -n "$child" ] && [[ $(cat "/proc/$child/comm" 2>/dev/null) == ceph-* ]]; then
            record_pid "$name" "$child"
            echo "$parent" >"$DIR/parent.$name"
            [ "$hold" = 0 ] || kill -STOP "$parent"
            return 0
        fi
        kill -0 "$parent" 2>/dev/null || break
        sleep 0.05
    done
    die "$name (pid $parent) forked no daemon; see $DIR/log/$name.out and $DIR/log/$name.log"
}

alive_or_die() { # name
    local pid
    pid=$(pid_of "$1") || die "no pid recorded for $1"
    is_ours "$pid" || die "$1 (pid $pid) died; last lines of $DIR/log/$1.log:
$(tail -n 15 "$DIR/log/$1.log" 2>/dev/null; tail -n 5 "$DIR/log/$1.out" 2>/dev/null)"
}

free_port() { # random TCP port in 20000-40000 not being listened on
    local p i
    for i in $(seq 100); do
        p=$((20000 + RANDOM % 20001))
        if [ -z "$(ss -Hltn "( sport = :$p )" 2>/dev/null)" ]; then
            echo "$p"; return 0
        fi
    done
    die "no free port found in 20000-40000"
}

write_conf() {
    local osd_size=$((NUM_OSDS >= 2 ? 2 : 1))
    cat >"$CONF" <<EOF
# generated by $PROG for a throwaway test cluster; do not use in production
[global]
fsid = $FSID
mon host = [v2:127.0.0.1:$MON_PORT]
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind msgr1 = false
ms bind msgr2 = true
ms bind ipv6 = false

auth cluster required = none
auth service required = none
auth client required = none
auth supported = none
keyring = $DIR/keyring

run dir = $DIR/run
crash dir = $DIR/crash
log to syslog = false
err to syslog = false
clog to syslog = false
mon cluster log file = $DIR/log/cluster.log
mon cluster log to syslog = false

osd pool default size = $osd_size
osd pool default min size = 1
osd pool default pg num = $PG_NUM
osd pool default pgp num = $PG_NUM
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon warn on insecure global id reclaim = false
mon warn on insecure global id reclaim allowed = false
mon data avail warn = 2
mon data avail crit = 1
mgr initial modules =
mgr stats period = 1
mon mgr digest period = 1
# batch mon updates for 0.1 s instead of 1 s: much faster boot and pool create
paxos propose interval = 0.1

[mon]
mon data = $DIR/\$name
# port taken: fail at once (we retry with another port) instead of trying 3 times
# 5 s apart; count = 0 would mean "never even try"
ms bind retry count = 1
admin socket = $DIR/run/\$cluster-\$name.asok
log file = $DIR/log/\$name.log
pid file = $DIR/run/\$name.pid

[mgr]
mgr data = $DIR/\$name
# an empty module dir: the mgr runs no python modules at all, but still
# aggregates PG stats in C++ so "ceph pg stat" / "ceph pg ls" work
mgr module path = $DIR/mgr-modules
admin socket = $DIR/run/\$cluster-\$name.asok
log file = $DIR/log/\$name.log
pid file = $DIR/run/\$name.pid

[osd]
osd data = $DIR/\$name
osd journal = $DIR/\$name/journal
admin socket = $DIR/run/\$cluster-\$name.asok
log file = $DIR/log/\$name.log
pid file = $DIR/run/\$name.pid
osd objectstore = $STORE
# no scrubbing: it is background noise for latency measurements
osd scrub load threshold = 0
osd scrub min interval = 1000000000
osd scrub max interval = 1000000000
osd deep scrub interval = 1000000000
osd max backfills = 8
osd heartbeat grace = 10
osd mon report interval = 1
# memstore: RAM only, lost on restart
memstore device bytes = 8G
# bluestore: sparse file outside the osd data dir
bluestore block path = $DIR/\$name.block
bluestore block create = true
bluestore block size = 4G
bluestore block db create = false
bluestore block wal create = false
bluestore fsck on mkfs = false
bluestore fsck on mount = false
bluestore cache autotune = false
bluestore cache size = 128M
osd memory target = 1G
EOF
}

start_mon() {
    local _
    for _ in 1 2 3; do
        MON_PORT=$(free_port)
        write_conf
        rm -rf "$DIR/mon.a" "$DIR/monmap"
        "${RUN[@]}" monmaptool --create --clobber --fsid "$FSID" \
            --addv a "[v2:127.0.0.1:$MON_PORT]" "$DIR/monmap" >/dev/null
        "${RUN[@]}" ceph-mon -c "$CONF" --mkfs -i a --monmap "$DIR/monmap" \
            --keyring "$DIR/keyring" >"$DIR/log/mon.a.mkfs" 2>&1 \
            || die "ceph-mon --mkfs failed: $(tail -n 5 "$DIR/log/mon.a.mkfs")"
        launch mon.a "${RUN[@]}" ceph-mon -f -c "$CONF" -i a
        local pid deadline=$((SECONDS + 15))
        pid=$(pid_of mon.a)
        while [ $SECONDS -lt $deadline ]; do
            is_ours "$pid" || break
            # listening, and it is our mon that listens (not someone else)
            if ss -Hltnp "( sport = :$MON_PORT )" | grep -q "pid=$pid,"; then
                return 0
            fi
            sleep 0.1
        done
        if is_ours "$pid"; then
            die "ceph-mon did not listen on port $MON_PORT within 15 s"
        fi
        log "ceph-mon exited (port $MON_PORT taken?), retrying with another port"
    done
    die "ceph-mon failed to start 3 times; see $DIR/log/mon.a.log"
}

# ---- --root ----------------------------------------------------------------

set_root() { # CHROOT : set ROOT and RUN
    ROOT=$(realpath -e -- "$1" 2>/dev/null) || die "--root $1: no such directory"
    { [ -d "$ROOT/proc" ] && [ -d "$ROOT/sys" ] && [ -x "$ROOT/usr/bin/env" ]; } \
        || die "--root $ROOT is not a chroot (no /proc, /sys or /usr/bin/env in it); build one with scripts/chroots.sh"
    [ "$ROOT" != / ] || die "--root / is the host itself: leave --root out"
    case $DIR/ in
        "$ROOT"/*) die "DIR $DIR is inside the chroot $ROOT: put it outside (e.g. under /tmp)" ;;
    esac
    RUN=(unshare -m --propagation private sh -c "$ROOT_SH" osdhist-root "$DIR" "$ROOT")
}

in_root_has() { # TOOL : an executable TOOL (a name in PATH, or a path) in $ROOT
    local t=$1 d
    if [[ $t == */* ]]; then [ -x "$ROOT$t" ] && [ -f "$ROOT$t" ]; return; fi
    for d in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
        [ -x "$ROOT$d/$t" ] && [ -f "$ROOT$d/$t" ] && return 0
    done
    return 1
}

# The dir at $ROOT$DIR that DIR is bind-mounted on (inside each daemon's
# namespace only).  DIR/root records CHROOT and the topmost dir created, so
# that stop removes exactly those (rmdir: only ever empty dirs).
make_mount_point() {
    local top=$ROOT$DIR
    [ ! -e "$top" ] || die "$top already exists inside the chroot: another cluster with the same DIR?"
    while [ ! -e "$(dirname "$top")" ]; do top=$(dirname "$top"); done
    printf '%s\n%s\n' "$ROOT" "$top" >"$DIR/root"
    mkdir -p "$ROOT$DIR"
}

remove_mount_point() {
    local root top d
    { read -r root; read -r top; } <"$DIR/root" || return 0
    [ -n "$root" ] && [ -n "$top" ] || return 0
    case $top in "$root"/?*) ;; *) log "warning: bad $DIR/root, not removing $top"; return 0 ;; esac
    d=$root$DIR
    while :; do
        rmdir -- "$d" 2>/dev/null || { [ ! -e "$d" ] || log "warning: could not remove $d"; }
        [ "$d" != "$top" ] || break
        d=$(dirname "$d")
    done
}

# ---- waiting ---------------------------------------------------------------

# all PGs (sum of pg_num over pools) known to the mgr and active+clean.
# With $1 = osd id and $2 = epoch: PGs whose acting set contains that OSD must
# also have been reported at or after that epoch (so stale pre-restart stats
# don't count).
pgs_clean() {
    local want json
    want=$(c osd pool ls detail -f json 2>/dev/null | jq '[.[].pg_num] | add // 0') || return 1
    json=$(c pg ls -f json 2>/dev/null) || return 1
    jq -e --argjson want "$want" --argjson osd "${1:--1}" --argjson ep "${2:-0}" '
        (.pg_stats // .) as $pgs
        | ($pgs | length) == $want
          and all($pgs[]; .state == "active+clean")
          and all($pgs[] | select(.acting | index($osd)); .reported_epoch >= $ep)
    ' <<<"$json" >/dev/null || return 1
    # the mon's digest ("ceph -s") lags the mgr a little; wait for it too
    c status -f json 2>/dev/null | jq -e --argjson want "$want" '
        .pgmap.num_pgs == $want
        and ([.pgmap.pgs_by_state[]? | select(.state_name != "active+clean")] | length) == 0
    ' >/dev/null
}

wait_clean() { # timeout [osd epoch]
    local timeout=$1 deadline=$((SECONDS + $1))
    while ! pgs_clean "${2:-}" "${3:-}"; do
        if [ $SECONDS -ge $deadline ]; then
            log "PG states:"
            c pg stat >&2 || true
            c pg ls 2>/dev/null | head -n 20 >&2 || true
            die "PGs not all active+clean after ${timeout}s (see $DIR/log/)"
        fi
        check_daemons
        sleep 0.3
    done
}

check_daemons() {
    local name pid
    while read -r name pid; do
        is_ours "$pid" || die "$name (pid $pid) died; last lines of $DIR/log/$name.log:
$(tail -n 15 "$DIR/log/$name.log" 2>/dev/null; tail -n 5 "$DIR/log/$name.out" 2>/dev/null)"
    done <"$DIR/pids"
}

# osd.$1 up in the osdmap with up_from > $2
osd_up_since() {
    c osd dump -f json 2>/dev/null | jq -e --argjson id "$1" --argjson ep "${2:-0}" '
        .osds[] | select(.osd == $id) | .up == 1 and .up_from > $ep' >/dev/null
}

wait_osds_up() { # timeout : every id in $OSD_IDS up and in
    local deadline=$((SECONDS + $1)) n ids
    # shellcheck disable=SC2086
    ids=$(printf '%s\n' $OSD_IDS | jq -sc .)
    while :; do
        n=$(c osd dump -f json 2>/dev/null | jq --argjson ids "$ids" '
            [.osds[] | select(.up == 1 and .in == 1 and (.osd | IN($ids[])))] | length') || n=0
        [ "${n:-0}" -ge "$NUM_OSDS" ] && return 0
        [ $SECONDS -lt $deadline ] || die "only ${n:-0}/$NUM_OSDS OSDs up+in after $1 s"
        check_daemons
        sleep 0.2
    done
}

# ---- subcommands -----------------------------------------------------------

start_abort() {
    local rc=$?
    [ "${START_OK:-1}" = 0 ] || return 0
    trap '' INT TERM
    log "start failed or interrupted (rc $rc): stopping the daemons it started; logs in $DIR/log"
    # our direct children (includes a daemon forked but not yet recorded)
    local kids
    kids=$(jobs -p)
    # shellcheck disable=SC2086
    [ -z "$kids" ] || kill -TERM $kids 2>/dev/null || true
    if [ -f "$DIR/pids" ]; then
        # shellcheck disable=SC2046
        kill_pids $(awk '{print $2}' "$DIR/pids") || true
    fi
    # shellcheck disable=SC2086
    [ -z "$kids" ] || kill -KILL $kids 2>/dev/null || true
    exit "$rc"
}

cmd_start() {
    set_dir "${1:-}"; shift || true
    NUM_OSDS=1 STORE=memstore POOL=osdhist PG_NUM=8
    local timeout=60 first_id=0 osd_bin=ceph-osd osd_wrap="" wrap=() root=""
    while [ $# -gt 0 ]; do
        case $1 in
            --osds) NUM_OSDS=${2:?}; shift 2 ;;
            --first-id) first_id=${2:?}; shift 2 ;;
            --osd-bin) osd_bin=${2:?}; shift 2 ;;
            --osd-wrap) osd_wrap=${2:?}; shift 2 ;;
            --root) root=${2:?}; shift 2 ;;
            --store) STORE=${2:?}; shift 2 ;;
            --pool) POOL=${2:?}; shift 2 ;;
            --pg) PG_NUM=${2:?}; shift 2 ;;
            --timeout) timeout=${2:?}; shift 2 ;;
            *) usage ;;
        esac
    done
    [[ $NUM_OSDS =~ ^[1-9][0-9]*$ ]] || die "--osds must be a positive integer"
    [[ $PG_NUM =~ ^[1-9][0-9]*$ ]] || die "--pg must be a positive integer"
    [[ $first_id =~ ^[0-9]+$ ]] || die "--first-id must be a non-negative integer"
    case $STORE in memstore|bluestore) ;; *) die "--store must be memstore or bluestore" ;; esac
    local daemon_tools="ceph-mon $osd_bin ceph-mgr monmaptool"
    if [ -n "$root" ]; then
        set_root "$root"
        daemon_tools=unshare
    fi
    for t in ceph rados jq ss setsid $daemon_tools; do
        command -v "$t" >/dev/null || die "$t not found"
    done
    if [ -n "$ROOT" ]; then
        # ceph-mgr too: without it no PG state is known, so the wait for
        # active+clean below could only time out
        for t in ceph-mon ceph-mgr "$osd_bin" monmaptool; do
            in_root_has "$t" || die "$t not found in $ROOT (build it with scripts/chroots.sh)"
        done
        [[ $osd_bin != */* || $osd_bin == /* ]] || die "--osd-bin must be absolute (a path inside $ROOT) with --root"
    else
        # a path made absolute (the OSDs run with DIR as their cwd); a bare
        # name stays as it is, found in PATH
        [[ $osd_bin != */* ]] || osd_bin=$(realpath -s -- "$osd_bin")
    fi
    # the wrapper is one string of shell words, as a user would type it
    eval "wrap=($osd_wrap)" || die "--osd-wrap: cannot split '$osd_wrap' into words"
    OSD_IDS=$(seq -s ' ' "$first_id" $((first_id + NUM_OSDS - 1)))

    mkdir -p "$DIR"
    [ -z "$(ls -A "$DIR")" ] || die "$DIR is not empty"
    touch "$DIR/$MARKER"
    # on failure or Ctrl-C: stop whatever we started (logs stay in DIR/log)
    START_OK=0
    trap start_abort EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir -p "$DIR/log" "$DIR/run" "$DIR/crash" "$DIR/mgr-modules"
    : >"$DIR/pids"
    [ -z "$ROOT" ] || make_mount_point

    local t0; t0=$(now)
    # every tool here gets -c CONF (or needs none): a caller's CEPH_CONF,
    # maybe of a cluster already gone, must not be read
    unset CEPH_CONF
    FSID=$(uuidgen)
    ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. \
        --cap mon 'allow *' >/dev/null
    ceph-authtool "$DIR/keyring" --gen-key -n client.admin \
        --cap mon 'allow *' --cap osd 'allow *' --cap mgr 'allow *' \
        --cap mds 'allow *' >/dev/null

    start_mon
    log "mon.a on v2:127.0.0.1:$MON_PORT ($(elapsed "$t0")s)"
    # the always-on mgr modules are deliberately absent (empty module path)
    c health mute MGR_MODULE_ERROR --sticky >/dev/null 2>&1 || true

    mkdir -p "$DIR/mgr.x"
    launch mgr.x "${RUN[@]}" ceph-mgr -f -c "$CONF" -i x

    # create OSD ids and their stores (in parallel), then start them
    local i n uuid id pids_mkfs=()
    for i in $OSD_IDS; do
        uuid=$(uuidgen)
        # the id given explicitly: "osd new" alone takes the lowest free one
        id=$(c osd new "$uuid" "$i") || die "ceph osd new $uuid $i failed"
        [ "$id" = "$i" ] || die "expected osd id $i, got '$id'"
        mkdir -p "$DIR/osd.$i"
        "${RUN[@]}" "$osd_bin" -c "$CONF" -i "$i" --mkfs --osd-uuid "$uuid" \
            >"$DIR/log/osd.$i.mkfs" 2>&1 &
        pids_mkfs+=($!)
    done
    n=0
    for i in $OSD_IDS; do
        wait "${pids_mkfs[$n]}" || die "ceph-osd --mkfs for osd.$i failed: $(tail -n 5 "$DIR/log/osd.$i.mkfs")"
        n=$((n + 1))
    done
    for i in $OSD_IDS; do
        launch "osd.$i" "${RUN[@]}" "${wrap[@]}" "$osd_bin" -f -c "$CONF" -i "$i"
    done

    wait_osds_up "$timeout"
    log "$NUM_OSDS OSD(s) up ($(elapsed "$t0")s)"

    c osd pool create "$POOL" "$PG_NUM" "$PG_NUM" replicated >/dev/null 2>&1 \
        || die "pool create $POOL failed"
    c osd pool application enable "$POOL" rados >/dev/null 2>&1 \
        || die "pool application enable failed"

    log "pool $POOL created ($(elapsed "$t0")s)"
    cat >"$DIR/env" <<EOF
export CEPH_CONF=$CONF
export POOL=$POOL
export CEPH_MON_HOST=v2:127.0.0.1:$MON_PORT
export CEPH_MON_PORT=$MON_PORT
export OSDHIST_CLUSTER_DIR=$DIR
export OSDHIST_NUM_OSDS=$NUM_OSDS
export OSDHIST_STORE=$STORE
export OSD_IDS="$OSD_IDS"
export OSDHIST_OSD_BIN=$osd_bin
export OSDHIST_ROOT=$ROOT
EOF

    wait_clean "$timeout"
    START_OK=1
    echo "$PROG: cluster up in $(elapsed "$t0")s: $NUM_OSDS $STORE OSD(s) (ids $OSD_IDS), pool $POOL ($PG_NUM PGs), mon v2:127.0.0.1:$MON_PORT, dir $DIR"
}

# TERM the given pids (only ours), wait up to 10 s, then KILL.
# With REAP=1 also wait (a bit) until init has reaped them.
kill_pids() {
    local pid live=() i
    for pid in "$@"; do is_ours "$pid" && live+=("$pid"); done
    [ ${#live[@]} -gt 0 ] || return 0
    kill -TERM "${live[@]}" 2>/dev/null || true
    for i in $(seq 100); do
        local left=()
        for pid in "${live[@]}"; do is_ours "$pid" && left+=("$pid"); done
        [ ${#left[@]} -gt 0 ] || { [ "${REAP:-0}" = 0 ] || wait_reaped "${live[@]}"; return 0; }
        sleep 0.1
    done
    for pid in "${live[@]}"; do
        is_ours "$pid" && { log "pid $pid did not exit on TERM, sending KILL"; kill -KILL "$pid" 2>/dev/null || true; }
    done
    for i in $(seq 50); do
        local left=()
        for pid in "${live[@]}"; do is_ours "$pid" && left+=("$pid"); done
        [ ${#left[@]} -gt 0 ] || { [ "${REAP:-0}" = 0 ] || wait_reaped "${live[@]}"; return 0; }
        sleep 0.1
    done
    log "warning: pids still alive after KILL: ${left[*]}"
    return 1
}

# The daemons are orphans (their parent, cluster.sh start, has exited), so
# they are reaped by init; give it a moment so that the pids are really gone
# (some container inits reap only every couple of seconds).
wait_reaped() {
    local pid i
    for i in $(seq 50); do
        for pid in "$@"; do
            [[ $(cat "/proc/$pid/comm" 2>/dev/null) == ceph-* ]] && break
            pid=
        done
        [ -n "$pid" ] || return 0
        sleep 0.1
    done
}

cmd_stop() {
    set_dir "${1:-}"
    [ -e "$DIR" ] || return 0
    [ -f "$DIR/$MARKER" ] || die "refusing to stop/remove $DIR: not a $PROG cluster dir"
    local f
    for f in "$DIR"/parent.osd.*; do	# a held daemonizing parent: let it go
        [ -f "$f" ] || continue
        is_ours "$(cat "$f")" && kill -CONT "$(cat "$f")" 2>/dev/null
    done
    if [ -f "$DIR/pids" ]; then
        local pids
        # OSDs first (clean shutdown while the mon is still there), then the rest
        pids=$(awk '$1 ~ /^osd\./ {print $2}' "$DIR/pids")
        # shellcheck disable=SC2086
        REAP=1 kill_pids $pids || true
        pids=$(awk '$1 !~ /^osd\./ {print $2}' "$DIR/pids")
        # shellcheck disable=SC2086
        REAP=1 kill_pids $pids || true
    fi
    [ ! -f "$DIR/root" ] || remove_mount_point
    rm -rf -- "$DIR"
}

cmd_osd_pid() {
    set_dir "${1:-}"
    local id=${2:?usage: osd-pid DIR ID} pid
    pid=$(pid_of "osd.$id") || die "no osd.$id in $DIR/pids"
    is_ours "$pid" || die "osd.$id (pid $pid) is not running"
    echo "$pid"
}

cmd_restart_osd() {
    set_dir "${1:-}"
    local id=${2:?usage: restart-osd DIR ID [--timeout S] [--daemonize]} timeout=60 pid epoch t0
    local daemonize=0 hold=0
    [[ $id =~ ^[0-9]+$ ]] || die "bad osd id '$id'"
    shift 2
    while [ $# -gt 0 ]; do
        case $1 in
            --timeout) timeout=${2:?}; shift 2 ;;
            --daemonize) daemonize=1; shift ;;
            --hold-parent) daemonize=1 hold=1; shift ;;
            *) usage ;;
        esac
    done
    [ -f "$DIR/$MARKER" ] || die "$DIR is not a cluster dir"
    NUM_OSDS=$(grep -c '^osd\.' "$DIR/pids")
    if grep -qx 'osd objectstore = memstore' "$CONF"; then
        die "restart-osd needs a --store bluestore cluster (memstore loses all PGs on restart)"
    fi
    t0=$(now)
    pid=$(pid_of "osd.$id") || die "no osd.$id in $DIR/pids"
    kill_pids "$pid" || die "could not stop osd.$id (pid $pid)"
    # make the mon see it down now even if it died without telling it
    c osd down "$id" >/dev/null 2>&1 || true
    epoch=$(c osd dump -f json | jq '.epoch') || die "osd dump failed"
    if [ "$daemonize" = 1 ]; then relaunch_daemonizing "osd.$id" "$hold"; else relaunch "osd.$id"; fi
    local deadline=$((SECONDS + timeout))
    while ! osd_up_since "$id" "$epoch"; do
        [ $SECONDS -lt $deadline ] || die "osd.$id not up again after ${timeout}s"
        alive_or_die "osd.$id"
        sleep 0.2
    done
    local up_from
    up_from=$(c osd dump -f json | jq --argjson id "$id" '.osds[] | select(.osd == $id) | .up_from')
    wait_clean "$timeout" "$id" "$up_from"
    echo "$PROG: osd.$id restarted (pid $(pid_of "osd.$id")) in $(elapsed "$t0")s"
}

cmd_wait_clean() {
    set_dir "${1:-}"
    local timeout=${2:-60}
    [[ $timeout =~ ^[0-9]+$ ]] || die "bad timeout '$timeout'"
    wait_clean "$timeout"
}

main() {
    local sub=${1:-}; shift || true
    case $sub in
        start) cmd_start "$@" ;;
        stop) cmd_stop "$@" ;;
        restart-osd) cmd_restart_osd "$@" ;;
        osd-pid) cmd_osd_pid "$@" ;;
        wait-clean) cmd_wait_clean "$@" ;;
        status) set_dir "${1:-}"; c -s ;;
        *) usage ;;
    esac
}

main "$@"
