#!/usr/bin/python3
"""Client load for tests/integration/test_flood.sh, through librados.

  rados_load.py put N              write objects canary.0 .. canary.N-1
  rados_load.py writes TAG N       write N new objects canary.TAG.0 .. N-1
  rados_load.py mixed TAG N        the same, then stat each, then take and
                                   drop an exclusive lock on each (class
                                   calls lock.lock, lock.unlock: op_rw)
  rados_load.py canary N OPS       stat canary.0 .. canary.N-1 in turn, OPS times
  rados_load.py canary N --secs S  the same for S seconds
  rados_load.py flood SECS DEPTH   stat missing objects for SECS seconds,
                                   DEPTH of them in flight at a time
  rados_load.py flood-until FILE DEPTH MIN_OPS CAP_SECS
                                   the same until FILE exists and MIN_OPS
                                   were sent (the caller decides how long it
                                   lasts); fails after CAP_SECS
  rados_load.py paced RATE SECS OBJ...
                                   stat the objects OBJ... in turn, RATE per
                                   second, for SECS seconds

The cluster is $CEPH_CONF, the pool $POOL. Each command prints one result
line, "ops N secs S" (flood: "ops N enoent N other N secs S"), and exits
non-zero if any op did not end as expected (a canary stat that fails, a
flood stat that does not fail with ENOENT). flood first prints "flooding"
once it is connected, so the caller knows the flood has begun.

Run it with /usr/bin/python3: python3-rados is a Debian package, and another
python3 first on PATH (pyenv, venv) does not see it.
"""
import errno
import os
import sys
import time

import rados


def connect():
    cluster = rados.Rados(conffile=os.environ["CEPH_CONF"])
    # an op to a vanished cluster fails instead of hanging for ever
    cluster.conf_set("rados_osd_op_timeout", "60")
    cluster.connect(timeout=30)
    return cluster, cluster.open_ioctx(os.environ["POOL"])


def put(ioctx, n):
    for i in range(n):
        ioctx.write_full(f"canary.{i}", b"data")
    return f"ops {n}"


def canary(ioctx, n, ops=None, secs=None):
    """Synchronous stats of existing objects: one op in flight, so when this
    returns every op it sent has been answered (and counted by the OSD)."""
    done = 0
    t0 = time.monotonic()
    deadline = t0 + secs if secs is not None else None
    while (done < ops) if ops is not None else (time.monotonic() < deadline):
        size, _ = ioctx.stat(f"canary.{done % n}")
        if size != 4:
            sys.exit(f"canary.{done % n}: size {size}, want 4")
        done += 1
    return f"ops {done} secs {time.monotonic() - t0:.3f}"


def paced(ioctx, rate, secs, objs):
    """A steady load that does not saturate the OSD: its rate does not
    depend on whether probes are attached (sampling tests)."""
    done = 0
    t0 = time.monotonic()
    due = t0
    while time.monotonic() < t0 + secs:
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        ioctx.stat(objs[done % len(objs)])
        done += 1
        due += 1.0 / rate
    return f"ops {done} secs {time.monotonic() - t0:.3f}"


def flood(ioctx, secs, depth, stop_file=None, min_ops=0):
    """Stats of objects that do not exist, DEPTH in flight at a time: every
    one ends on the OSD's early-reject path (ENOENT), never in op_r.  With
    STOP_FILE: until it exists and MIN_OPS were sent, SECS only a cap."""
    sent = enoent = other = 0
    print("flooding", flush=True)
    t0 = time.monotonic()

    def going():
        if stop_file is None:
            return time.monotonic() < t0 + secs
        if time.monotonic() >= t0 + secs:
            sys.exit(f"flood-until: {stop_file} did not appear within {secs} s")
        return sent < min_ops or not os.path.exists(stop_file)

    while going():
        batch = [ioctx.aio_stat(f"missing.{os.getpid()}.{sent + i}",
                                lambda *_: None) for i in range(depth)]
        sent += depth
        for c in batch:
            c.wait_for_complete()
            if c.get_return_value() == -errno.ENOENT:
                enoent += 1
            else:
                other += 1
    line = f"ops {sent} enoent {enoent} other {other} secs {time.monotonic() - t0:.3f}"
    if other:
        print(line, flush=True)
        sys.exit(f"{other} stats of missing objects did not fail with ENOENT")
    return line


def main(argv):
    if len(argv) < 3 or argv[1] not in ("put", "writes", "mixed", "canary", "flood",
                                        "flood-until", "paced"):
        sys.exit(__doc__)
    cluster, ioctx = connect()
    try:
        if argv[1] == "put":
            out = put(ioctx, int(argv[2]))
        elif argv[1] == "writes":
            for i in range(int(argv[3])):
                ioctx.write_full(f"canary.{argv[2]}.{i}", b"x")
            out = f"ops {argv[3]}"
        elif argv[1] == "mixed":
            objs = [f"canary.{argv[2]}.{i}" for i in range(int(argv[3]))]
            for o in objs:
                ioctx.write_full(o, b"x")
            for o in objs:
                ioctx.stat(o)
            for o in objs:
                ioctx.lock_exclusive(o, "l", "c")
                ioctx.unlock(o, "l", "c")
            out = f"ops {4 * len(objs)}"
        elif argv[1] == "canary" and argv[3:4] == ["--secs"]:
            out = canary(ioctx, int(argv[2]), secs=float(argv[4]))
        elif argv[1] == "canary":
            out = canary(ioctx, int(argv[2]), ops=int(argv[3]))
        elif argv[1] == "paced":
            if len(argv) < 5:
                sys.exit(__doc__)
            out = paced(ioctx, float(argv[2]), float(argv[3]), argv[4:])
        elif argv[1] == "flood-until":
            if len(argv) < 6:
                sys.exit(__doc__)
            out = flood(ioctx, float(argv[5]), int(argv[3]), stop_file=argv[2],
                        min_ops=int(argv[4]))
        else:
            out = flood(ioctx, float(argv[2]), int(argv[3]))
        print(out, flush=True)
    finally:
        ioctx.close()
        cluster.shutdown()


if __name__ == "__main__":
    main(sys.argv)
