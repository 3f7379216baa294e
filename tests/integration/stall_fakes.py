#!/usr/bin/python3
"""Fake OSDs that osdhist traces, with admin sockets that stall it:

  stall_fakes.py DIR FIRST_ID N DELAY_MS BIG_BYTES

Starts N + 2 processes running the real /usr/bin/ceph-osd binary with
--id FIRST_ID .. FIRST_ID+N, each stopped before its first instruction, so
no OSD starts: the child asks to be traced (PTRACE_TRACEME) and execs, and
the kernel stops it right after the exec; this process, its tracer, never
lets it go on.  Its comm, command line and binary are those of a real OSD
(osdhist attaches to that binary: the fakes are traced), and it holds,
inherited, a listening socket DIR/ceph-osd.ID.asok: asok_find() finds it
as it finds a real one, among the process's fds.  This process serves all
of those sockets: the first N answer a perf dump after DELAY_MS with the
"osd" counters of an idle OSD; the last answers at once with a valid perf
dump of BIG_BYTES bytes.  The last one, FIRST_ID+N+1, is not traced: it
runs DIR/ceph-osd, a copy of /bin/sleep (osdhist refuses the binary), and
its socket answers at once with idle counters.  Then two more traced
fakes with no socket, whose config is the trap: FIRST_ID+N+2 has -c
DIR/fifo.conf (a FIFO: an open() for reading would wait for a writer for
ever) and FIRST_ID+N+3 -c /dev/zero (a read would never end).  Every connection is
logged as "conn ID PID" (the client's pid) in DIR/conns.  "ready PIDS" on stdout when all are up.  SIGTERM: the fakes are killed (SIGKILL, before this tracer exits, or they
would run) and it exits.  Were one let go anyway, its -c names no file and
ceph-osd exits at once.
"""
import asyncio
import ctypes
import json
import os
import signal
import socket
import sys

PTRACE_TRACEME = 0
IDLE = {"osd": {"op_r": 0, "op_w": 0, "op_rw": 0, "subop_w": 0}}


def start_fake(exe, osd_id, lsock, conf="/nonexistent/osdhist-fake.conf"):
    libc = ctypes.CDLL(None, use_errno=True)
    pid = os.fork()
    if pid:
        return pid
    try:
        if lsock:
            os.set_inheritable(lsock.fileno(), True)
        if libc.ptrace(PTRACE_TRACEME, 0, None, None) != 0:
            os._exit(120)
        os.execv(exe, ["ceph-osd", "-f", "--id", str(osd_id), "-c", conf])
    finally:
        os._exit(121)


def body_of(size):
    if not size:
        return json.dumps(IDLE).encode()
    head = json.dumps(IDLE)[:-2] + ', "pad": "'
    tail = '"}}'
    return (head + "x" * (size - len(head) - len(tail)) + tail).encode()


async def serve(lsock, osd_id, delay, body, log):
    loop = asyncio.get_running_loop()

    async def one(conn, t_acc):
        try:
            buf = b""
            while b"\0" not in buf:
                chunk = await loop.sock_recv(conn, 4096)
                if not chunk:
                    return
                buf += chunk
            if delay:	# from the accept: this process may be slow to read
                await asyncio.sleep(max(0, t_acc + delay - loop.time()))
            await loop.sock_sendall(conn, len(body).to_bytes(4, "big"))
            await loop.sock_sendall(conn, body)
        except OSError:
            pass
        finally:
            conn.close()

    while True:
        conn, _ = await loop.sock_accept(lsock)
        t_acc = loop.time()
        conn.setblocking(False)
        cred = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
        print(f"conn {osd_id} {int.from_bytes(cred[:4], 'little')}", file=log, flush=True)
        loop.create_task(one(conn, t_acc))


async def main(d, first, n, delay_ms, big):
    socks, pids = [], []
    sleep_copy = os.path.join(d, "ceph-osd")
    with open("/bin/sleep", "rb") as src, open(sleep_copy, "wb") as dst:
        dst.write(src.read())
    os.chmod(sleep_copy, 0o755)
    for i in range(n + 2):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        path = os.path.join(d, f"ceph-osd.{first + i}.asok")
        if os.path.exists(path):
            os.unlink(path)
        s.bind(path)
        s.listen(128)
        socks.append(s)
    for i, s in enumerate(socks):
        pids.append(start_fake(sleep_copy if i == n + 1 else "/usr/bin/ceph-osd",
                               first + i, s))
    fifo = os.path.join(d, "fifo.conf")
    os.mkfifo(fifo)
    pids.append(start_fake("/usr/bin/ceph-osd", first + n + 2, None, fifo))
    pids.append(start_fake("/usr/bin/ceph-osd", first + n + 3, None, "/dev/zero"))
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, done.set)
    loop.add_signal_handler(signal.SIGINT, done.set)
    with open(os.path.join(d, "conns"), "a") as log:
        for i, s in enumerate(socks):
            s.setblocking(False)
            loop.create_task(serve(s, first + i, delay_ms / 1000 if i < n else 0,
                                   body_of(big if i == n else 0), log))
        print("ready " + " ".join(map(str, pids)), flush=True)
        try:
            await done.wait()
        finally:
            for p in pids:
                os.kill(p, signal.SIGKILL)
            for p in pids:
                os.waitpid(p, 0)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                     int(sys.argv[4]), int(sys.argv[5])))
