#!/usr/bin/python3
"""osdhist's slowest ops of one interval, against its own histograms and
against what the load sent (tests/integration/test_slowops.sh).

  slowops_check.py OSD K LOAD_JSON < osdhist JSON lines of the interval

The lines are those of one snapshot's interval (and of empty ones around
it).  Prints ONE JSON object:
  "slots":   slowop lines of osd.OSD
  "ops":     ops of osd.OSD in the histograms (client classes, phase total)
  "missing": ops in a bucket above the K-th slot's that no slot holds
             (must be 0; up to "skipped" if candidates were skipped)
  "skipped": slow_busy + slow_late during the lines
  "above":   ops in those buckets
  "bad":     slots whose object, op, pool, class or client is not what the
             load sent, each with why
  "big":     slots that are big.* objects
  "small_slots", "small_near": slots that are small.* objects, and the
             ops of op type write (the small ones: big ones are writefull)
             in the K-th slot's bucket or above; a correct osdhist has
             small_slots <= small_near
  "reqids", "totals", "objects": of the slots, for Ceph's view (objects:
             as Ceph prints an hobject_t, pool:hash:nspace:key:name:snap)
  "names":   the slots' object names
"""
import json
import sys

MIN_SHIFT, SUB_BITS, MAX_SHIFT = 8, 3, 37	# maps/osdhist.h
NR_BUCKETS = 2 + (MAX_SHIFT - MIN_SHIFT) * (1 << SUB_BITS)


def bucket(ns):
    if ns < 1 << MIN_SHIFT:
        return 0
    if ns >= 1 << MAX_SHIFT:
        return NR_BUCKETS - 1
    k = ns.bit_length() - 1
    return 1 + (k - MIN_SHIFT) * (1 << SUB_BITS) + ((ns >> (k - SUB_BITS)) & ((1 << SUB_BITS) - 1))


def main():
    osd, k = int(sys.argv[1]), int(sys.argv[2])
    load = json.load(open(sys.argv[3]))
    lines = [json.loads(l) for l in sys.stdin if l.strip()]
    slots = [l for l in lines if l["type"] == "slowop" and l["osd"] == osd]
    hist = [0] * NR_BUCKETS
    writes = [0] * NR_BUCKETS	# op type write
    ops = 0
    for l in lines:
        if (l["type"] == "hist" and l["osd"] == osd and l["phase"] == "total"
                and l["class"] != "subop"):
            for upper, n in l["buckets"]:
                hist[bucket(upper - 1)] += n
                ops += n
        if (l["type"] == "optype" and l["osd"] == osd and l["phase"] == "total"
                and l["op"] == "write"):
            for upper, n in l["buckets"]:
                writes[bucket(upper - 1)] += n
    health = [l for l in lines if l["type"] == "health"]
    skipped = 0
    if len(health) >= 2:
        skipped = sum(health[-1][c] - health[0][c] for c in ("slow_busy", "slow_late"))
    out = {"slots": len(slots), "ops": ops, "skipped": skipped, "missing": 0, "above": 0,
           "bad": [], "big": 0, "small_slots": 0, "small_near": 0, "reqids": [s["client"] for s in slots],
           "totals": [s["total_ns"] for s in slots], "objects": [s["object"] for s in slots],
           "names": [s["name"] for s in slots]}
    if slots:
        kth = bucket(min(s["total_ns"] for s in slots))
        out["small_near"] = sum(writes[kth:])
        for b in range(kth + 1, NR_BUCKETS):
            held = sum(1 for s in slots if bucket(s["total_ns"]) == b)
            out["above"] += hist[b]
            out["missing"] += max(0, hist[b] - held)
            if held > hist[b]:
                out["bad"].append("bucket %d: %d slots, %d ops" % (b, held, hist[b]))
    for s in slots:
        want = load["objects"].get(s["name"])
        why = []
        if not want:
            why.append("object not sent")
        else:
            if s["op"] != want["op"] or s["ops"] != [want["op"]]:
                why.append("op %s %s, sent %s" % (s["op"], s["ops"], want["op"]))
            if s["object_len"] != want["len"]:
                why.append("object_len %d, sent %d" % (s["object_len"], want["len"]))
            if [s["nspace_len"], s["key_len"]] != [want.get("nspace_len", 0), want.get("key_len", 0)]:
                why.append("nspace, key lengths %d, %d, sent %s" % (
                    s["nspace_len"], s["key_len"], want))
            # Ceph's spelling, but for the hash (Ceph's history checks it)
            h = s["object"].split(":")[1] if s["object"].count(":") >= 5 else "?"
            if (len(h) != 8 or h.strip("0123456789abcdef")
                    or s["object"] != want["object"].replace("HASH", h)):
                why.append("object %s, sent %s" % (s["object"], want["object"]))
            if s["class"] != want["class"]:
                why.append("class %s, want %s" % (s["class"], want["class"]))
        if s["pool"] != load["pool_id"] or not s["pg"].startswith("%d." % load["pool_id"]):
            why.append("pool %s pg %s, pool id %d" % (s["pool"], s["pg"], load["pool_id"]))
        if not s["client"].startswith(load["client"] + "."):
            why.append("client %s, load %s" % (s["client"], load["client"]))
        if not s["client"].endswith(":%d" % s["tid"]):
            why.append("tid %d not the reqid's" % s["tid"])
        if s["total_ns"] < s["queue_ns"]:
            why.append("queue above total")
        if why:
            out["bad"].append("%s: %s" % (s["object"], "; ".join(why)))
        if s["name"].startswith("big."):
            out["big"] += 1
        if s["name"].startswith("small."):
            out["small_slots"] += 1
    print(json.dumps(out))


if __name__ == "__main__":
    main()
