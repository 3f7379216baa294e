#!/usr/bin/python3
"""Fake OSDs whose root holds a FUSE mount that stops answering (issue 37):

  unshare -m --propagation private fuse_stall.py DIR FIRST_ID

In a mount namespace of its own, mounts at DIR/mnt a FUSE file system of
two files, ceph.conf (a config naming an fsid) and ceph-osd (the bytes of
/usr/bin/ceph-osd), then starts two fake OSDs, each stopped right after
its exec (PTRACE_TRACEME, as in stall_fakes.py: no OSD starts):

  FIRST_ID    /usr/bin/ceph-osd -f --id FIRST_ID -c DIR/mnt/ceph.conf
              its binary the host's (osdhist traces it), its config on
              the mount
  FIRST_ID+1  DIR/mnt/ceph-osd -f --id FIRST_ID+1 -c /nonexistent
              its binary on the mount

Then every request to the mount waits for ever: a lookup, a stat, an
open or a read of anything there blocks whoever makes it, in the kernel.
Prints "ready PID_A PID_B" once that is so.  On SIGTERM (or SIGINT) the
fakes are killed and this process exits, which aborts every request still
waiting on the mount (the kernel ends a FUSE connection when the last
holder of its device goes: the fakes do not hold it).
"""
import ctypes
import errno
import os
import signal
import stat
import sys
import threading
import time

import fusepy

PTRACE_TRACEME = 0
PR_SET_PDEATHSIG = 1
stalled = threading.Event()


class Stalling(fusepy.Operations):
    def __init__(self, files):
        self.files = files

    def _gate(self):
        if stalled.is_set():
            threading.Event().wait()	# for ever

    def getattr(self, path, fh=None):
        self._gate()
        if path == "/":
            return {"st_mode": stat.S_IFDIR | 0o755, "st_nlink": 2}
        data = self.files.get(path[1:])
        if data is None:
            raise fusepy.FuseOSError(errno.ENOENT)
        return {"st_mode": stat.S_IFREG | 0o755, "st_nlink": 1, "st_size": len(data)}

    def readdir(self, path, fh):
        self._gate()
        return [".", ".."] + list(self.files)

    def open(self, path, flags):
        self._gate()
        if path[1:] not in self.files:
            raise fusepy.FuseOSError(errno.ENOENT)
        return 0

    def read(self, path, size, offset, fh):
        self._gate()
        return self.files[path[1:]][offset:offset + size]

    def statfs(self, path):
        self._gate()
        return {"f_bsize": 4096, "f_blocks": 0, "f_bavail": 0, "f_bfree": 0}


def start_fake(exe, osd_id, conf):
    libc = ctypes.CDLL(None, use_errno=True)
    pid = os.fork()
    if pid:
        return pid
    try:
        # killed with us, whatever kills us: let go, it would run, and
        # block on the mount for ever itself
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL) != 0:
            os._exit(122)
        # not the FUSE device: a fake holding it would keep the mount's
        # connection, and every request waiting on it, alive after us
        os.closerange(3, 65536)
        signal.pthread_sigmask(signal.SIG_SETMASK, set())
        if libc.ptrace(PTRACE_TRACEME, 0, None, None) != 0:
            os._exit(120)
        os.execv(exe, ["ceph-osd", "-f", "--id", str(osd_id), "-c", conf])
    finally:
        os._exit(121)


def main(d, first):
    mnt = os.path.join(d, "mnt")
    os.makedirs(mnt, exist_ok=True)
    with open("/usr/bin/ceph-osd", "rb") as f:
        osd = f.read()
    conf = b"[global]\nfsid = 0a0b0c0d-1111-2222-3333-444455556666\n"
    pids = []

    def setup():
        for _ in range(600):
            if os.path.ismount(mnt):
                break
            time.sleep(0.05)
        else:
            print("mount did not appear", file=sys.stderr, flush=True)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        pids.append(start_fake("/usr/bin/ceph-osd", first, os.path.join(mnt, "ceph.conf")))
        pids.append(start_fake(os.path.join(mnt, "ceph-osd"), first + 1, "/nonexistent"))
        for p in pids:	# each stopped after its exec: the binary was read
            os.waitpid(p, os.WUNTRACED)
        stalled.set()
        print("ready " + " ".join(map(str, pids)), flush=True)
        # the fakes' PR_SET_PDEATHSIG fires when the thread that forked
        # them ends, not the process: this one stays
        threading.Event().wait()

    def quit_on_signal():
        signal.sigwait({signal.SIGTERM, signal.SIGINT})
        for p in pids:
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
        # not libfuse's teardown: it would wait for the handlers that wait
        # for ever.  Exiting closes the FUSE device, which ends the mount's
        # connection and every request waiting on it.
        os._exit(0)

    # SIGTERM and SIGINT for quit_on_signal alone: blocked in every thread
    # (libfuse's included, started after this), waited for in that one
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    threading.Thread(target=quit_on_signal, daemon=True).start()
    threading.Thread(target=setup, daemon=True).start()
    fusepy.FUSE(Stalling({"ceph.conf": conf, "ceph-osd": osd}), mnt,
                foreground=True, nothreads=False, attr_timeout=1.0,
                entry_timeout=1.0)
    os._exit(1)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]))
