#!/usr/bin/python3
"""Ceph's own view of one client's ops on an OSD, per op code: the checker of
tests/integration/optypes_load.py.

  historic_ops.py --client client.N [--pool-id ID] [--log OSD_LOG] HISTORIC.json

HISTORIC.json is `ceph daemon osd.ID dump_historic_ops` (raise
osd_op_history_size and osd_op_history_duration first: by default the OSD
keeps only the last 20 ops, for 600 s).  Run `ceph daemon osd.ID log flush`
after that dump and before this: Ceph's log thread writes the log file
behind the daemon, so a reply logged (queued) before the dump may not be in
the file yet; after the flush every op of the dump has its reply there.  Each op's description names its ops
in wire order, e.g.
  osd_op(client.4131.0:7 1.6 1:7800b0f3:::o1:head [assert-version v5,write 0~2] snapc 0=[] ...)
and Ceph prints no per-op result there.  Message results come from the OSD's
log with debug_ms >= 1, where every reply is logged as
  ... --> 127.0.0.1:0/3994497505 -- osd_op_reply(7 o1 [...] v9'16 uv15 ondisk = -75 (...)) ...
and matched to the op by (client address, tid).  Without --log the output
has no "failed" counts.

Prints one JSON object, the shape of optypes_load.py's:
  "msgs": n, "ops": {name: {"ops": n[, "failed": n]}},
  "op_type": {name: {"msgs": n[, "failed_msgs": n]}}
where a call op is named by its class and method as Ceph prints them
("call lock.lock"),  an op is failed when its message's reply result is < 0 (Ceph shows a
per-op rval nowhere, so FAILOK ops that fail are not seen as failed), and
the op type is the first op that is not a guard or hint (assert-version,
cmpxattr, omap-cmp, cmpext, set-alloc-hint).  Exit 1, with the reason on
stderr, if a description cannot be parsed or an op has no logged reply.
"""
import argparse
import json
import re
import sys

GUARDS = {"assert-version", "cmpxattr", "omap-cmp", "cmpext", "set-alloc-hint"}
DESC = re.compile(r"^osd_op\((client\.\d+)\.\d+:(\d+) (\d+)\.[0-9a-f]+(?:s\d+)? \S+ \[(.*)\] snapc ")
# ops are separated by "," right before the next op's name
OP_SPLIT = re.compile(r",(?=[a-z][a-z0-9_-]*(?:[ ,]|$))")
OP_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
CALL_NAME = re.compile(r"^[A-Za-z0-9_]+\.[A-Za-z0-9_]+$")
REPLY = re.compile(r"--> (\S+) -- osd_op_reply\((\d+) .*\] v\S+ uv\d+ \S+ = (-?\d+)")


def bare_addr(a):
    """127.0.0.1:0/123 from v1:127.0.0.1:0/123, [v2:...,v1:...] or any/..."""
    a = a.strip("[]").split(",")[-1]
    return re.sub(r"^(v[12]|any):", "", a)


def parse_desc(desc):
    m = DESC.match(desc)
    if not m:
        return None
    client, tid, pool, text = m.groups()
    ops = []
    for o in OP_SPLIT.split(text):
        words = o.split(" ")
        if not OP_NAME.match(words[0]):
            return None
        # operator<<(OSDOp): "call <class>.<method>" when it has both
        if words[0] == "call" and len(words) > 1 and CALL_NAME.match(words[1]):
            ops.append("call " + words[1])
        else:
            ops.append(words[0])
    return client, int(tid), int(pool), ops


def replies(path):
    """(client address, tid) -> reply result, the last one logged."""
    out = {}
    with open(path, errors="replace") as f:
        for line in f:
            if "osd_op_reply(" not in line:
                continue
            m = REPLY.search(line)
            if m:
                out[(bare_addr(m.group(1)), int(m.group(2)))] = int(m.group(3))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--client", required=True, help="client.N: count only its ops")
    ap.add_argument("--pool-id", type=int, help="count only ops on this pool")
    ap.add_argument("--log", help="the OSD's log (debug_ms >= 1): message results")
    ap.add_argument("historic", help="dump_historic_ops JSON")
    a = ap.parse_args()
    try:
        with open(a.historic) as f:
            hist = json.load(f)
        res = replies(a.log) if a.log else None
    except (OSError, ValueError) as e:
        sys.exit(f"historic_ops.py: {e}")
    ops, op_type, msgs = {}, {}, 0
    for op in hist.get("ops", []):
        desc = op.get("description", "")
        if not desc.startswith("osd_op(") or not desc.startswith(f"osd_op({a.client}."):
            continue
        p = parse_desc(desc)
        if p is None:
            sys.exit(f"historic_ops.py: cannot parse the ops of: {desc}")
        _, tid, pool, names = p
        if a.pool_id is not None and pool != a.pool_id:
            continue
        msgs += 1
        failed = None
        if res is not None:
            addr = bare_addr(op.get("type_data", {}).get("client_info", {}).get("client_addr", ""))
            if (addr, tid) not in res:
                sys.exit(f"historic_ops.py: no osd_op_reply to {addr} tid {tid} in {a.log} "
                         f"(is debug_ms >= 1 on the OSD? was 'log flush' run after "
                         f"dump_historic_ops?): {desc}")
            failed = res[(addr, tid)] < 0
        for n in names:
            o = ops.setdefault(n, {"ops": 0})
            o["ops"] += 1
            if failed is not None:
                o["failed"] = o.get("failed", 0) + failed
        lead = next((n for n in names if n not in GUARDS), names[0])
        t = op_type.setdefault(lead, {"msgs": 0})
        t["msgs"] += 1
        if failed is not None:
            t["failed_msgs"] = t.get("failed_msgs", 0) + failed
    print(json.dumps({"msgs": msgs, "ops": ops, "op_type": op_type}, sort_keys=True))


if __name__ == "__main__":
    main()
