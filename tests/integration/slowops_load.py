#!/usr/bin/python3
"""Client workloads for osdhist's slowest ops (tests/integration/test_slowops.sh).

  slowops_load.py mixed SMALL BIG   SMALL 4 KiB writes to objects
                                    "small.PID.N" (8 in flight) while, at the
                                    same time, BIG 4 MiB write_full of the
                                    objects "big.PID.N" (one in flight)
  slowops_load.py names             three messages whose object names test
                                    the output: a write_full of a 70-byte
                                    name, a write_full of a name with control
                                    bytes, quote, backslash, %, : and /, and a
                                    stat of a missing object with such a
                                    name (fails: ENOENT, class error)

The cluster is $CEPH_CONF, the pool $POOL.  Every call waits for its reply,
so once this exits the OSD has finished every op.  It prints ONE JSON
object: "client" (client.N, this client), "pool_id", and "objects":
{shown: {"op": op, "len": bytes}} for every message sent, where shown is
the name as osdhist must print it: as Ceph's hobject_t printing escapes it
(%, /, :, bytes below 0x20 or from 0x7f as %xx), and past 64 bytes cut with
" (+N bytes)".  Exit 1, with the cause on stderr, if an op's
outcome was not the planned one.

Run it with /usr/bin/python3: python3-rados is a Debian package.
"""
import errno
import json
import os
import sys
import threading

import rados


KEPT = 64	# maps/osdhist.h: SLOW_NAME_BYTES


def shown(name):
    out = "".join("%%%02x" % c if c < 0x20 or c >= 0x7f or c in b"%/:" else chr(c)
                  for c in name[:KEPT])
    return out + (" (+%d bytes)" % (len(name) - KEPT) if len(name) > KEPT else "")


def note(objects, name, op):
    objects[shown(name)] = {"op": op, "len": len(name)}


def mixed(io, small, big, objects):
    tag = os.getpid()
    bad = []

    def bigs():
        data = b"B" * (4 << 20)
        for i in range(big):
            name = "big.%d.%d" % (tag, i)
            io.write_full(name, data)
            note(objects, name.encode(), "writefull")

    t = threading.Thread(target=bigs)
    t.start()
    data = b"s" * 4096
    done = []
    for i in range(small):
        name = "small.%d.%d" % (tag, i)
        done.append(io.aio_write(name, data, 0))
        note(objects, name.encode(), "write")
        if len(done) >= 8:
            done.pop(0).wait_for_complete()
    for c in done:
        c.wait_for_complete()
    t.join()
    return bad


def names(io, objects):
    tag = os.getpid()
    bad = []
    # librados takes names as str and sends them UTF-8: the 8-bit bytes
    # are those of the é
    long = "long.%d." % tag
    long += "x" * (70 - len(long))
    ctl = "ctl.%d.\n\x1b[31m\"\\%%:/\x7f\u00e9" % tag
    missing = ctl + ".missing"
    io.write_full(long, b"l")
    note(objects, long.encode(), "writefull")
    io.write_full(ctl, b"c")
    note(objects, ctl.encode(), "writefull")
    try:
        io.stat(missing)
        bad.append("stat of a missing object did not fail")
    except rados.ObjectNotFound:
        pass
    note(objects, missing.encode(), "stat")
    return bad


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("mixed", "names"):
        print(__doc__, file=sys.stderr)
        return 2
    cluster = rados.Rados(conffile=os.environ["CEPH_CONF"])
    cluster.conf_set("rados_osd_op_timeout", "60")
    cluster.connect()
    pool = os.environ["POOL"]
    io = cluster.open_ioctx(pool)
    objects = {}
    if sys.argv[1] == "mixed":
        bad = mixed(io, int(sys.argv[2]), int(sys.argv[3]), objects)
    else:
        bad = names(io, objects)
    out = {"client": "client.%d" % cluster.get_instance_id(),
           "pool_id": cluster.pool_lookup(pool), "objects": objects}
    io.close()
    cluster.shutdown()
    print(json.dumps(out))
    for b in bad:
        print("slowops_load.py: " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
