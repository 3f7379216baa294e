#!/usr/bin/env python3
"""--heatmap's output (issue 40) checked for test_heatmap.sh.

  heatmap_check.py bounds
      prints the --prom-buckets list the test gives: every quarter of a
      power of two from 2^15 ns (33 us) on, 64 of them, each minus 1 ns.
  heatmap_check.py HEATMAP PROMDIR JSON OSD BURST_START BURST_END

Every printed heatmap is a snapshot, its title's time the end of its
newest column; the last one holds every column of the run.  The same
osdhist wrote --textfile at each snapshot, copied by the test into
PROMDIR/N.prom: its cumulative buckets of osd.OSD's write total, whose
differences give each interval's ops below every bound, exactly (two
tracers' latencies differ by their probes' order, so a bucket of another
osdhist's is no oracle).  A heatmap row of 2 or more buckets starts at a
quarter of a power of two, one of the bounds: so each cell's ops are
F(row's end) - F(row's start), F the interval's ops below a latency.
From those the grid is rebuilt (shades 1 + 8 * ops // fullest) and
compared cell by cell, with the row labels and the fullest cell's ops.
The JSON of a second osdhist snapshotting on the same SIGUSR1s gives
each interval's ops, which must equal the textfile's.
The burst's columns are those whose interval, from the previous title's
time to their own, overlaps [BURST_START, BURST_END] (unix seconds taken
around the burst); the band: the highest occupied row of every burst
column is above that of every other column that has ops.
Prints a JSON summary; every error on stderr (exit 1).
"""
import glob
import json
import os
import re
import sys
from datetime import datetime

SUB_BITS, MIN_SHIFT, MAX_SHIFT = 3, 8, 37
SUB = 1 << SUB_BITS
NR = 2 + (MAX_SHIFT - MIN_SHIFT) * SUB
SHADES = " .:-=+*#%@"
POINTS = [(1 << (15 + j // 4)) * (4 + j % 4) // 4 for j in range(64)]


def lower(i):
    if i == 0:
        return 0
    if i >= NR - 1:
        return 1 << MAX_SHIFT
    k = MIN_SHIFT + (i - 1) // SUB
    return (1 << k) + (((i - 1) % SUB) << (k - SUB_BITS))


def lat(ns):
    units = [(1, "ns"), (1e3, "us"), (1e6, "ms"), (1e9, "s")]
    i = 0
    while i < 3 and ns / units[i][0] >= 999.5:
        i += 1
    v = ns / units[i][0]
    d = 0 if i == 0 or v >= 99.95 else 1 if v >= 9.995 else 2
    return "%.*f%s" % (d, v, units[i][1])


def label(b):
    return (">=" if b == NR - 1 else "") + lat(lower(b))


if sys.argv[1:] == ["bounds"]:
    print(",".join("%d.%09d" % divmod(p - 1, 10**9) for p in POINTS))
    sys.exit(0)

errors = []
hm_path, prom_dir, js_path = sys.argv[1:4]
osd, t0, t1 = int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])

# the heatmaps: title, grid lines, group
TITLE = re.compile(r"^osd\.(\d+) write: latency heatmap, (\d+) intervals? to "
                   r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \(")
ROW = re.compile(r"^ *(\S+) \|(.*)\|$")
blocks = []
for line in open(hm_path).read().split("\n"):
    m = TITLE.match(line)
    if m:
        t = datetime.strptime(m.group(3), "%Y-%m-%d %H:%M:%S.%f").timestamp()
        blocks.append({"ncols": int(m.group(2)), "time": t, "rows": [], "max": None,
                       "group": None})
        continue
    m = ROW.match(line)
    if m and blocks:
        blocks[-1]["rows"].append((m.group(1), m.group(2)))
    m = re.search(r"'@' the fullest: (\d+) ops; a row is (\d+) buckets?", line)
    if m and blocks:
        blocks[-1]["max"], blocks[-1]["group"] = int(m.group(1)), int(m.group(2))
if not blocks:
    sys.exit("no heatmap printed")
for k, b in enumerate(blocks):
    if b["ncols"] != k + 1:
        errors.append("heatmap %d shows %d columns, not %d" % (k + 1, b["ncols"], k + 1))
last = blocks[-1]
K, g = last["ncols"], last["group"]
rows = last["rows"]

# the textfile at each snapshot: cumulative ops below each point, and all
SER = 'osdhist_op_latency_seconds_bucket{ceph_daemon="osd.%d",' % osd
cum = []
for path in sorted(glob.glob(os.path.join(prom_dir, "*.prom")),
                   key=lambda p: int(os.path.basename(p).split(".")[0])):
    c = {}
    for line in open(path):
        if line.startswith(SER) and 'class="write",phase="total"' in line:
            le = re.search(r'le="([^"]+)"', line).group(1)
            n = int(line.rsplit(" ", 1)[1])
            if le == "+Inf":
                c[None] = c.get(None, 0) + n
            else:
                ns = round(float(le) * 1e9) + 1
                c[ns] = c.get(ns, 0) + n
    cum.append(c)
if len(cum) != K:
    errors.append("%d textfile copies, %d heatmap columns" % (len(cum), K))
    cum = (cum + [cum[-1] if cum else {}] * K)[:K]
prev = {}
F = []  # per interval: {point ns: ops below it, None: all}
for c in cum:
    F.append({p: c.get(p, 0) - prev.get(p, 0) for p in POINTS + [None]})
    prev = c
ops = [f[None] for f in F]


def below(x, f):
    """ops of interval f below x ns, when the exported bounds tell"""
    if x == 0:
        return 0
    if x in f:
        return f[x]
    hi = [p for p in POINTS if p > x]
    lo = [p for p in POINTS if p < x]
    if hi and f[hi[0]] == 0:
        return 0
    if lo and f[lo[-1]] == f[None]:
        return f[None]
    raise ValueError("no exported bound at %s" % lat(x))


# the JSON of a second osdhist: each interval's ops
snaps, cur = [], 0
for line in open(js_path):
    o = json.loads(line)
    if o["type"] == "hist" and o["osd"] == osd and o["class"] == "write" \
            and o["phase"] == "total" and "pool" not in o:
        cur += o["count"]
    elif o["type"] == "health":
        snaps.append(cur)
        cur = 0
if snaps != ops:
    errors.append("ops per interval: textfile %s, the other osdhist's JSON %s" % (ops, snaps))

# the grid, rebuilt
want = []
if not g or g < 2:
    errors.append("a row is %s buckets: a row of 1 does not start at an exported bound" % g)
elif rows:
    # the bottom row's first bucket, from its label: one quarter point fits
    first = [b for b in range(NR) if label(b) == rows[-1][0] and (b + SUB - 1) % g == 0]
    if len(first) != 1:
        errors.append("bottom row label %r: no single bucket %s" % (rows[-1][0], first))
    else:
        n = len(rows)
        starts = [first[0] + r * g for r in range(n + 1)]

        def edge(r, f):  # ops of interval f below row r's first latency
            return below(lower(starts[r]), f) if starts[r] < NR else f[None]
        try:
            cells = [[edge(r + 1, f) - edge(r, f) for f in F] for r in range(n)]
            mx = max(max(r) for r in cells)
            for r in range(n - 1, -1, -1):
                want.append((label(starts[r]), "".join(
                    " " if not c else SHADES[min(9, 1 + c * 8 // mx)] for c in cells[r])))
            if last["max"] != mx:
                errors.append("fullest cell: heatmap %s ops, textfile %d" % (last["max"], mx))
            if [sum(cells[r][x] for r in range(n)) for x in range(K)] != ops:
                errors.append("some ops are in no row: the rows' ops %s, the intervals' %s" % (
                    [sum(cells[r][x] for r in range(n)) for x in range(K)], ops))
            for i, ((hl, hs), (wl, ws)) in enumerate(zip(rows, want)):
                for x, (a, b) in enumerate(zip(hs, ws)):
                    if a != b or hl != wl:
                        errors.append("row %s column %d: heatmap %r, textfile %r (%d ops of %d)"
                                      % (wl, x + 1, a, b, cells[n - 1 - i][x], mx))
        except ValueError as e:
            errors.append(str(e))
if rows != want:
    errors.append("the grid differs from the textfile's:\n  heatmap:\n%s\n  from the textfile:\n%s"
                  % ("\n".join("    %8s |%s|" % r for r in rows),
                     "\n".join("    %8s |%s|" % r for r in want)))

# the burst's columns, from the titles' times, and the band
times = [b["time"] for b in blocks]
burst = [x for x in range(K) if (x == 0 or times[x - 1] < t1) and times[x] > t0]


def top(x):  # the highest occupied row of column x, counted from the bottom
    for i, (_, s) in enumerate(rows):
        if x < len(s) and s[x] != " ":
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
print(json.dumps({"columns": K, "rows": len(rows), "group": g, "burst": burst, "calm": calm,
                  "burst_top": [top(x) for x in burst], "calm_top": [top(x) for x in calm],
                  "ops": ops}))
for e in sorted(errors, key=lambda e: "\n" not in e):  # the grids first
    print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
