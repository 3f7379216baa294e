#!/usr/bin/python3
"""osdhist's slowest ops against Ceph's own op history
(tests/integration/test_slowops.sh).

  slowops_ceph.py CLIENT K CHECK_JSON < dump_historic_ops_by_duration JSON

CHECK_JSON is slowops_check.py's output (the slots' reqids, latencies and
objects).  Ceph's history must hold every op of CLIENT (osd_op_history_size
raised).  Ceph's own "duration" ends at the op's last event ("done", when
its last reference goes), later than osdhist's end; the write's
"commit_sent" event is stamped just after log_op_stats, where osdhist's
latency ends, and both start at the message's receipt ("initiated").  So
Ceph's latency of an op here is commit_sent - initiated (duration for an
op without that event).  Prints ONE JSON object:
  "history":  CLIENT's ops in Ceph's history
  "found":    slots whose reqid Ceph has, with the same object: the
              hobject_t as Ceph's description prints it, cut as osdhist
              cuts it
  "notfound": the others, with what Ceph has for them
  "top":      how many of Ceph's K slowest ops of CLIENT osdhist's slots hold
  "within":   the smallest N such that Ceph's N slowest hold every slot
  "gap_us":   [min, max] over the found slots of Ceph's latency minus
              osdhist's (Ceph's timestamps have microseconds)
  "swaps":    the ops in one top K and not in the other: reqid, Ceph's
              latency in us, and the ratio of the slower to the faster of
              it and the boundary (Ceph's K-th slowest)
  "worst":    the largest of those ratios (1 when the two tops agree)
"""
import datetime
import json
import re
import sys


def stamp(s):
    """Ceph's utime_t as JSON prints it: 2026-12-03T14:23:01.207047+0000."""
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()


def shown(hobj):
    """Ceph's hobject_t text (pool:hash:nspace:key:name:snap, each string
    escaped: no ":" inside) as osdhist prints it: the name cut to its
    first 64 bytes, nspace and key to 32 (maps/osdhist.h), and the bytes
    cut from the three counted in " (+N bytes)"."""
    f = hobj.split(":")
    if len(f) != 6:
        return hobj
    lost = 0
    for i, kept in ((2, 32), (3, 32), (4, 64)):
        raw = re.sub(rb"%([0-9a-f]{2})", lambda m: bytes([int(m.group(1), 16)]), f[i].encode())
        lost += max(0, len(raw) - kept)
        f[i] = "".join("%%%02x" % c if c < 0x20 or c >= 0x7f or c in b"%/:" else chr(c)
                       for c in raw[:kept])
    return ":".join(f) + (" (+%d bytes)" % lost if lost else "")


def latency(op):
    events = {e["event"]: e["time"] for e in op.get("type_data", {}).get("events", [])}
    if "commit_sent" in events and "initiated" in events:
        return stamp(events["commit_sent"]) - stamp(events["initiated"])
    return float(op["duration"])


def main():
    client, k = sys.argv[1], int(sys.argv[2])
    slots = json.load(open(sys.argv[3]))
    hist = json.load(sys.stdin)
    ops = {}
    for op in hist.get("ops", []):
        d = op.get("description", "")
        if not d.startswith("osd_op("):
            continue
        words = d[len("osd_op("):].split()
        reqid = words[0]
        if not reqid.startswith(client + "."):
            continue
        ops[reqid] = (shown(words[2]) if len(words) > 2 else "?", latency(op))
    slowest = sorted(ops, key=lambda r: -ops[r][1])
    out = {"history": len(ops), "found": 0, "notfound": [], "top": 0, "within": 0,
           "gap_us": None, "swaps": [], "worst": 1.0}
    gaps = []
    for r, obj, total in zip(slots["reqids"], slots["objects"], slots["totals"]):
        if r in ops and ops[r][0] == obj:
            out["found"] += 1
            out["within"] = max(out["within"], slowest.index(r) + 1)
            gaps.append(ops[r][1] * 1e6 - total / 1e3)
        else:
            out["notfound"].append("%s %s: Ceph has %s" % (r, obj, ops.get(r)))
    if gaps:
        out["gap_us"] = [round(min(gaps), 1), round(max(gaps), 1)]
    top = set(slowest[:k])
    out["top"] = len(top & set(slots["reqids"]))
    if len(slowest) >= k:
        edge = ops[slowest[k - 1]][1]
        for r in sorted(top ^ set(slots["reqids"])):
            lat = ops[r][1] if r in ops else 0
            ratio = max(lat, edge) / min(lat, edge) if min(lat, edge) > 0 else float("inf")
            out["swaps"].append([r, round(lat * 1e6), round(ratio, 3)])
            out["worst"] = max(out["worst"], round(ratio, 3))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
