#!/bin/bash
# Container: the OSD runs in its own mount namespace, from a ceph-osd that
# exists only there (a private tmpfs), as in a container.  osdhist (no -p)
# must find it and attach through /proc/PID/exe, and count its ops exactly.
# A restart (same wrapper, a new namespace and a new copy) is followed too.
. "$(dirname "$0")/../lib.sh"

K=50		# canary writes after the restart
# An empty dir on the host; inside the OSD's namespace a tmpfs holding its
# ceph-osd is mounted over it.  The wrapper gets "BIN ARGS..." appended,
# drops BIN and execs the private copy (so the recorded pid is ceph-osd's).
lib_mktemp PRIV -d
WRAP="unshare -m --propagation private sh -c 'mount -t tmpfs none $PRIV &&
	cp /usr/bin/ceph-osd $PRIV/ && shift && exec $PRIV/ceph-osd \"\$@\"' sh"
ID=$(random_first_id)
cluster_up --store bluestore --first-id "$ID" --osd-wrap "$WRAP" || { fail "cluster starts"; finish; }

# osd.$ID runs PID as a container would: ceph-osd itself, in another mount
# namespace, from a path that does not exist on the host.
check_contained() { # MSG PID
	check_eq "$1: the recorded pid $2 is ceph-osd itself" "$(cat "/proc/$2/comm")" ceph-osd
	check_eq "$1: it runs $PRIV/ceph-osd" "$(readlink "/proc/$2/exe")" "$PRIV/ceph-osd"
	check "$1: $PRIV/ceph-osd does not exist outside its namespace" [ ! -e "$PRIV/ceph-osd" ]
	check "$1: it has a mount namespace of its own" \
		[ "$(readlink "/proc/$2/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ]
}
PID=$(osd_pid "$ID")
check_contained "start" "$PID"

oh_start --osd "$ID" 1
# osdhist names the binary by the path the process sees, and its inode
attached() { # PID
	grep -q "attached to ceph-osd $PRIV/ceph-osd (build-id [0-9a-f]*, inode $(stat -L -c %i "/proc/$1/exe")) seen in pid $1" "$TERR"
}
# The loader rescans /proc every second and derives the offsets of a new
# binary before it attaches: wait for its line, 60 s at most (it takes
# about a second; a loaded machine may take many).
wait_attached() { # PID
	local deadline=$((SECONDS + 60))
	until attached "$1"; do
		[ $SECONDS -lt $deadline ] && kill -0 "$TPID" 2>/dev/null || return 1
		sleep 0.1
	done
}
wait_attached "$PID"
check "osdhist attached to the private binary of pid $PID" attached "$PID"

d() { echo $(($(jq ".osd.$1" <<<"$after") - $(jq ".osd.$1" <<<"$before"))); }

# --- rados bench write, then seq: op_w, op_r (and op_rw, 0) exact.
before=$(perf_dump "$ID")
l0=$(oh_snap) || { fail "snapshot"; finish; }
rados -p "$POOL" bench 3 write -b 4096 -t 16 --no-cleanup >/dev/null || fail "bench write"
rados -p "$POOL" bench 3 seq -t 16 >/dev/null || fail "bench seq"
after=$(perf_dump "$ID")
l1=$(oh_snap) || { fail "snapshot"; finish; }
for pair in "r read" "w write" "rw rw"; do
	read -r c cls <<<"$pair"
	check_eq "bench: osdhist $cls of osd.$ID = op_$c delta ($(d "op_$c"))" \
		"$(oh_count "$l0" "$l1" "$ID" "$cls")" "$(d "op_$c")"
done
# time-boxed benches: how many ops they make depends on the load; the
# counts above must only not be trivially equal
check "bench: both reads ($(d op_r)) and writes ($(d op_w)) were done" [ "$(d op_r)" -gt 0 -a "$(d op_w)" -gt 0 ]
echo "# bench: osdhist error ops of osd.$ID: $(oh_count "$l0" "$l1" "$ID" error)"

# --- restart: the same wrapper again (a new namespace, a new copy, so a new
# inode that osdhist must find); K canary writes exact.
check "restart-osd reuses the wrapper" "$CLUSTER_SH" restart-osd "$CLUSTER_DIR" "$ID"
NEW=$(osd_pid "$ID")
check_contained "restart" "$NEW"
wait_attached "$NEW"
check "osdhist attached to the private binary of the new pid $NEW" attached "$NEW"
w0=$(perf_counter "$ID" osd op_w)
l0=$(oh_snap) || { fail "snapshot"; finish; }
# /usr/bin/python3: the Debian python3-rados module is not on another
# python's path.
/usr/bin/python3 - "$CEPH_CONF" "$POOL" "$K" <<'EOF' || fail "canary writes"
import sys, rados
conf, pool, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
with rados.Rados(conffile=conf) as c, c.open_ioctx(pool) as io:
    for i in range(k):
        io.write_full("canary.%d" % i, b"x")
EOF
w1=$(perf_counter "$ID" osd op_w)
l1=$(oh_snap) || { fail "snapshot"; finish; }
check_eq "restart: op_w delta = $K canaries" "$((w1 - w0))" "$K"
check_eq "restart: osdhist writes of osd.$ID = op_w delta" "$(oh_count "$l0" "$l1" "$ID" write)" "$((w1 - w0))"

kill -INT "$TPID"
wait "$TPID"
check_eq "osdhist exits 0 on SIGINT" "$?" 0
sed 's/^/    | /' "$TERR"
echo "# health at the end: $(tail -n 1 "$TOUT")"
check "osd.$ID survived" kill -0 "$NEW"
finish
