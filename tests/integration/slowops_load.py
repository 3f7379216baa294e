#!/usr/bin/python3
"""Client workloads for osdhist's slowest ops (tests/integration/test_slowops.sh).

  slowops_load.py mixed SMALL BIG   SMALL 4 KiB writes to objects
                                    "small.PID.N" (8 in flight) while, at the
                                    same time, BIG 4 MiB write_full of the
                                    objects "big.PID.N" (one in flight)
  slowops_load.py names             four messages whose objects test the
                                    output: a write_full of a 70-byte
                                    name, a write_full of a name with control
                                    bytes, quote, backslash, %, : and /, a
                                    stat of a missing object with such a
                                    name (fails: ENOENT, class error), and a
                                    write_full in a namespace with : / tab
                                    and %, with a 40-byte locator key
  slowops_load.py snapprep          writes the object "snap.PID" and makes
                                    the pool snapshot "s.PID": objects is
                                    {"prep": {"name", "snap_id"}}
  slowops_load.py snapread NAME ID  one stat of NAME as of snapshot ID

The cluster is $CEPH_CONF, the pool $POOL.  Every call waits for its reply,
so once this exits the OSD has finished every op.  It prints ONE JSON
object: "client" (client.N, this client), "pool_id", and "objects":
{shown: {"op", "class", "len", "nspace_len", "key_len", "object"}} for every
message sent, where shown is the name as osdhist must print it: as Ceph's
hobject_t printing escapes it (%, /, :, bytes below 0x20 or from 0x7f as
%xx), and past 64 bytes cut with " (+N bytes)"; "object" is the whole
hobject_t as osdhist must print it, HASH standing for the hash (namespace
and key past 32 bytes cut, the bytes cut in all three counted at the end).  Exit 1, with the cause on stderr, if an op's
outcome was not the planned one.

Run it with /usr/bin/python3: python3-rados is a Debian package.
"""
import errno
import json
import os
import sys
import threading

import rados


KEPT, LOC_KEPT = 64, 32	# maps/osdhist.h: SLOW_NAME_BYTES, SLOW_LOC_BYTES


def escaped(s, kept):
    return "".join("%%%02x" % c if c < 0x20 or c >= 0x7f or c in b"%/:" else chr(c)
                   for c in s[:kept])


def cut(n):
    return " (+%d bytes)" % n if n else ""


def shown(name):
    return escaped(name, KEPT) + cut(max(0, len(name) - KEPT))


def note(objects, pool_id, name, op, ns=b"", key=b"", snap="head", cls="write"):
    """What osdhist must print of the op's object: its name alone, and
    the hobject_t as Ceph prints it (HASH for the hash)."""
    lost = sum(max(0, len(s) - k) for s, k in ((name, KEPT), (ns, LOC_KEPT), (key, LOC_KEPT)))
    objects[shown(name)] = {
        "op": op, "class": cls, "len": len(name), "nspace_len": len(ns), "key_len": len(key),
        "object": "%d:HASH:%s:%s:%s:%s%s" % (pool_id, escaped(ns, LOC_KEPT),
                                            escaped(key, LOC_KEPT), escaped(name, KEPT),
                                            snap, cut(lost))}


def mixed(io, pid, small, big, objects):
    tag = os.getpid()
    bad = []

    def bigs():
        data = b"B" * (4 << 20)
        for i in range(big):
            name = "big.%d.%d" % (tag, i)
            io.write_full(name, data)
            note(objects, pid, name.encode(), "writefull")

    t = threading.Thread(target=bigs)
    t.start()
    data = b"s" * 4096
    done = []
    for i in range(small):
        name = "small.%d.%d" % (tag, i)
        done.append(io.aio_write(name, data, 0))
        note(objects, pid, name.encode(), "write")
        if len(done) >= 8:
            done.pop(0).wait_for_complete()
    for c in done:
        c.wait_for_complete()
    t.join()
    return bad


def names(io, pid, objects):
    tag = os.getpid()
    bad = []
    # librados takes names as str and sends them UTF-8: the 8-bit bytes
    # are those of the é
    long = "long.%d." % tag
    long += "x" * (70 - len(long))
    ctl = "ctl.%d.\n\x1b[31m\"\\%%:/\x7f\u00e9" % tag
    missing = ctl + ".missing"
    io.write_full(long, b"l")
    note(objects, pid, long.encode(), "writefull")
    io.write_full(ctl, b"c")
    note(objects, pid, ctl.encode(), "writefull")
    try:
        io.stat(missing)
        bad.append("stat of a missing object did not fail")
    except rados.ObjectNotFound:
        pass
    note(objects, pid, missing.encode(), "stat", cls="error")
    # a namespace and a locator key, as RGW and RBD namespaces use them:
    # Ceph prints them before the name, escaped alike; the key is longer
    # than osdhist keeps
    ns = "ns:%d/\t%%" % tag
    key = "key.%d." % tag
    key += "k" * (40 - len(key))
    loc = "loc.%d" % tag
    io.set_namespace(ns)
    io.set_locator_key(key)
    io.write_full(loc, b"n")
    io.set_locator_key("")
    io.set_namespace("")
    note(objects, pid, loc.encode(), "writefull", ns.encode(), key.encode())
    return bad


def snap_prep(io, objects):
    """An object, then a pool snapshot of it: what snap_read reads."""
    tag = os.getpid()
    name, snap = "snap.%d" % tag, "s.%d" % tag
    io.write_full(name, b"s")
    io.create_snap(snap)
    objects["prep"] = {"name": name, "snap_id": io.lookup_snap(snap).snap_id}
    return []


def snap_read(io, pid, name, snap_id, objects):
    """A stat of name as it was at snap_id: Ceph prints the snap in hex."""
    io.set_read(snap_id)
    io.stat(name)
    io.set_read(rados.LIBRADOS_SNAP_HEAD)
    note(objects, pid, name.encode(), "stat", snap="%x" % snap_id, cls="read")
    return []


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("mixed", "names", "snapprep", "snapread"):
        print(__doc__, file=sys.stderr)
        return 2
    cluster = rados.Rados(conffile=os.environ["CEPH_CONF"])
    cluster.conf_set("rados_osd_op_timeout", "60")
    cluster.connect()
    pool = os.environ["POOL"]
    io = cluster.open_ioctx(pool)
    pid = cluster.pool_lookup(pool)
    objects = {}
    if sys.argv[1] == "mixed":
        bad = mixed(io, pid, int(sys.argv[2]), int(sys.argv[3]), objects)
    elif sys.argv[1] == "names":
        bad = names(io, pid, objects)
    elif sys.argv[1] == "snapprep":
        bad = snap_prep(io, objects)
    else:
        bad = snap_read(io, pid, sys.argv[2], int(sys.argv[3]), objects)
    out = {"client": "client.%d" % cluster.get_instance_id(),
           "pool_id": pid, "objects": objects}
    io.close()
    cluster.shutdown()
    print(json.dumps(out))
    for b in bad:
        print("slowops_load.py: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
