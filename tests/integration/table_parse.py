#!/usr/bin/env python3
"""osdhist --table's output (a file) read back, for test_table.sh.

Checks, and says on stderr what fails (exit 1):
  - every snapshot (one health line each) has either the column heads or
    "no op completed";
  - in every table, each row's OSD and class start where their heads do,
    each number ends where its head does, the object starts where
    "object" does: the columns line up whatever the numbers;
  - no line is wider than WIDTH (120) columns;
  - no OSD and class has two rows in one interval;
  - failed is the row's ops for the class error, "-" for the others;
  - with --sort p99 (after the file): in every table the p99 column never
    grows from a row to the next.
Prints, as JSON: {"snapshots": N, "tables": N, "ops": {"osd.N": {"class":
ops summed over every interval}}, "biggest": the snapshot whose table has
the most rows, as printed}.
"""
import json
import sys

WIDTH = 120
HEADS = ["osd", "class", "ops", "ops/s", "mean", "p50", "p90", "p99", "p99.9",
         "max", "failed", "q_p99", "slowest"]
LEFT = 2  # osd and class are left-aligned; the numbers right-aligned


def spans(line):
    """The first len(HEADS) words' (start, end), and where the rest starts."""
    out, i = [], 0
    while len(out) < len(HEADS):
        while i < len(line) and line[i] == " ":
            i += 1
        if i >= len(line):
            break
        j = line.find(" ", i)
        j = len(line) if j < 0 else j
        out.append((i, j))
        i = j
    while i < len(line) and line[i] == " ":
        i += 1
    return out, (i if i < len(line) else None)


UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def ns(cell):
    """A latency cell ("850us", "1.23ms", "2s") in ns."""
    num = cell.rstrip("nsumµ")
    return float(num) * UNITS[cell[len(num):]]


def main():
    lines = open(sys.argv[1]).read().split("\n")
    by_p99 = sys.argv[2:] == ["--sort", "p99"]
    errors, ops = [], {}
    snapshots = tables = quiet = 0
    biggest, start, nrows = "", 0, -1
    i = 0
    while i < len(lines):
        line = lines[i]
        if len(line) > WIDTH:
            errors.append(f"line {i + 1} is {len(line)} columns wide: {line!r}")
        if line.startswith(("health:", "!! health:")):
            snapshots += 1
            start = i
        if line.startswith("no op completed in the last"):
            quiet += 1
        if not line.startswith("osd ") or line.split()[:len(HEADS)] != HEADS:
            i += 1
            continue
        tables += 1
        head, hobj = spans(line)
        block, seen, last_p99 = [line], set(), None
        i += 1
        while i < len(lines) and lines[i].startswith("osd."):
            row = lines[i]
            block.append(row)
            if len(row) > WIDTH:
                errors.append(f"line {i + 1} is {len(row)} columns wide: {row!r}")
            sp, obj = spans(row)
            if len(sp) != len(HEADS):
                errors.append(f"line {i + 1}: {len(sp)} columns: {row!r}")
                i += 1
                continue
            for c, ((hs, he), (rs, re)) in enumerate(zip(head, sp)):
                if (c < LEFT and rs != hs) or (c >= LEFT and re != he):
                    errors.append(f"line {i + 1}: column {HEADS[c]} at {rs}..{re}, "
                                  f"its head at {hs}..{he}: {row!r}")
            if obj != hobj:
                errors.append(f"line {i + 1}: object at {obj}, its head at {hobj}")
            w = [row[s:e] for s, e in sp]
            osd, cls, n, failed = w[0], w[1], int(w[2]), w[10]
            if (osd, cls) in seen:
                errors.append(f"line {i + 1}: a second row of {osd} {cls} in one interval")
            seen.add((osd, cls))
            p99 = ns(w[7])
            if by_p99 and last_p99 is not None and p99 > last_p99:
                errors.append(f"line {i + 1}: p99 {w[7]} after {last_p99:.0f} ns: not by p99")
            last_p99 = p99
            if failed != (str(n) if cls == "error" else "-"):
                errors.append(f"line {i + 1}: failed {failed!r} for {n} ops of {cls}")
            ops.setdefault(osd, {})
            ops[osd][cls] = ops[osd].get(cls, 0) + n
            i += 1
        if len(block) > nrows:
            nrows = len(block)
            end = i
            while end < len(lines) and lines[end]:
                end += 1
            biggest = "\n".join(lines[start:end])
    if tables + quiet != snapshots:
        errors.append(f"{snapshots} snapshots, but {tables} tables and {quiet} "
                      "'no op completed' lines")
    for e in errors[:20]:
        print(e, file=sys.stderr)
    print(json.dumps({"snapshots": snapshots, "tables": tables, "ops": ops,
                      "biggest": biggest}))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
