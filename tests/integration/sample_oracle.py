#!/usr/bin/python3
"""Ceph's own stamps of every op against what a --sample osdhist recorded:
the checker of tests/integration/test_sample.sh.

  sample_oracle.py HISTORIC.json OSDHIST.json

HISTORIC.json is `ceph daemon osd.N dump_historic_ops` with the history
raised far above the ops sent (osd_op_history_size, _duration), so that it
holds every op of the run.  OSDHIST.json is the JSON-lines output of
`osdhist --json --sample ON/PERIOD` over the same run, with its "window"
lines: the traced time [open_ns, close_ns) in CLOCK_REALTIME, the clock of
Ceph's stamps.

A stat op belongs to a window when its recv_stamp (the "header_read" event:
Message::recv_stamp, which osdhist and Ceph's log_op_stats measure from) is
inside it.  Ceph prints stamps cut to the microsecond, so an op whose stamp
lies within a microsecond of a bound is undecided: it counts in the upper
bound, not the lower one.  osdhist's latency of an op ends at log_op_stats,
which runs after the op's "started" event and before its "done" event, so
for every bucket bound B of osdhist's read histogram:

  lo(B) = ops surely in, with started - recv surely >= B
  hi(B) = ops surely or maybe in, with done - recv maybe >= B
  lo(B) <= osdhist's ops at or above B <= hi(B)

Nothing here is statistical: a correct osdhist meets every bound, whatever
the load, unless the host's clock is stepped during the run.  Prints one
JSON object: windows, in_sure, in_maybe, osdhist, the bounds that failed.
"""
import json
import sys
from datetime import datetime

US = 1000  # ns: the resolution of Ceph's printed stamps


def stamp_ns(text):
    """ns since the epoch of Ceph's '2026-12-01T21:11:14.513304+0000'."""
    t = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%f%z")
    return int(t.timestamp()) * 1_000_000_000 + t.microsecond * US


def ops_of(path):
    """(recv, started, done) in ns, cut to the microsecond, of each stat."""
    with open(path) as f:
        dump = json.load(f)
    out = []
    for op in dump["ops"]:
        if not op["description"].startswith("osd_op(") or " [stat] " not in op["description"]:
            continue
        ev = {e["event"]: stamp_ns(e["time"]) for e in op["type_data"]["events"]}
        # an op requeued before it started may lack the event: then only
        # the trivial lower bound, recv itself
        out.append((ev["header_read"], ev.get("started", ev["header_read"]), ev["done"]))
    return out


def main(historic, traced):
    windows, buckets, count = [], {}, 0
    with open(traced) as f:
        for line in f:
            o = json.loads(line)
            if o["type"] == "window":
                windows.append((o["open_ns"], o["close_ns"]))
            elif o["type"] == "hist" and o["class"] == "read" and o["phase"] == "total":
                count += o["count"]
                for upper, n in o["buckets"]:
                    buckets[upper] = buckets.get(upper, 0) + n
    sure, maybe = [], []
    for recv, started, done in ops_of(historic):
        # the true stamps lie in [x, x + 1 us)
        for lo, hi in windows:
            if recv >= lo and recv + US <= hi:
                sure.append((recv, started, done))
            elif recv + US > lo and recv < hi:
                maybe.append((recv, started, done))
    bad = []
    for bound in sorted(buckets):	# every bucket's upper bound is one's lower
        at_or_above = sum(n for u, n in buckets.items() if u > bound)
        lo = sum(1 for r, s, _ in sure if s - (r + US) >= bound)
        hi = sum(1 for r, _, d in sure + maybe if d + US - r >= bound)
        if not lo <= at_or_above <= hi:
            bad.append({"bound_ns": bound, "lo": lo, "osdhist": at_or_above, "hi": hi})
    # the first window opened before the probes went in: it traces from
    # the attach, less than ON
    lengths = [hi - lo for lo, hi in windows[1:]]
    gaps = [windows[i + 1][0] - windows[i][1] for i in range(len(windows) - 1)]
    print(json.dumps({
        "windows": len(windows), "shortest_after_first_ns": min(lengths, default=0),
        "least_gap_ns": min(gaps, default=0), "in_sure": len(sure),
        "in_maybe": len(maybe), "osdhist": count,
        "bucket_sum": sum(buckets.values()), "bounds": len(buckets),
        "bad_bounds": bad}))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
