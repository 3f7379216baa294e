#!/usr/bin/env python3
"""A captured --top screen (tmux capture-pane -p, a file) read back, for
test_top.sh.  Prints JSON: {"title": the first line, "rows": [[osd, class,
ops, p99 in ns], ...] in screen order, "p99_sorted": whether p99 never
grows from a row to the next, "drill": the OSD named in a drill's title or
null, "drill_lines": the "osd.N CLASS total: N ops" lines of the screen,
"heat": [osd, class] named in a heatmap's title or null, "heat_cols": the
intervals its heatmap says it shows, "heat_cells": its grid's non-blank
cells}.
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
m = re.match(r"osdhist --top: (osd\.\S+)   up/down", title)
h = re.match(r"osdhist --top: (osd\.\S+) (\S+) heatmap ", title)
hc = [int(x.group(1)) for x in
      (re.search(r" latency heatmap, (\d+) intervals? to ", l) for l in lines) if x]
cells = sum(len(g.group(1).strip()) for g in
            (re.match(r"^ *\S+ \|(.*)\|$", l) for l in lines) if g)
print(json.dumps({
    "title": title,
    "rows": rows,
    "p99_sorted": all(a[3] >= b[3] for a, b in zip(rows, rows[1:])),
    "drill": m.group(1) if m else None,
    "drill_lines": [l for l in lines if re.match(r"osd\.\S+ \S+ total: \d+ ops", l)],
    "heat": [h.group(1), h.group(2)] if h else None,
    "heat_cols": hc[0] if h and hc else 0,
    "heat_cells": cells if h else 0,
}))
