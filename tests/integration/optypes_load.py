#!/usr/bin/python3
"""A client workload whose exact content per Ceph op code is known: the
oracle for osdhist's per-op-code counts (tests/integration/test_optypes_oracle.sh).

  optypes_load.py [STEP=N ...]     run every step (N times each, defaults below)
  optypes_load.py --list           print the steps and their default counts

The cluster is $CEPH_CONF, the pool $POOL.  Every message is synchronous (one
in flight): when a call returns, the OSD has finished that op.  Each step is
a fixed list of messages (one librados call = one MOSDOp); the ops in a
message are what librados puts on the wire, as Ceph's dump_historic_ops shows
them (checked on 16.2.15, 18.2.7 and 20.2.4; see historic_ops.py).  Objects
are named "optypes.PID.*", so runs on one pool do not meet.

It prints ONE JSON object:
  "client":   "client.N", this client (the historic-ops filter)
  "addr":     this client's address (the filter of the OSD's reply log)
  "pool_id":  the pool's id
  "msgs":     messages sent
  "ops":      {op name: {"ops": n, "failed": n}}   per Ceph op code
  "rval_only":{op name: n}  failed ops that sat in a message that succeeded
              (FAILOK): Ceph shows their rval nowhere (not in historic ops,
              not in the reply's log line), so a checker of Ceph's view sees
              "failed" - rval_only
  "op_type":  {name: {"msgs": n, "failed_msgs": n}}  per message "op type"
  "ceph_ops", "ceph_op_type": the same as Ceph's dump_historic_ops names
              them: a call sent in a read op (rados_exec) as plain "call"
  "op_r", "op_w", "op_rw":  messages Ceph counts in those perf counters
  "errors":   messages Ceph counts in none of them (every failed message)

Op names are Ceph's own (the strings of __CEPH_FORALL_OSD_OPS in
src/include/rados.h); a call op is named by its class method as Ceph prints
it, "call lock.lock".  A message's "op type" is its first op that is not a
pure guard or hint (assert-version, cmpxattr, omap-cmp, cmpext,
set-alloc-hint).  An op is "failed" if its own rval is < 0, or if it belongs
to a message whose reply result is < 0 (then every op of the message is
failed, even those after the failing one, which never ran).  A message's
class follows Ceph's OpInfo: it reads if one op has the RD mode bit (call
excepted) or calls a class method flagged RD; it writes if one op has the
WR bit or calls a method flagged WR; both -> op_rw; failed -> errors.

The outcome of every message is checked against the plan (e.g. the stat of a
missing object must fail with ENOENT): any surprise is named on stderr and
the exit status is 1 (the JSON is printed all the same, of what happened).

Run it with /usr/bin/python3: python3-rados is a Debian package.
"""
import errno
import json
import os
import sys

import rados

# Ceph's op codes (src/include/rados.h) of the ops this workload sends.
OP_CODES = {
    "read": 0x1201, "stat": 0x1202, "assert-version": 0x1208,
    "omap-get-keys": 0x1211, "omap-get-vals": 0x1212,
    "omap-get-vals-by-keys": 0x1214, "omap-cmp": 0x1219, "cmpext": 0x1220,
    "write": 0x2201, "writefull": 0x2202, "delete": 0x2205, "create": 0x220d,
    "omap-set-vals": 0x2215, "omap-rm-keys": 0x2218,
    "getxattr": 0x1301, "setxattr": 0x2301, "rmxattr": 0x2304,
    "call": 0x1401,
}
MODE_RD, MODE_WR = 0x1000, 0x2000
# ops that only guard or hint; a message's op type is its first other op
GUARDS = {"assert-version", "cmpxattr", "omap-cmp", "cmpext", "set-alloc-hint"}
# cls_lock's methods as the OSD classes them (CLS_METHOD_RD / _WR)
CLASS_METHODS = {"lock.lock": "rw", "lock.unlock": "rw",
                 "lock.list_locks": "r", "lock.get_info": "r",
                 "version.read": "r"}

# errnos python-rados reports for the planned failures
ENOENT, ENODATA, EINVAL, EEXIST = errno.ENOENT, errno.ENODATA, errno.EINVAL, errno.EEXIST
EOVERFLOW = errno.EOVERFLOW  # assert-version: object newer than asserted
CMP_FAIL = "cmpext mismatch"  # cmpext reports -MAX_ERRNO - offset


class Load:
    def __init__(self, ioctx, prefix):
        self.io = ioctx
        self.p = prefix
        self.base = prefix + "base"    # "data" + xattr a + omap k1, k2
        self.guard = prefix + "guard"  # target of the assert-version writes
        self.seq = 0
        self.msgs = []     # (ops, call-class names, failed, rval_only ops)
        self.surprises = []

    def name(self, what):
        self.seq += 1
        return f"{self.p}{what}.{self.seq}"

    def send(self, ops, fn, expect=None, calls=(), rval_fail=(), read_op=False):
        """One message of ops (Ceph's names, wire order); fn sends it.
        expect: None (success), an errno, or CMP_FAIL.  calls: the class
        methods of its call ops.  rval_fail: indexes of ops that fail with
        FAILOK set, inside a message that succeeds.  read_op: sent as a
        read op (rados_exec)."""
        got = None
        try:
            fn()
        except rados.Error as e:
            got = CMP_FAIL if isinstance(e, rados.ExtendMismatch) else getattr(e, "errno", None)
            if got is None:
                got = repr(e)
        if got != expect:
            self.surprises.append(f"message {ops}: got {got!r}, want {expect!r}")
        self.msgs.append((list(ops), list(calls), got is not None, set(rval_fail), read_op))

    def execute(self, cls, method, expect=None):
        """One call through rados_exec: a read op, whatever the method does."""
        self.send(["call"], lambda: self.io.execute(self.base, cls, method, b""), expect,
                  calls=[f"{cls}.{method}"], read_op=True)

    # --- steps: each sends a fixed list of messages ---------------------
    def setup(self):
        io = self.io
        self.send(["writefull"], lambda: io.write_full(self.base, b"data"))
        self.send(["setxattr"], lambda: io.set_xattr(self.base, "a", b"v"))
        self.send(["omap-set-vals"], lambda: self.omap_set(self.base, ("k1", "k2"), (b"v1", b"v2")))
        self.send(["writefull"], lambda: io.write_full(self.guard, b"g"))

    def omap_set(self, obj, keys, vals, guard=None):
        with rados.WriteOpCtx() as op:
            if guard:
                op.omap_cmp(*guard)
            self.io.set_omap(op, keys, vals)
            self.io.operate_write_op(op, obj)

    def omap_read(self, obj, what, cmp=None, failok=False):
        with rados.ReadOpCtx() as op:
            if cmp is not None:
                op.cmpext(cmp, 0)
                if failok:
                    op.set_flags(rados.LIBRADOS_OP_FLAG_FAILOK)
            # the iterators must outlive the op: librados fills them when
            # it completes (a freed one is a crash)
            its = []
            for w in what:
                if w == "vals":
                    its.append(self.io.get_omap_vals(op, "", "", 100)[0])
                elif w == "keys":
                    its.append(self.io.get_omap_keys(op, "", 100)[0])
                else:
                    its.append(self.io.get_omap_vals_by_keys(op, ("k1", "nosuchkey"))[0])
            self.io.operate_read_op(op, obj)
            for it in its:
                list(it)

    def step_writefull(self):  # a new object each time
        self.send(["writefull"], lambda: self.io.write_full(self.name("wf"), b"x" * 16))

    def step_write(self):  # partial write past "data": cmpext below still matches
        self.send(["write"], lambda: self.io.write(self.base, b"xy", 8))

    def step_read(self):
        self.send(["read"], lambda: self.io.read(self.base, 4, 0))

    def step_read_missing(self):
        self.send(["read"], lambda: self.io.read(self.name("nope")), ENOENT)

    def step_stat(self):
        self.send(["stat"], lambda: self.io.stat(self.base))

    def step_stat_missing(self):
        self.send(["stat"], lambda: self.io.stat(self.name("nope")), ENOENT)

    def step_setxattr(self):
        self.send(["setxattr"], lambda: self.io.set_xattr(self.base, "a", b"v"))

    def step_getxattr(self):
        self.send(["getxattr"], lambda: self.io.get_xattr(self.base, "a"))

    def step_getxattr_missing(self):
        self.send(["getxattr"], lambda: self.io.get_xattr(self.base, "nosuch"), ENODATA)

    def step_rmxattr(self):
        self.send(["setxattr"], lambda: self.io.set_xattr(self.base, "tmp", b"t"))
        self.send(["rmxattr"], lambda: self.io.rm_xattr(self.base, "tmp"))

    def step_omap_set(self):
        self.send(["omap-set-vals"], lambda: self.omap_set(self.base, ("k3",), (b"v3",)))

    def step_omap_get(self):
        self.send(["omap-get-vals"], lambda: self.omap_read(self.base, ["vals"]))

    def step_omap_get_by_keys(self):
        self.send(["omap-get-vals-by-keys"], lambda: self.omap_read(self.base, ["bykeys"]))

    def step_omap_get_keys(self):
        self.send(["omap-get-keys"], lambda: self.omap_read(self.base, ["keys"]))

    def step_omap_rm(self):
        def rm():
            with rados.WriteOpCtx() as op:
                self.io.remove_omap_keys(op, ("k3",))
                self.io.operate_write_op(op, self.base)
        self.send(["omap-rm-keys"], rm)

    def step_lock(self):  # cls_lock: one call each
        self.send(["call"], lambda: self.io.lock_exclusive(self.base, "l1", "c1"), calls=["lock.lock"])
        self.send(["call"], lambda: self.io.unlock(self.base, "l1", "c1"), calls=["lock.unlock"])

    def step_call_read(self):
        self.execute("lock", "list_locks")

    def step_call_fail(self):  # no input to decode: the method fails
        self.execute("lock", "get_info", EINVAL)

    def step_call_version(self):  # another class that ships with ceph-osd
        self.execute("version", "read")

    def step_call_unknown(self):  # a method cls_lock lacks, a new name each time
        self.unknown = getattr(self, "unknown", -1) + 1
        self.execute("lock", f"bound_{self.unknown}", errno.EOPNOTSUPP)

    def step_delete(self):
        obj = self.name("del")
        self.send(["writefull"], lambda: self.io.write_full(obj, b"d"))
        self.send(["delete"], lambda: self.io.remove_object(obj))

    def step_delete_missing(self):
        self.send(["delete"], lambda: self.io.remove_object(self.name("nope")), ENOENT)

    def step_create_existing(self):
        def create():
            with rados.WriteOpCtx() as op:
                op.new(rados.LIBRADOS_CREATE_EXCLUSIVE)
                self.io.operate_write_op(op, self.base)
        self.send(["create"], create, EEXIST)

    def step_multi_write(self):  # several ops in one message, like RGW's
        obj = self.name("mw")

        def multi():
            with rados.WriteOpCtx() as op:
                op.new(rados.LIBRADOS_CREATE_IDEMPOTENT)
                op.write(b"abc", 0)
                op.set_xattr("a", b"1")
                self.io.set_omap(op, ("k",), (b"v",))
                self.io.operate_write_op(op, obj)
        self.send(["create", "write", "setxattr", "omap-set-vals"], multi)

    def guarded_write(self, ahead, full):
        # the stat tells the object's user version (get_last_version)
        self.send(["stat"], lambda: self.io.stat(self.guard))
        v = self.io.get_last_version() + ahead

        def write():
            with rados.WriteOpCtx() as op:
                op.assert_version(v)
                if full:
                    op.write_full(b"g")
                else:
                    op.write(b"g", 0)
                self.io.operate_write_op(op, self.guard)
        self.send(["assert-version", "writefull" if full else "write"], write,
                  EOVERFLOW if ahead else None)

    def step_guarded_write(self):
        self.guarded_write(0, True)

    def step_guarded_write_stale(self):  # asserts a version the object never had
        self.guarded_write(1000, False)

    def step_omap_guarded(self):
        self.send(["omap-cmp", "omap-set-vals"],
                  lambda: self.omap_set(self.base, ("k4",), (b"v4",), guard=("k1", "v1")))

    def step_guarded_read(self):
        self.send(["cmpext", "omap-get-vals"], lambda: self.omap_read(self.base, ["vals"], b"data"))

    def step_guarded_read_mismatch(self):
        self.send(["cmpext", "omap-get-vals"],
                  lambda: self.omap_read(self.base, ["vals"], b"dxta"), CMP_FAIL)

    def step_failok_read(self):  # the cmpext fails, FAILOK: the message succeeds
        self.send(["cmpext", "omap-get-vals"],
                  lambda: self.omap_read(self.base, ["vals"], b"dxta", failok=True), rval_fail=[0])

    def step_multi_read(self):
        self.send(["omap-get-vals", "omap-get-keys", "omap-get-vals-by-keys"],
                  lambda: self.omap_read(self.base, ["vals", "keys", "bykeys"]))


# step name (STEP=N on the command line) -> default count
STEPS = {
    "writefull": 5, "write": 5, "read": 5, "read-missing": 3,
    "stat": 20, "stat-missing": 5, "setxattr": 5, "getxattr": 5,
    "getxattr-missing": 3, "rmxattr": 2, "omap-set": 10, "omap-get": 10,
    "omap-get-by-keys": 5, "omap-get-keys": 3, "omap-rm": 2, "lock": 5,
    "call-read": 3, "call-fail": 2, "call-version": 2, "delete": 3, "delete-missing": 3,
    "create-existing": 2, "multi-write": 3, "guarded-write": 3,
    "guarded-write-stale": 2, "omap-guarded": 2, "guarded-read": 3,
    "guarded-read-mismatch": 2, "failok-read": 2, "multi-read": 3,
    "call-unknown": 0,
}


def op_class(ops, calls):
    """Ceph's OpInfo view of one message: (reads, writes)."""
    rd = wr = False
    for name in ops:
        code = OP_CODES[name]
        if name != "call":
            rd |= bool(code & MODE_RD)
        wr |= bool(code & MODE_WR)
    for m in calls:
        rd |= "r" in CLASS_METHODS.get(m, "")
        wr |= "w" in CLASS_METHODS.get(m, "")
    return rd, wr


def tally(msgs, named):
    """Ops per op code and messages per op type of msgs; calls by
    class.method in the messages named(msg) is true for."""
    ops, op_type, rval_only = {}, {}, {}
    for msg in msgs:
        names, calls, failed, rval_fail, _ = msg
        if named(msg):
            it = iter(calls)
            names = ["call " + next(it) if n == "call" else n for n in names]
        for i, n in enumerate(names):
            o = ops.setdefault(n, {"ops": 0, "failed": 0})
            o["ops"] += 1
            if failed or i in rval_fail:
                o["failed"] += 1
            if i in rval_fail and not failed:
                rval_only[n] = rval_only.get(n, 0) + 1
        lead = next((n for n in names if n not in GUARDS), names[0])
        t = op_type.setdefault(lead, {"msgs": 0, "failed_msgs": 0})
        t["msgs"] += 1
        t["failed_msgs"] += failed
    return ops, op_type, rval_only


def summarize(load, client, addr, pool_id):
    cls = {"op_r": 0, "op_w": 0, "op_rw": 0, "errors": 0}
    ops, op_type, rval_only = tally(load.msgs, lambda m: True)
    # Ceph's dump_historic_ops describes an op when it is dumped: by then a
    # read op has let go of its input, so its calls print as "[call]"
    # (seen on 16.2.15, 18.2.7, 20.2.4); bpf/ reads them at the op's end
    ceph_ops, ceph_op_type, _ = tally(load.msgs, lambda m: not m[4])
    for names, calls, failed, rval_fail, _ in load.msgs:
        rd, wr = op_class(names, calls)
        if failed:
            cls["errors"] += 1
        else:
            cls["op_rw" if rd and wr else "op_r" if rd else "op_w"] += 1
    return {"client": client, "addr": addr, "pool_id": pool_id,
            "msgs": len(load.msgs), "ops": ops, "rval_only": rval_only,
            "op_type": op_type, "ceph_ops": ceph_ops, "ceph_op_type": ceph_op_type, **cls}


def parse_counts(args):
    counts = dict(STEPS)
    for a in args:
        name, eq, n = a.partition("=")
        if not eq or name not in STEPS or not n.isdigit():
            sys.exit(f"optypes_load.py: bad argument '{a}': want STEP=N with STEP one of "
                     f"{', '.join(STEPS)} (see --list)")
        counts[name] = int(n)
    return counts


def main(argv):
    if argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if argv[1:2] == ["--list"]:
        for s, n in STEPS.items():
            print(f"{s}={n}")
        return 0
    counts = parse_counts(argv[1:])
    for v in ("CEPH_CONF", "POOL"):
        if not os.environ.get(v):
            sys.exit(f"optypes_load.py: ${v} is not set: source a cluster's env file (tests/lib.sh cluster_up)")
    cluster = rados.Rados(conffile=os.environ["CEPH_CONF"])
    cluster.conf_set("rados_osd_op_timeout", "60")
    cluster.connect(timeout=30)
    try:
        ioctx = cluster.open_ioctx(os.environ["POOL"])
        load = Load(ioctx, f"optypes.{os.getpid()}.")
        load.setup()
        for s, n in counts.items():
            fn = getattr(load, "step_" + s.replace("-", "_"))
            for _ in range(n):
                fn()
        out = summarize(load, f"client.{cluster.get_instance_id()}",
                        cluster.get_addrs(), ioctx.get_pool_id())
        ioctx.close()
    finally:
        cluster.shutdown()
    print(json.dumps(out, sort_keys=True))
    for s in load.surprises:
        print("optypes_load.py: unexpected outcome: " + s, file=sys.stderr)
    return 1 if load.surprises else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
