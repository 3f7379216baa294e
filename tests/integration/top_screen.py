#!/usr/bin/env python3
"""A captured --top screen (tmux capture-pane -p, a file) read back, for
test_top.sh.  Prints JSON: {"title": the first line, "rows": [[osd, class,
ops, p99 in ns], ...] in screen order, "p99_sorted": whether p99 never
grows from a row to the next, "drill": the OSD named in a drill's title or
null, "drill_lines": the "osd.N CLASS total: N ops" lines of the screen}.
"""
import json
import re
import sys

HEADS = ["osd", "class", "ops", "ops/s", "mean", "p50", "p90", "p99"]
UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def ns(cell):
    m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s)", cell)
    if not m:
        raise ValueError("not a latency: %r" % cell)
    return float(m.group(1)) * UNIT[m.group(2)]


lines = open(sys.argv[1]).read().split("\n")
rows, heads = [], False
for line in lines:
    w = line.split()
    if w[:len(HEADS)] == HEADS:
        heads = True
        continue
    if heads and w and w[0].startswith("osd.") and len(w) >= len(HEADS):
        rows.append([w[0], w[1], int(w[2]), ns(w[7])])
    elif heads:
        heads = False
title = lines[0] if lines else ""
m = re.match(r"osdhist --top: (osd\.\S+)", title)
print(json.dumps({
    "title": title,
    "rows": rows,
    "p99_sorted": all(a[3] >= b[3] for a, b in zip(rows, rows[1:])),
    "drill": m.group(1) if m else None,
    "drill_lines": [l for l in lines if re.match(r"osd\.\S+ \S+ total: \d+ ops", l)],
}))
