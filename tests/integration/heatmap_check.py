#!/usr/bin/env python3
"""--heatmap's output (issue 40) checked against the JSON output of a
second osdhist whose snapshots were taken on the same SIGUSR1s, for
test_heatmap.sh.

  heatmap_check.py HEATMAP JSON OSD BURST_START BURST_END

Every printed heatmap is a snapshot: its title's time is the end of its
newest column.  The last one holds every column of the run.  For each
column, the JSON snapshot of the same rank gives the interval's write
buckets; from them this script rebuilds the grid as the model says it
(osdhist's log-linear buckets; rows of a power-of-two group of buckets,
the smallest that fits the height, a group of 8 one power of two; shades
1 + 8 * count // max) and compares every cell, every row's label and the
fullest cell's ops.  The burst's columns are those whose interval, from
the previous title's time to their own, overlaps [BURST_START,
BURST_END] (unix seconds taken around the burst); the band: the highest
occupied row of every burst column is above that of every other column.
Prints a JSON summary; every error on stderr (exit 1).
"""
import json
import re
import sys
from datetime import datetime

SUB_BITS, MIN_SHIFT, MAX_SHIFT = 3, 8, 37
SUB = 1 << SUB_BITS
NR = 2 + (MAX_SHIFT - MIN_SHIFT) * SUB
SHADES = " .:-=+*#%@"
HEIGHT = 24


def lower(i):
    if i == 0:
        return 0
    if i >= NR - 1:
        return 1 << MAX_SHIFT
    k = MIN_SHIFT + (i - 1) // SUB
    return (1 << k) + (((i - 1) % SUB) << (k - SUB_BITS))


UPPER = {lower(i + 1) if i < NR - 1 else 2**64 - 1: i for i in range(NR)}


def lat(ns):
    units = [(1, "ns"), (1e3, "us"), (1e6, "ms"), (1e9, "s")]
    i = 0
    while i < 3 and ns / units[i][0] >= 999.5:
        i += 1
    v = ns / units[i][0]
    d = 0 if i == 0 or v >= 99.95 else 1 if v >= 9.995 else 2
    return "%.*f%s" % (d, v, units[i][1])


def place(b):
    return b + SUB - 1


errors = []
hm_path, js_path, osd, t0, t1 = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    float(sys.argv[4]), float(sys.argv[5])

# the heatmaps: title, grid lines
TITLE = re.compile(r"^osd\.(\d+) write: latency heatmap, (\d+) intervals? to "
                   r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \(")
ROW = re.compile(r"^ *(\S+) \|(.*)\|$")
blocks = []
for line in open(hm_path).read().split("\n"):
    m = TITLE.match(line)
    if m:
        t = datetime.strptime(m.group(3), "%Y-%m-%d %H:%M:%S.%f").timestamp()
        blocks.append({"ncols": int(m.group(2)), "time": t, "rows": [], "max": None})
        continue
    m = ROW.match(line)
    if m and blocks:
        blocks[-1]["rows"].append((m.group(1), m.group(2)))
    m = re.search(r"'@' the fullest: (\d+) ops", line)
    if m and blocks:
        blocks[-1]["max"] = int(m.group(1))
if not blocks:
    sys.exit("no heatmap printed")
for k, b in enumerate(blocks):
    if b["ncols"] != k + 1:
        errors.append("heatmap %d shows %d columns, not %d" % (k + 1, b["ncols"], k + 1))
last = blocks[-1]
K = last["ncols"]

# the JSON snapshots: one health line closes each
snaps, cur = [], {}
for line in open(js_path):
    o = json.loads(line)
    if o["type"] == "hist" and o["osd"] == osd and o["class"] == "write" \
            and o["phase"] == "total" and "pool" not in o:
        for ub, n in o["buckets"]:
            cur[UPPER[ub]] = cur.get(UPPER[ub], 0) + n
    elif o["type"] == "health":
        snaps.append(cur)
        cur = {}
if len(snaps) != K:
    errors.append("%d JSON snapshots, %d heatmap columns" % (len(snaps), K))
    snaps = (snaps + [{}] * K)[:K]

# the grid as the model says
occ = [b for s in snaps for b in s]
want_rows = []
if occ:
    lo, hi = min(occ), max(occ)
    g = 1
    while place(hi) // g - place(lo) // g + 1 > HEIGHT:
        g *= 2
    nrows = place(hi) // g - place(lo) // g + 1
    cells = [[0] * K for _ in range(nrows)]
    for x, s in enumerate(snaps):
        for b, n in s.items():
            cells[place(b) // g - place(lo) // g][x] += n
    mx = max(max(r) for r in cells)
    for r in range(nrows - 1, -1, -1):
        first = max(0, (place(lo) // g + r) * g - (SUB - 1))
        label = (">=" if first == NR - 1 else "") + lat(lower(first))
        shades = "".join(" " if not c else SHADES[min(9, 1 + c * 8 // mx)] for c in cells[r])
        want_rows.append((label, shades))
    if last["max"] != mx:
        errors.append("fullest cell: heatmap %s ops, JSON %d" % (last["max"], mx))
if last["rows"] != want_rows:
    errors.append("the grid differs from the JSON's:\n  heatmap:\n%s\n  from JSON:\n%s" % (
        "\n".join("    %8s |%s|" % r for r in last["rows"]),
        "\n".join("    %8s |%s|" % r for r in want_rows)))

# the burst's columns, from the titles' times, and the band
times = [b["time"] for b in blocks]
burst = [x for x in range(K) if (x == 0 or times[x - 1] < t1) and times[x] > t0]
rows = last["rows"]


def top(x):  # the highest occupied row of column x, counted from the bottom
    for i, (_, s) in enumerate(rows):
        if s[x] != " ":
            return len(rows) - 1 - i
    return -1


busy = [x for x in range(K) if top(x) >= 0]
calm = [x for x in busy if x not in burst]
if not burst or any(top(x) < 0 for x in burst):
    errors.append("burst columns %s: not all with ops" % burst)
elif not calm or min(calm) > min(burst) or max(calm) < max(burst):
    errors.append("no 4 KiB columns on both sides of the burst %s (busy %s)" % (burst, busy))
elif min(top(x) for x in burst) <= max(top(x) for x in calm):
    errors.append("no band: burst columns' highest rows %s, others' %s" % (
        [top(x) for x in burst], [top(x) for x in calm]))
print(json.dumps({"columns": K, "rows": len(rows), "burst": burst, "calm": calm,
                  "burst_top": [top(x) for x in burst],
                  "calm_top": [top(x) for x in calm],
                  "ops": [sum(s.values()) for s in snaps]}))
for e in errors:
    print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
