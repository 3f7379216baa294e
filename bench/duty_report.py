#!/usr/bin/env python3
"""bench/duty_report.py META SEGMENTS OUT RADOS_LOG...: the table and the
JSON of bench/duty.sh.

RADOS_LOG: rados.tN.log, rados bench's output for -t N, each line prefixed
with the time it arrived (kept with the results; it names the -t values).
A segment's client ops are the delta of the OSD's `op` counter between its
two quiet edges (bench/duty.sh: pause), exact; its IOPS is that over the
time rados bench ran in it (t1 - t0)."""
import json
import re
import statistics
import sys

from report import write_result   # bench/report.py, beside this script

VARIANTS = ("none", "osdhist", "sampled", "fast", "bpftrace")


def mean_se(xs):
    if not xs:
        return None, None
    if len(xs) == 1:
        return xs[0], None
    return statistics.mean(xs), statistics.stdev(xs) / len(xs) ** 0.5


def combine(*ses):
    return None if any(s is None for s in ses) else sum(s * s for s in ses) ** 0.5


def fmt(x, spec=".2f"):
    return "-" if x is None else format(x, spec)


def summarize(segs):
    """Per variant: IOPS, loss paired with none of the same rotation,
    hits and OSD CPU per op, and the sampling figures of its tracers."""
    for s in segs:
        s["iops"] = s["ops"] / (s["t1"] - s["t0"])
    base = {s["rotation"]: s for s in segs if s["variant"] == "none"}
    out = {}
    for v in VARIANTS:
        ss = sorted((s for s in segs if s["variant"] == v), key=lambda s: s["rotation"])
        if not ss:
            continue
        ops = sum(s["ops"] for s in ss)
        d = {"ops": ops, "runs": sum(s["runs"] for s in ss),
             "iops_rounds": [s["iops"] for s in ss],
             "iops_mean": statistics.mean(s["iops"] for s in ss),
             "hits_per_op": sum(s["runs"] for s in ss) / ops,
             "bpf_us_per_op": sum(s.get("bpf_ns", 0) for s in ss) / 1000 / ops,
             "osd_cpu_us_per_op_rounds": [s["osd_cpu_ns"] / 1000 / s["ops"] for s in ss]}
        d["osd_cpu_us_per_op"], d["osd_cpu_se"] = mean_se(d["osd_cpu_us_per_op_rounds"])
        if v != "none":
            paired = [(1 - s["iops"] / base[s["rotation"]]["iops"]) * 100
                      for s in ss if s["rotation"] in base]
            added = [s["osd_cpu_ns"] / 1000 / s["ops"]
                     - base[s["rotation"]]["osd_cpu_ns"] / 1000 / base[s["rotation"]]["ops"]
                     for s in ss if s["rotation"] in base]
            d["loss_pct_rounds"] = paired
            d["loss_pct"], d["loss_se"] = mean_se(paired)
            d["cpu_added_us"], d["cpu_added_se"] = mean_se(added)
            hs = [s["health"] for s in ss if s["health"]]
            interval = sum(h["interval_s"] for h in hs)
            if not hs:	# the bpftrace peer prints no health
                out[v] = d
                continue
            d["duty"] = sum(h["traced_s"] for h in hs) / interval if interval else None
            d["moves_per_s"] = sum(h["window_moves"] for h in hs) / interval if interval else None
            d["losses"] = sum(h["losses"] for h in hs)
        out[v] = d
    return out


def model(d, key, se_key):
    """Full mode's figure per hit, the moves' per move/s (from fast), and
    what they predict for sampled; next to full x duty."""
    f, s, q = d.get("osdhist"), d.get("sampled"), d.get("fast")
    if not (f and s and q) or not f["hits_per_op"]:
        return None
    per_hit = f[key] / f["hits_per_op"]
    per_move = ((q[key] - per_hit * q["hits_per_op"]) / q["moves_per_s"]
                if q["moves_per_s"] else None)
    m = {"per_hit": per_hit, "per_move_per_s": per_move,
         "full_x_duty": f[key] * s["duty"],
         "moves_part": None if per_move is None else per_move * s["moves_per_s"],
         "measured": s[key], "measured_se": s[se_key],
         "full": f[key], "full_se": f[se_key]}
    m["predicted"] = (None if per_move is None else
                      per_hit * s["hits_per_op"] + per_move * s["moves_per_s"])
    m["tenth_plus_moves"] = (None if m["moves_part"] is None else
                             m["full_x_duty"] + m["moves_part"])
    # the verdicts: 2 standard errors (None when a single rotation gives none)
    se_fall = combine(s[se_key], f[se_key])
    m["falls"] = None if se_fall is None else f[key] - s[key] > 2 * se_fall
    m["falls_margin_se"] = None if se_fall is None else (f[key] - s[key]) / se_fall
    se_fit = combine(s[se_key], s["duty"] * f[se_key] if f[se_key] is not None else None,
                     q[se_key])
    m["fits"] = (None if se_fit is None or m["tenth_plus_moves"] is None else
                 abs(s[key] - m["tenth_plus_moves"]) <= 2 * se_fit)
    m["fit_se"] = se_fit
    return m


def versus_peer(d):
    """Issue 12's targets for full mode, against the bpftrace peer measured
    in the same run."""
    f, p = d.get("osdhist"), d.get("bpftrace")
    if not (f and p):
        return None
    se = combine(f["loss_se"], p["loss_se"])
    v = {"hits_per_op": f["hits_per_op"], "bpf_us_per_op": f["bpf_us_per_op"],
         "peer_bpf_us_per_op": p["bpf_us_per_op"], "loss_pct": f["loss_pct"],
         "peer_loss_pct": p["loss_pct"], "loss_diff_se": se}
    verdict = lambda ok: "PASS" if ok else "MISS"
    v["lines"] = [
        "%s probe hits per client op = 2.00: %.2f" %
        (verdict(abs(f["hits_per_op"] - 2) < 0.01), f["hits_per_op"]),
        "%s BPF run time per client op <= 0.5 us and below the peer's: %.3f us vs %.3f us" %
        (verdict(f["bpf_us_per_op"] <= 0.5 and f["bpf_us_per_op"] < p["bpf_us_per_op"]),
         f["bpf_us_per_op"], p["bpf_us_per_op"]),
        "%s IOPS loss no worse than the peer's: %s %% vs %s %% (difference +-%s s.e.)" %
        (verdict(f["loss_pct"] <= p["loss_pct"] + (2 * se if se else 0)),
         fmt(f["loss_pct"]), fmt(p["loss_pct"]), fmt(se))]
    return v


def main():
    meta_f, segs_f, out_f, logs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    meta = json.load(open(meta_f))
    segs = [json.loads(line) for line in open(segs_f)]
    result = dict(meta, workloads={})
    print()
    print("osdhist duty-cycle bench: %s mode, %d rotation(s) of %d s segments, one rados bench "
          "rand per -t; %s, %s CPUs, kernel %s, commit %s" %
          (meta["mode"], meta["rotations"], meta["segment_secs"], meta["machine"]["date"],
           meta["machine"]["nproc"], meta["machine"]["kernel"], meta["machine"]["commit"]))
    for path in logs:
        t = int(re.search(r"rados\.t(\d+)\.log$", path).group(1))
        ss = [s for s in segs if s["t"] == t]
        d = summarize(ss)
        w = {"summary": d, "model_loss": model(d, "loss_pct", "loss_se"),
             "model_cpu": model(d, "cpu_added_us", "cpu_added_se")}
        result["workloads"]["t%d" % t] = w
        print()
        print("rados bench rand -t %d" % t)
        print("%-8s %9s %12s %14s %8s %10s %16s %6s %8s" %
              ("variant", "IOPS", "loss %", "(+-s.e.)", "hits/op", "BPF us/op",
               "OSD CPU us/op", "duty", "moves/s"))
        for v, x in d.items():
            print("%-8s %9.0f %12s %14s %8.2f %10.3f %16s %6s %8s" %
                  (v, x["iops_mean"], fmt(x.get("loss_pct")),
                   "" if x.get("loss_se") is None else "+-%.2f" % x["loss_se"],
                   x["hits_per_op"], x["bpf_us_per_op"],
                   "%.1f" % x["osd_cpu_us_per_op"] + ("" if v == "none" else
                                                      " (%+.1f)" % x["cpu_added_us"]),
                   fmt(x.get("duty"), ".3f"), fmt(x.get("moves_per_s"), ".1f")))
        w["versus_peer"] = versus_peer(d)
        for line in w["versus_peer"]["lines"] if w["versus_peer"] else ():
            print("  " + line)
        for name, m, unit in (("IOPS loss", w["model_loss"], "%"),
                              ("OSD CPU added", w["model_cpu"], "us/op")):
            if not m:
                continue
            print("  %s: full %s %s -> %s per probe hit/op; moves %s per move/s" %
                  (name, fmt(m["full"]), unit, fmt(m["per_hit"], ".3f"),
                   fmt(m["per_move_per_s"], ".3f")))
            print("    sampled measured %s %s (+-%s); full x duty %s + moves %s = %s; "
                  "from its hits and moves %s" %
                  (fmt(m["measured"]), unit, fmt(m["measured_se"]), fmt(m["full_x_duty"]),
                   fmt(m["moves_part"]), fmt(m["tenth_plus_moves"]), fmt(m["predicted"])))
            print("    %s falls with the duty cycle (full - sampled = %s s.e.); "
                  "%s full x duty + moves (within 2 s.e. = %s)" %
                  ({True: "PASS", False: "MISS", None: "n/a "}[m["falls"]],
                   fmt(m["falls_margin_se"], ".1f"),
                   {True: "PASS matches", False: "MISS differs from", None: "n/a  vs"}[m["fits"]],
                   fmt(None if m["fit_se"] is None else 2 * m["fit_se"])))
    result["segments"] = segs
    write_result(result, out_f)


if __name__ == "__main__":
    main()
