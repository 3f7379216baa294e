#!/usr/bin/env bash
# shellcheck disable=SC2154,SC2317  # lib_mktemp sets stamp/tmpf/child/s; helpers run via check
# Integration test for scripts/cluster.sh and tests/lib.sh (run as root).
# Starts throwaway Ceph clusters under mktemp dirs; takes ~40 s.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/lib.sh
source "$HERE/../lib.sh"

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit 77; }

lib_mktemp stamp   # to show nothing under /etc/ceph, /var/lib/ceph changes

# a pid "exists" if it is a live or zombie process that is still a ceph daemon
ceph_pid_exists() { [[ $(cat "/proc/$1/comm" 2>/dev/null) == ceph-* ]]; }

# ceph processes whose command line mentions PATH (prints "pid cmdline")
ceph_procs_under() {
    local f pid
    for f in /proc/[0-9]*/comm; do
        pid=${f#/proc/}; pid=${pid%/comm}
        [[ $(cat "$f" 2>/dev/null) == ceph* ]] || continue
        tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$1" &&
            echo "$pid $(tr '\0' ' ' <"/proc/$pid/cmdline")"
    done
    return 0
}

pids_gone() { # pidsfile-copy
    local name pid bad=""
    while read -r name pid; do
        ceph_pid_exists "$pid" && bad+=" $name=$pid"
    done <"$1"
    [ -z "$bad" ] || { echo "still running:$bad"; return 1; }
}

# ---------------------------------------------------------------- cluster A
t0=$SECONDS
if cluster_up; then
    pass "cluster A starts ($((SECONDS - t0)) s): mon $CEPH_MON_HOST, pool $POOL"
else
    fail "cluster A starts"
    finish
fi
A=$CLUSTER_DIR
A_CONF=$CEPH_CONF

check "env has CEPH_CONF, POOL, CEPH_MON_HOST" \
    test -n "${CEPH_CONF:-}" -a -n "${POOL:-}" -a -n "${CEPH_MON_HOST:-}"
check "pids file has mon.a, mgr.x, osd.0" \
    bash -c "grep -q '^mon.a [0-9]' $A/pids && grep -q '^mgr.x [0-9]' $A/pids && grep -q '^osd.0 [0-9]' $A/pids"
osd0=$(osd_pid 0)
check_eq "osd-pid matches the pids file" "$osd0" "$(awk '$1=="osd.0"{print $2}' "$A/pids")"
check "osd.0 cmdline contains '-i 0'" \
    bash -c "tr '\0' ' ' </proc/$osd0/cmdline | grep -qE -- '(^| )-i 0( |$)'"
check "mon port is outside 6800-7300" \
    bash -c "p=${CEPH_MON_PORT:-0}; [ \$p -lt 6800 ] || [ \$p -gt 7300 ]"
check "all PGs active+clean (ceph pg stat)" \
    bash -c "ceph pg stat -f json | jq -e '.pg_summary.num_pgs == 8 and .pg_summary.num_pg_by_state == [{\"name\":\"active+clean\",\"num\":8}]'"
check "admin sockets, logs, crash dir live in DIR" \
    test -S "$A/run/ceph-osd.0.asok" -a -S "$A/run/ceph-mon.a.asok" -a -f "$A/log/osd.0.log" -a -d "$A/crash"

# ------------------------------------------------------------ rados bench
before=$(perf_counter 0 osd op_w)
bench=$(rados bench -p "$POOL" 5 write -b 4096 -t 16 --no-cleanup 2>&1)
rc=$?
after=$(perf_counter 0 osd op_w)
writes=$(awk -F: '/^Total writes made/ { gsub(/ /, "", $2); print $2 }' <<<"$bench")
check_eq "rados bench write exits 0" "$rc" 0
if [ "${writes:-0}" -gt 0 ] 2>/dev/null; then
    pass "rados bench write: Total writes made = $writes"
else
    fail "rados bench write: Total writes made = '${writes:-}'"
    tail -n 20 <<<"$bench"
fi
# rados bench also writes one small object, benchmark_last_metadata, after
# the timed run (that is what lets "seq" find the data): one more op_w.
check_eq "osd.0 op_w delta ($before -> $after) == writes + 1 metadata write" \
    "$((after - before))" "$((${writes:-0} + 1))"
check "benchmark_last_metadata object exists" rados -p "$POOL" stat benchmark_last_metadata

seq=$(rados bench -p "$POOL" 3 seq -t 16 2>&1)
rc=$?
reads=$(awk -F: '/^Total reads made/ { gsub(/ /, "", $2); print $2 }' <<<"$seq")
if [ "$rc" = 0 ] && [ "${reads:-0}" -gt 0 ] 2>/dev/null; then
    pass "rados bench seq: Total reads made = $reads"
else
    fail "rados bench seq (rc $rc, reads '${reads:-}')"
    tail -n 20 <<<"$seq"
fi

# ------------------------------------- cluster B, concurrently, bluestore
t0=$SECONDS
if cluster_up --store bluestore --pool other --pg 4; then
    pass "cluster B (bluestore) starts next to A ($((SECONDS - t0)) s): mon $CEPH_MON_HOST"
else
    fail "cluster B starts"
    finish
fi
B=$CLUSTER_DIR
B_CONF=$CEPH_CONF
check "A and B use different mon ports" \
    test "$(grep '^mon host' "$A_CONF")" != "$(grep '^mon host' "$B_CONF")"
check "B's block file is outside its osd data dir" test -f "$B/osd.0.block"

lib_mktemp tmpf -d
echo "object in A $RANDOM" >"$tmpf/a"
echo "object in B $RANDOM" >"$tmpf/b"
check "put into A" rados -c "$A_CONF" -p osdhist put objA "$tmpf/a"
check "put into B" rados -c "$B_CONF" -p other put objB "$tmpf/b"
check "get from A" bash -c "rados -c '$A_CONF' -p osdhist get objA - | cmp -s - '$tmpf/a'"
check "get from B" bash -c "rados -c '$B_CONF' -p other get objB - | cmp -s - '$tmpf/b'"
check "A and B are separate clusters (objA not in B)" \
    bash -c "! rados -c '$B_CONF' -p other stat objA"

# restart-osd (bluestore keeps data)
oldpid=$(osd_pid 0)
check "restart-osd on B" "$CLUSTER_SH" restart-osd "$B" 0
newpid=$(osd_pid 0)
check "restarted osd.0 has a new pid ($oldpid -> $newpid)" test "$oldpid" != "$newpid"
check "old osd.0 pid is gone" bash -c "! [[ \$(cat /proc/$oldpid/comm 2>/dev/null) == ceph-* ]]"
check "objB survives the restart" bash -c "rados -c '$B_CONF' -p other get objB - | cmp -s - '$tmpf/b'"
check "A still serves objA" bash -c "rados -c '$A_CONF' -p osdhist get objA - | cmp -s - '$tmpf/a'"
check "restart-osd refuses on memstore" bash -c "! '$CLUSTER_SH' restart-osd '$A' 0 2>/dev/null"

# ------------------------------------------------------------------- stop
for X in "$B" "$A"; do
    cp "$X/pids" "$X.pids"
    check "stop $(basename "$X")" "$CLUSTER_SH" stop "$X"
    check "no recorded pid of $(basename "$X") exists after stop" pids_gone "$X.pids"
    check "$(basename "$X") dir is gone" test ! -e "$X"
    check "stop is idempotent" "$CLUSTER_SH" stop "$X"
    rm -f "$X.pids"
done
CLUSTER_DIR=

check "stop refuses a non-cluster dir" bash -c "d=\$(mktemp -d); touch \$d/x; ! '$CLUSTER_SH' stop \$d 2>/dev/null; r=\$?; test -e \$d/x; r2=\$?; rm -rf \$d; [ \$r = 0 ] && [ \$r2 = 0 ]"

# ---------------------------------------------- SIGINT leaves nothing behind
lib_mktemp child -d
cat >"$child/child.sh" <<'EOF'
#!/usr/bin/env bash
# cluster_up, then sit in a long rados bench; gets Ctrl-C'd by the parent
source "$LIB"
cluster_up ${WRAP:+--osd-wrap "$WRAP"} >"$STATE/up.log" 2>&1 || exit 3
cp "$CLUSTER_DIR/pids" "$STATE/pids"
rados bench -p "$POOL" 120 write -b 4096 -t 4 >/dev/null 2>&1
echo "bench finished?!" >&2
exit 0
EOF

# For the start case the OSD is a stand-in that never comes up, so the
# SIGINT lands mid-way (with the real OSD a start can finish first).
HOLD=$(osd_stand_in "$child")

# Ctrl-C simulation: SIGINT to the child's whole process group. The child
# runs in its own session (setsid) with SIGINT at its default disposition
# (background jobs of a non-interactive shell start with SIGINT ignored).
sigint_case() { # WHEN: "start" (during cluster start) | "bench" (during work)
    local when=$1 s
    lib_mktemp s -d
    local wrap=
    [ "$when" = start ] && wrap=$HOLD
    LIB=$HERE/../lib.sh STATE=$s TMPDIR=$s WRAP=$wrap \
        setsid env --default-signal=INT,TERM bash "$child/child.sh" >"$s/child.out" 2>&1 &
    local cpid=$! i
    for i in $(seq 600); do
        if [ "$when" = start ]; then
            grep -qs '^osd\.0 ' "$s"/osdhist-cluster.*/pids && break
        else
            [ -f "$s/pids" ] && { sleep 1; break; }
        fi
        kill -0 "$cpid" 2>/dev/null || break
        sleep 0.05
    done
    local pids
    pids=$(cat "$s"/osdhist-cluster.*/pids 2>/dev/null)
    kill -INT -- "-$cpid"
    for _ in $(seq 300); do kill -0 "$cpid" 2>/dev/null || break; sleep 0.1; done
    wait "$cpid"
    local rc=$?
    check_eq "SIGINT during $when: child exits with 130" "$rc" 130
    if [ "$when" = start ]; then
        check "SIGINT during start: cluster.sh start was interrupted mid-way" \
            grep -q 'start failed or interrupted' "$s/up.log"
    fi
    if [ -z "$pids" ]; then
        fail "SIGINT during $when: child had recorded no pids (too late/early?)"
    else
        echo "$pids" >"$s.pids"
        check "SIGINT during $when: no recorded pid left ($(wc -l <"$s.pids") recorded)" pids_gone "$s.pids"
        rm -f "$s.pids"
    fi
    local left
    left=$(ceph_procs_under "$s/osdhist-cluster")
    if [ -z "$left" ]; then
        pass "SIGINT during $when: no ceph process with the cluster dir in its cmdline"
    else
        fail "SIGINT during $when: ceph processes left: $left"
    fi
    check "SIGINT during $when: cluster dir removed" \
        bash -c "! ls -d '$s'/osdhist-cluster.* 2>/dev/null"
    [ "$rc" = 130 ] || sed 's/^/    child: /' "$s/child.out" "$s/up.log" 2>/dev/null | tail -n 20
}
sigint_case start
sigint_case bench

check "nothing under /etc/ceph /var/lib/ceph /var/log/ceph /run/ceph was modified" \
    bash -c "[ -z \"\$(find /etc/ceph /var/lib/ceph /var/log/ceph /run/ceph -newer '$stamp' 2>/dev/null)\" ]"

finish
