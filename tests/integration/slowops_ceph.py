#!/usr/bin/python3
"""osdhist's slowest ops against Ceph's own op history
(tests/integration/test_slowops.sh).

  slowops_ceph.py CLIENT K CHECK_JSON < dump_historic_ops_by_duration JSON

CHECK_JSON is slowops_check.py's output (the slots' reqids and objects).
Ceph's history must hold every op of CLIENT (osd_op_history_size raised).
Prints ONE JSON object:
  "history":  CLIENT's ops in Ceph's history
  "found":    slots whose reqid Ceph has, with the same object
  "notfound": the others, with what Ceph has for them
  "top":      how many of Ceph's K longest ops of CLIENT osdhist's slots hold
  "within":   the smallest N such that Ceph's N longest hold every slot
"""
import json
import sys


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
        # the hobject: pool:hash:nspace:key:name:snap
        name = words[2].split(":")[4] if len(words) > 2 and words[2].count(":") >= 5 else "?"
        ops[reqid] = (name, float(op["duration"]))
    longest = sorted(ops, key=lambda r: -ops[r][1])
    out = {"history": len(ops), "found": 0, "notfound": [], "top": 0, "within": 0}
    for r, obj in zip(slots["reqids"], slots["objects"]):
        if r in ops and ops[r][0] == obj:
            out["found"] += 1
            out["within"] = max(out["within"], longest.index(r) + 1)
        else:
            out["notfound"].append("%s %s: Ceph has %s" % (r, obj, ops.get(r)))
    out["top"] = len(set(longest[:k]) & set(slots["reqids"]))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
