#!/bin/bash
# Issue 23, "paths resolve on the host" and the config stalls: processes
# named ceph-osd, each chrooted in a mount namespace of its own, plant
# paths that point out of their root, next to a throwaway cluster whose
# real OSD osdhist traces the whole time.  Each fake runs Debian's own
# /usr/bin/ceph-osd (so osdhist traces it: its binary is the real OSD's),
# held stopped at its exec by a ptrace parent, so it never runs a line of
# Ceph: only its root, its command line and its cwd speak.
#   A. ceph.conf an absolute symlink to a FIFO on the host: the host FIFO
#      is never opened (inotify sees no open, and a non-blocking writer
#      never finds a reader on it);
#   B. ceph.conf a FIFO inside its root, C. -c /dev/zero (a device inside
#      its root): refused, the fake unverified, snapshots keep coming;
#   D. the default socket name an absolute symlink to a listening socket on
#      the host, E. --admin-socket /../../..HOST-PATH: the host listener
#      sees 0 connections;
#   F. -c /../../..HOST-PATH to a config on the host: never opened;
#   and through all of it (one osdhist on every ceph-osd): every fake shown
#   unverified with a reason, snapshots on demand, the real OSD's write and
#   read counts exact against its perf counters, its built-in check
#   verified.  Then B and C each alone (-p): checked, snapshots on demand,
#   and SIGTERM ending osdhist within 1 s of its own shutdown.
# Not here (branch verifyasync's part of issue 23): snapshots never delayed
# by a slow admin socket, the 16 MiB answer and the 64 slow sockets.
# packages: ceph-osd ceph-mon ceph-common python3 jq util-linux
. "$(dirname "$0")/../lib.sh"

FIRST=$(random_first_id 7) || { fail "no free OSD ids"; finish; }
ID=$FIRST
cluster_up --first-id "$ID" || { fail "cluster start"; finish; }
W=$CLUSTER_DIR/hostile
mkdir -p "$W"

# --- what lives on the host, and who watches it
mkfifo "$W/host.fifo"
# what the fakes plant in their roots ($W/rN: fake N)
mkdir -p "$W/r1/etc/ceph" "$W/r2/etc/ceph" "$W/r3/dev" "$W/r4/var/run/ceph"
ln -s "$W/host.fifo" "$W/r1/etc/ceph/ceph.conf"
mkfifo "$W/r2/etc/ceph/ceph.conf"
mknod "$W/r3/dev/zero" c 1 5
ln -s "$W/host.asok" "$W/r4/var/run/ceph/ceph-osd.$((ID + 4)).asok"
printf '[osd]\n admin socket = /from-the-host.asok\n' >"$W/host.conf"
# watch.py LOG PATH: logs "open PID" for every open of PATH (fanotify
# FAN_OPEN, which names the opener: other tests' osdhist trace every
# ceph-osd of the host too, and only ours is judged).  A reader blocked in
# a FIFO's open() has not opened it yet, so for a FIFO a non-blocking
# writer tries every 20 ms: that succeeds only if a reader waits ("reader"),
# and lets the reader through, to be logged with its pid (an osdhist of
# older code stuck there goes on).  "watching" once set up.
cat >"$W/watch.py" <<'PY'
import ctypes, errno, os, select, stat, struct, sys
log, path = sys.argv[1], sys.argv[2]
fifo = stat.S_ISFIFO(os.stat(path).st_mode)
libc = ctypes.CDLL(None, use_errno=True)
# FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK | FAN_REPORT_FID: no fd is
# opened for an event (an fd of a FIFO would be an open of it)
fd = libc.fanotify_init(0x1 | 0x2 | 0x200, os.O_RDONLY)
if fd < 0:
    sys.exit("watch.py: fanotify_init: " + os.strerror(ctypes.get_errno()))
# FAN_MARK_ADD, FAN_OPEN, AT_FDCWD
if libc.fanotify_mark(fd, 0x1, ctypes.c_uint64(0x20), -100, path.encode()) < 0:
    sys.exit("watch.py: fanotify_mark: " + os.strerror(ctypes.get_errno()))
me = os.getpid()
with open(log, "w") as f:
    print("watching", file=f, flush=True)
    while True:
        if fifo:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                print("reader", file=f, flush=True)
            except FileNotFoundError:
                sys.exit(0)	# the test is over: its files are gone
            except OSError as e:
                if e.errno != errno.ENXIO:
                    raise
        if not select.select([fd], [], [], 0.02)[0]:
            continue
        buf = os.read(fd, 65536)
        while len(buf) >= 24:
            ln, _, _, _, mask, efd, pid = struct.unpack_from("=IBBHQii", buf)
            if pid != me:
                print("open %d" % pid, file=f, flush=True)
            buf = buf[ln:]
PY
cat >"$W/listen.py" <<'PY'
# A listening unix socket on the host: logs "conn PID" for every
# connection, PID the peer's (other tests' osdhist may connect too).
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1])
s.listen(64)
with open(sys.argv[2], "w") as f:
    print("listening", file=f, flush=True)
    while True:
        c, _ = s.accept()
        pid = struct.unpack("3i", c.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[0]
        print("conn %d" % pid, file=f, flush=True)
        c.close()
PY
# fake.py ROOT CWD ARGV...: /usr/bin/ceph-osd exec'd chrooted in ROOT with
# ARGV, stopped at its exec (PTRACE_TRACEME); prints its pid, holds it, and
# SIGKILLs it on SIGTERM (a tracer that just left would let it run).
cat >"$W/fake.py" <<'PY'
import ctypes, os, signal, sys
root, cwd, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
libc = ctypes.CDLL(None, use_errno=True)
pid = os.fork()
if pid == 0:
    os.chroot(root)
    os.chdir(cwd)
    if libc.ptrace(0, 0, None, None) != 0:	# PTRACE_TRACEME
        os._exit(120)
    os.execv("/usr/bin/ceph-osd", argv)
    os._exit(121)
_, st = os.waitpid(pid, 0)
if not os.WIFSTOPPED(st):
    sys.exit("fake.py: ceph-osd did not stop at its exec")
def bye(*_):
    os.kill(pid, signal.SIGKILL)
    os._exit(0)
signal.signal(signal.SIGTERM, bye)
signal.signal(signal.SIGINT, bye)
print(pid, flush=True)
while True:
    signal.pause()
PY

ready() { # FILE WORD: up to 10 s for WORD in FILE
	for _ in $(seq 100); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
	return 1
}
WATCHED="host.fifo host.conf r2/etc/ceph/ceph.conf r3/dev/zero"
for f in $WATCHED; do
	/usr/bin/python3 "$W/watch.py" "$W/${f//\//_}.log" "$W/$f" &
	ready "$W/${f//\//_}.log" watching || fail "the watcher of $f starts"
done
/usr/bin/python3 "$W/listen.py" "$W/host.asok" "$W/listen.log" &
ready "$W/listen.log" listening || fail "the host listener starts"

# --- the fakes: ids ID+1 .. ID+6, each root holding only /usr (bound, so
# its ceph-osd is the host's inode) and what it plants; $W is not in it
DOTS=/../../../../../../../../..
declare -A FPID
fake() { # N WHAT ARGS...: fake osd.(ID+N), its root made by the caller in $W/rN
	local n=$1 what=$2 r=$W/r$1; shift 2
	mkdir -p "$r/usr" "$r/etc/ceph" "$r/var/run/ceph" "$r/dev"
	for l in bin lib lib64 sbin; do [ -e "$r/$l" ] || ln -s "usr/$l" "$r/$l"; done
	unshare -m --propagation private sh -c 'mount --rbind /usr "$1/usr" || exit 1
		shift; exec /usr/bin/python3 "$@"' sh "$r" "$W/fake.py" "$r" / \
		ceph-osd --id $((ID + n)) "$@" >"$W/fake$n.pid" 2>"$W/fake$n.err" &
	ready "$W/fake$n.pid" '^[0-9]' || { fail "fake $n ($what) starts: $(cat "$W/fake$n.err")"; return; }
	FPID[$n]=$(head -1 "$W/fake$n.pid")
	echo "# fake osd.$((ID + n)) pid ${FPID[$n]}: $what"
}
fake 1 "ceph.conf -> $W/host.fifo (host)"
fake 2 "ceph.conf a FIFO in its root"
fake 3 "-c /dev/zero (in its root)" -c /dev/zero
fake 4 "its socket -> $W/host.asok (host)"
fake 5 "--admin-socket $DOTS$W/host.asok" --admin-socket "$DOTS$W/host.asok"
fake 6 "-c $DOTS$W/host.conf" -c "$DOTS$W/host.conf"
for n in 1 2 3 4 5 6; do
	p=${FPID[$n]:-0}
	check "fake $n: pid $p is ceph-osd, the host's binary, in a root of its own" \
		[ "$(cat /proc/$p/comm 2>/dev/null)" = ceph-osd -a \
		  "$(stat -L -c %i /proc/$p/exe 2>/dev/null)" = "$(stat -c %i /usr/bin/ceph-osd)" -a \
		  "$(readlink /proc/$p/root)" = "$W/r$n" ]
done
check "the host FIFO is not in fake 1's root" [ ! -e "$W/r1$W/host.fifo" ]

# --- osdhist on everything (no -p: the fakes are found by the scan)
oh_start 1
oh_wait_attached || { fail "osdhist attached"; sed 's/^/    | /' "$TERR"; finish; }
# every fake's first verify line: they are checked at all (60 s: the
# deadline of an osdhist that never checks them, or is stuck)
vline() { jq -c --argjson o "$1" 'select(.type == "verify" and .osd == $o)' "$TOUT" | tail -1; }
for n in 1 2 3 4 5 6; do
	for _ in $(seq 600); do
		[ -n "$(vline $((ID + n)))" ] && break
		kill -0 "$TPID" 2>/dev/null || break
		sleep 0.1
	done
done

# --- the real OSD, exact while the fakes are there
d() { echo $(($(jq ".osd.$1" <<<"$after") - $(jq ".osd.$1" <<<"$before"))); }
before=$(perf_dump "$ID")
l0=$(oh_snap) || { fail "a snapshot on SIGUSR1 with the fakes there"; finish; }
rados -p "$POOL" bench 3 write -b 4096 -t 16 --no-cleanup >/dev/null || fail "bench write"
rados -p "$POOL" bench 3 seq -t 16 >/dev/null || fail "bench seq"
after=$(perf_dump "$ID")
l1=$(oh_snap) || { fail "a snapshot on SIGUSR1 with the fakes there"; finish; }
for pair in "r read" "w write" "rw rw"; do
	read -r c cls <<<"$pair"
	check_eq "real osd.$ID: osdhist $cls = op_$c delta ($(d "op_$c"))" \
		"$(oh_count "$l0" "$l1" "$ID" "$cls")" "$(d "op_$c")"
done
check "real osd.$ID: both reads ($(d op_r)) and writes ($(d op_w)) were done" \
	[ "$(d op_r)" -gt 0 -a "$(d op_w)" -gt 0 ]
wait_verified "real osd.$ID" "$ID"
# (snapshots on demand with a fake: below, each fake alone.  Here the
# verifier also checks every other ceph-osd of the host, other tests'
# slow sockets among them, one after the other until branch verifyasync's
# part of issue 23: how soon a snapshot comes is theirs, not the fakes'.)

# --- every fake: unverified, with a reason
for n in 1 2 3 4 5 6; do
	v=$(vline $((ID + n)))
	r=none
	[ -z "$v" ] || r=$(jq -r '.state + ": " + .reason' <<<"$v")
	check "fake osd.$((ID + n)) unverified with a reason ($r)" grep -q '^unverified: no socket: .' <<<"$r"
	# B and C: the cause named, as asok_locate() words it
	case $n in
	2) check "fake B: the reason names the FIFO" grep -qF 'is not a regular file (fifo)' <<<"$r" ;;
	3) check "fake C: the reason names the device" \
		grep -qF 'is not a regular file (character device)' <<<"$r" ;;
	esac
done

kill -INT "$TPID"
wait "$TPID"
check_eq "osdhist exits 0 on SIGINT" "$?" 0
OURS=$TPID
no_bad_verify "real osd.$ID" "$ID"

# --- each config fake alone (-p): its verify line, snapshots on demand,
# and SIGTERM.  Alone, so that nothing else of the host (other tests' OSDs
# and fakes, which a run without -p checks too) is in its time.  The bound:
# 1 s more than osdhist takes to end on SIGTERM anyway, measured here on
# the real OSD alone (its final snapshot and the probes' detach take
# 0.6-1.3 s on this loaded VM whatever the OSD: not the fakes' doing), plus
# the run-queue wait (and steal) of osdhist's main thread and of this
# shell while it ran down (sched_wait, sampled every 10 ms until it is
# gone): time in which a loaded host ran neither of them.  A config that
# blocks a read, or a read that never ends, is over it.
term_ms() { # PID: sets MS (SIGTERM to gone) and WAITMS
	local p=$1 me=$BASHPID w0 w wl t0 t1
	qwait() { echo $(( $(awk '{print $2}' "/proc/$p/schedstat" 2>/dev/null || echo 0) +
		$(sched_wait "$me") )); }
	w0=$(qwait) wl=$w0
	t0=$(date +%s%N)
	kill -TERM "$p"
	while kill -0 "$p" 2>/dev/null && [ $(( $(date +%s%N) - t0 )) -lt 30000000000 ]; do
		w=$(qwait)
		[ "$w" -gt "$wl" ] && wl=$w
		sleep 0.01
	done
	t1=$(date +%s%N)
	MS=$(( (t1 - t0) / 1000000 )) WAITMS=$(( (wl - w0) / 1000000 ))
}
oh_start -p "$(osd_pid "$ID")" 1
OURS="$OURS $TPID"
oh_wait_attached && oh_snap >/dev/null
term_ms "$TPID"
wait "$TPID"
BASE=$((MS - WAITMS))
echo "# SIGTERM with the real OSD alone: gone in $MS ms ($WAITMS ms of run-queue wait)"
for n in 2 3; do	# (fake 1's FIFO is the watcher's, which lets a reader go)
	o=$((ID + n))
	oh_start -p "${FPID[$n]:-0}" 1
	OURS="$OURS $TPID"
	got=false
	for _ in $(seq 600); do
		[ -n "$(vline $o)" ] && { got=true; break; }
		kill -0 "$TPID" 2>/dev/null || break
		sleep 0.1
	done
	r=$(vline $o | jq -r '.state + ": " + .reason')
	check "fake $n alone (-p): checked, unverified with a reason (${r:-none})" \
		grep -q '^unverified: no socket: .' <<<"$r"
	check "fake $n alone: a snapshot on SIGUSR1 after it was checked" oh_snap
	check "fake $n alone: another one" oh_snap
	term_ms "$TPID"
	wait "$TPID"; rc=$?
	check_eq "fake $n alone: osdhist exits 0 on SIGTERM" "$rc" 0
	check "fake $n alone: SIGTERM: gone in $MS ms, within 1000 ms + $BASE ms (the real OSD's) + $WAITMS ms of run-queue wait" \
		[ $((MS - WAITMS - BASE)) -le 1000 ]
done

# --- what the host saw
# opened by our osdhist: never, not even the FIFO and the device inside
# the fakes' roots (a FIFO or a device is looked at through O_PATH only);
# opens by other processes (other tests' osdhist) printed
ours() { # LOG: its lines "open PID" / "conn PID" of our osdhist runs
	local pid n=0
	for pid in $OURS; do n=$((n + $(grep -c " $pid$" "$1"))); done
	echo $n
}
for f in $WATCHED; do
	l=$W/${f//\//_}.log
	echo "# $f: opened by other processes: $(( $(grep -c '^open' "$l") - $(ours "$l") ))," \
		"a reader found waiting $(grep -c '^reader' "$l") times"
	check_eq "$f: never opened by osdhist" "$(ours "$l")" 0
done
echo "# the host listener: $(( $(grep -c '^conn' "$W/listen.log") - $(ours "$W/listen.log") )) connections from other processes"
check_eq "the host listener got 0 connections from osdhist" "$(ours "$W/listen.log")" 0
for n in 1 2 3 4 5 6; do
	check "fake $n still held stopped at its exec (no line of Ceph run)" \
		grep -q '^State:.*t (tracing stop)' "/proc/${FPID[$n]:-0}/status"
done
sed 's/^/    | /' "$TERR" | grep -v '^    | osdhist: \(attached\|deriving\)' | head -20
finish
