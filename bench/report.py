#!/usr/bin/env python3
"""bench/report.py META WINDOWS MAPSIZES OUT: the figures of bench/run.sh.

META      machine and run description (JSON, from run.sh)
WINDOWS   one JSON line per measured window: variant, round, workload,
          rados bench totals and the deltas of the OSD's `op` counter, the
          tracer's CPU ticks and its BPF programs' run_time_ns / run_cnt;
          for the sampled tracers the window's health-line figures (health);
          extra: the move-cost windows (none, then moves), kept apart
          keys: for the full-mode osdhist tracers, their health line at the
          end of the window (keys in use per map, losses)
MAPSIZES  sizes and constants of maps/osdhist.h (bench/mapsizes.c)
OUT       where the JSON result goes; the text table goes to stdout

The map memory model itself is bench/mapmodel.py.
"""
import json
import os
import statistics
import sys

import mapmodel

VARIANTS = ["none", "osdhist", "osdhist-nt", "prev", "osdhist+", "bpftrace", "sampled"]
WORKLOADS = [("write", "write"), ("rand", "read")]
MIB = 1 << 20

# Targets for osdhist's default mode.
MAX_HITS_PER_OP = 2
MAX_BPF_US_PER_OP = 0.5
MAX_LOSS_PCT = 3.0
MAX_LOADER_CPU_PCT = 0.5
MAX_MAP_MIB_LARGE = 64     # issue #16: the large host of bench/mapmodel.py
MAX_OPTYPES_US = 0.1        # issue #16: what op types may add to BPF time/op
FULL_HITS_PER_OP = 2        # osdhist's default mode, what sampling scales down
MOVES_PER_PERIOD = 3        # --sample: attach + open, shut the gate, detach
KEYMAPS = ("hists", "phase_hists", "opcounts", "calls", "slowops")


def mean_sd(xs):
    if not xs:
        return None, None
    return statistics.mean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)


def ratio(a, b):
    return a / b if b else None


def possible_cpus(spec):
    n = 0
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        n += int(hi or lo) - int(lo) + 1
    return n


def summarize(windows):
    clk = os.sysconf("SC_CLK_TCK")
    base = {}
    out = {}
    for v in VARIANTS:
        ws = [w for w in windows if w["variant"] == v]
        if not ws:
            continue
        s = {"workloads": {}}
        for wl, name in WORKLOADS:
            ww = sorted((w for w in ws if w["workload"] == wl), key=lambda w: w["round"])
            iops = [w["iops"] for w in ww]
            m, sd = mean_sd(iops)
            ops = sum(w["ops"] for w in ww)
            d = {"iops_rounds": iops, "iops_mean": m, "iops_sd": sd, "client_ops": ops,
                 "load1_mean": mean_sd([w["load1"] for w in ww])[0],
                 "osd_cpu_us_per_op": ratio(sum(w["osd_ticks"] for w in ww) * 1e6 / clk, ops),
                 "osd_cpu_us_per_op_rounds": [ratio(w["osd_ticks"] * 1e6 / clk, w["ops"]) for w in ww],
                 "bpf_ns_per_op": ratio(sum(w["run_ns"] for w in ww), ops),
                 "hits_per_op": ratio(sum(w["run_cnt"] for w in ww), ops)}
            if v == "none":
                base[wl] = {w["round"]: w["iops"] for w in ww}
                base[wl + "_cpu"] = d["osd_cpu_us_per_op"]
                d["loss_pct"] = 0.0
            else:
                d["osd_cpu_us_per_op_added"] = d["osd_cpu_us_per_op"] - base[wl + "_cpu"]
                d["loss_pct"] = (1 - m / statistics.mean(base[wl].values())) * 100
                # the same loss round by round (none and v ran back to back)
                paired = [(1 - w["iops"] / base[wl][w["round"]]) * 100
                          for w in ww if w["round"] in base[wl]]
                d["loss_pct_rounds"] = paired
                d["loss_pct_paired_sd"] = mean_sd(paired)[1]
                # standard error of the mean loss; None with one round
                d["loss_pct_se"] = (d["loss_pct_paired_sd"] / len(paired) ** 0.5
                                    if len(paired) > 1 else None)
            s["workloads"][name] = d
        ops = sum(w["ops"] for w in ws)
        wall = sum(w["wall"] for w in ws)
        s["client_ops"] = ops
        s["bpf_ns_per_op"] = ratio(sum(w["run_ns"] for w in ws), ops)
        s["hits_per_op"] = ratio(sum(w["run_cnt"] for w in ws), ops)
        s["bpf_programs"] = max(w["nprogs"] for w in ws)
        # per program: where the BPF time goes
        progs = {}
        for w in ws:
            for name, p in w.get("progs", {}).items():
                acc = progs.setdefault(name, [0, 0])
                acc[0] += p["run_ns"]
                acc[1] += p["run_cnt"]
        s["per_program"] = {name: {"runs_per_op": ratio(c, ops), "ns_per_run": ratio(n, c)}
                            for name, (n, c) in sorted(progs.items()) if c}
        s["bpf_stats_complete"] = all(w["stats_on"] for w in ws)
        s["loader_cpu_pct"] = sum(w["ticks"] for w in ws) / clk / wall * 100 if v != "none" else 0.0
        s["loader_rss_kb"] = max(w["rss_kb"] for w in ws)
        s["map_bytes"] = max(w["memlock"] for w in ws)
        s["maps"] = next((w["maps"] for w in reversed(ws) if w["maps"]), [])
        # BPF time per op round by round (both workloads), for paired
        # differences between variants
        s["bpf_ns_per_op_rounds"] = {
            r: ratio(sum(w["run_ns"] for w in ws if w["round"] == r),
                     sum(w["ops"] for w in ws if w["round"] == r))
            for r in sorted({w["round"] for w in ws})}
        keyed = [w for w in ws if w.get("keys")]
        if keyed:
            s["keys_end"] = keyed[-1]["keys"]
            s["losses"] = max(w["keys"].get("losses") or 0 for w in keyed)
            s["hist_full"] = max(w["keys"].get("hist_full") or 0 for w in keyed)
        if all(w.get("health") for w in ws):
            s["sampling"] = sampling(ws)
        out[v] = s
    return out


def sampling(ws):
    """What a --sample tracer's health lines say over windows ws: the duty
    cycle it really traced (traced time / interval time, per round too) and
    its probe moves (attach, gate shut, detach: 3 per period) with their
    cost in loader time."""
    h = [w["health"] for w in ws]
    interval = sum(x["interval_s"] for x in h)
    moves = sum(x["window_moves"] for x in h)
    move_s = sum(x["window_move_s"] for x in h)
    rounds = {}
    for w in ws:
        acc = rounds.setdefault(w["round"], [0.0, 0.0])
        acc[0] += w["health"]["traced_s"]
        acc[1] += w["health"]["interval_s"]
    return {"interval_s": interval, "traced_s": sum(x["traced_s"] for x in h),
            "duty": ratio(sum(x["traced_s"] for x in h), interval),
            "duty_rounds": [ratio(t, i) for _, (t, i) in sorted(rounds.items())],
            "window_moves": moves, "window_move_s": move_s,
            "moves_per_s": ratio(moves, interval),
            "ms_per_move": ratio(move_s * 1000, moves),
            "ms_per_period": ratio(move_s * 1000 * MOVES_PER_PERIOD, moves),
            "move_core_pct": ratio(move_s * 100, interval),
            "drain_timeout": sum(x["drain_timeout"] for x in h),
            "losses": sum(x["losses"] for x in h)}


def move_cost(windows, clk):
    """The extra windows: none, then an osdhist moving its probes all the
    time, per workload; the IOPS loss of the pair, and what it would be,
    scaled linearly, at the sampled variant's move rate."""
    ws = [w for w in windows if w.get("extra")]
    if not ws:
        return None
    moving = [w for w in ws if w["variant"] == "moves"]
    out = {"workloads": {}, "sampling": sampling(moving),
           "hits_per_op": ratio(sum(w["run_cnt"] for w in moving), sum(w["ops"] for w in moving)),
           "bpf_ns_per_op": ratio(sum(w["run_ns"] for w in moving), sum(w["ops"] for w in moving)),
           "loader_cpu_pct": sum(w["ticks"] for w in moving) / clk / sum(w["wall"] for w in moving) * 100}
    for wl, name in WORKLOADS:
        base = next(w for w in ws if w["variant"] == "none" and w["workload"] == wl)
        mv = next(w for w in moving if w["workload"] == wl)
        out["workloads"][name] = {
            "none_iops": base["iops"], "moves_iops": mv["iops"],
            "loss_pct": (1 - mv["iops"] / base["iops"]) * 100,
            "moves_per_s": ratio(mv["health"]["window_moves"], mv["health"]["interval_s"]),
            "osd_cpu_us_per_op_added": (mv["osd_ticks"] * 1e6 / clk / mv["ops"]
                                        - base["osd_ticks"] * 1e6 / clk / base["ops"])}
    return out


def bpf_cost(summary, a, b):
    """BPF time per op of variant a minus that of b (us), from the totals,
    with the standard error of the round-by-round paired differences (None
    with one round)."""
    sa, sb = summary.get(a), summary.get(b)
    if not sa or not sb or sa["bpf_ns_per_op"] is None or sb["bpf_ns_per_op"] is None:
        return None
    pairs = [(x - sb["bpf_ns_per_op_rounds"][r]) / 1000
             for r, x in sa["bpf_ns_per_op_rounds"].items()
             if x is not None and sb["bpf_ns_per_op_rounds"].get(r) is not None]
    return {"a": a, "b": b, "us": (sa["bpf_ns_per_op"] - sb["bpf_ns_per_op"]) / 1000,
            "us_rounds": pairs,
            "se": statistics.stdev(pairs) / len(pairs) ** 0.5 if len(pairs) > 1 else None}


def measured_map(m):
    """A map as bpftool shows it, in bench/mapmodel.py's terms."""
    return {"name": m["name"], "type": m["type"], "key": m["bytes_key"], "value": m["bytes_value"],
            "max_entries": m["max_entries"], "flags": m["flags"]}


def map_memory(windows, sz, ncpus_here):
    """The model checked against the kernel here (every window of a tracer
    whose health line gave its keys: the kernel's figure of each map against
    its bytes_memlock at the same moment), then the large host."""
    checked, mismatches, here = 0, [], None
    for w in windows:
        if not w.get("keys") or not w.get("maps") or w["keys"].get("hists") is None:
            continue
        maps = [measured_map(m) for m in w["maps"]]
        keys = {k: w["keys"][k] for k in KEYMAPS}
        rows = mapmodel.model(maps, ncpus_here, keys)
        for row, m in zip(rows, w["maps"]):
            checked += 1
            if row["kernel_bytes"] != m["bytes_memlock"]:
                mismatches.append("%s r%s %s %s: model %d B, kernel %d B" % (
                    w["variant"], w["round"], w["workload"], m["name"], row["kernel_bytes"],
                    m["bytes_memlock"]))
        if w["variant"] == "osdhist":
            here = {"variant": w["variant"], "round": w["round"], "workload": w["workload"],
                    "ncpus": ncpus_here, "keys": keys, "maps": rows,
                    "kernel_bytes": sum(r["kernel_bytes"] for r in rows),
                    "allocated_bytes": sum(r["allocated_bytes"] for r in rows),
                    "measured_bytes": sum(m["bytes_memlock"] for m in w["maps"])}
    # the definitions the large host is modelled from must be the loaded ones
    latest = next((w["maps"] for w in reversed(windows)
                   if w.get("maps") and w["variant"].startswith("osdhist")), [])
    # (the per-CPU fronts are sized by the CPUs and --phases: either)
    defs = [{m["name"]: m for m in mapmodel.osdhist_maps(sz, [], ncpus_here, ph)}
            for ph in (False, True)]
    shape = lambda d: (d["type"], d["key"], d["value"], d["max_entries"])
    for m in latest:
        d = defs[0].get(m["name"])
        loaded = (m["type"], m["bytes_key"], m["bytes_value"], m["max_entries"])
        if d and loaded not in (shape(d), shape(defs[1][m["name"]])):
            mismatches.append("map %s loaded as %s %d/%d x %d, bench/mapsizes.c says %s %d/%d x %d"
                              % (m["name"], m["type"], m["bytes_key"], m["bytes_value"],
                                 m["max_entries"], d["type"], d["key"], d["value"],
                                 d["max_entries"]))
    global_maps = [m for m in latest if m["type"] == "array" and m["flags"] & mapmodel.BPF_F_MMAPABLE]
    if not global_maps:     # no measurement: .bss and .rodata, a page each twice
        global_maps = [{"name": n, "type": "array", "bytes_key": 4, "bytes_value": 8,
                        "max_entries": 1, "flags": mapmodel.BPF_F_MMAPABLE}
                       for n in (".bss", ".rodata")]
    h = mapmodel.LARGE_HOST
    maps = mapmodel.osdhist_maps(sz, global_maps, h["cpus"], "--phases" in h["args"])
    keys = mapmodel.large_host_keys(h)
    # CPUs that create keys: any CPU an OSD thread runs on may create a
    # histogram key; an opcounts or slowops key is created once per OSD
    hot = {"opcounts": keys["opcounts"], "slowops": keys["slowops"]}
    large = mapmodel.model(maps, h["cpus"], keys, hot)
    full = mapmodel.model(maps, h["cpus"], {m["name"]: m["max_entries"] for m in maps}, None)
    pg = mapmodel.large_host_keys(h, classes=len(mapmodel.MIX_CLASSES) + 1,
                                  optype_keys=mapmodel.MIX_OPTYPE_KEYS + 1)
    # opcounts as a plain hash (atomic adds, like hists) instead of per CPU
    plain = dict(next(m for m in maps if m["name"] == "opcounts"), type="hash")
    plain_row = mapmodel.model([plain], h["cpus"], keys, hot)[0]
    tot = lambda rows, k: sum(r[k] for r in rows)
    return {
        "sizeof_hist_pair": sz["hist_pair"], "sizeof_op_counts": sz["op_counts"],
        "model_check": ("exact" if checked and not mismatches else
                        "no window with key counts" if not checked else "; ".join(mismatches)),
        "model_checked_maps": checked, "here": here,
        "large_host": dict(h, mix=mapmodel.MIX_TEXT, keys=keys, maps=large,
                           kernel_bytes=tot(large, "kernel_bytes"),
                           allocated_bytes=tot(large, "allocated_bytes"),
                           cache_bytes=tot(large, "cache_bytes"),
                           fits=all(r["fits"] for r in large)),
        "large_host_full": {"maps": full, "kernel_bytes": tot(full, "kernel_bytes"),
                            "allocated_bytes": tot(full, "allocated_bytes")},
        "large_host_with_pg": {"keys": pg, "fits": all(
            pg[k] <= next(m["max_entries"] for m in maps if m["name"] == k) for k in KEYMAPS)},
        "large_host_opcounts_plain_hash": plain_row,
    }


def print_map_memory(mem):
    big, full = mem["large_host"], mem["large_host_full"]
    here = mem["here"]
    if here:
        print("osdhist maps here (%d CPUs, variant %s, keys %s): kernel %.2f MiB, allocated "
              "%.2f MiB; model vs the kernel's figure (bytes_memlock), %d maps x windows: %s" %
              (here["ncpus"], here["variant"], "/".join("%s %d" % kv for kv in here["keys"].items()),
               here["kernel_bytes"] / MIB, here["allocated_bytes"] / MIB,
               mem["model_checked_maps"], mem["model_check"]))
    else:
        print("osdhist maps here: no window with key counts; model check: %s" % mem["model_check"])
    print("osdhist maps on a large host: %d OSDs, %d CPUs, %d pools, %s" %
          (big["osds"], big["cpus"], big["pools"], big["args"]))
    print("  mix: %s" % big["mix"])
    print("  %-15s %-25s %10s %11s %14s %12s" % ("map", "type", "keys/max", "kernel MiB",
                                               "allocated MiB", "(in caches)"))
    for r in big["maps"]:
        kind = r["type"] + ("" if r["prealloc"] or r["type"] not in mapmodel.HASHES
                            else " (no prealloc)")
        entries = ("%d/%d" % (r["keys"], r["max_entries"]) if r["keys"] is not None
                   else "%d" % r["max_entries"])
        print("  %-15s %-25s %10s %11.3f %14.3f %12s" % (
            r["name"], kind, entries, r["kernel_bytes"] / MIB, r["allocated_bytes"] / MIB,
            "%.3f" % (r["cache_bytes"] / MIB) if r["cache_bytes"] else "-"))
    print("  %-15s %-25s %10s %11.3f %14.3f %12.3f" % (
        "total", "", "fits" if big["fits"] else "FULL", big["kernel_bytes"] / MIB,
        big["allocated_bytes"] / MIB, big["cache_bytes"] / MIB))
    print("  (kernel: what the kernel reports, bytes_memlock; allocated: kmalloc size classes "
          "and bpf_mem_alloc's free-object caches on every CPU, see bench/mapmodel.py; the "
          "64 MiB target is checked on allocated)")
    print("  every map full (max_entries keys, for information): kernel %.2f MiB, allocated %.2f MiB"
          % (full["kernel_bytes"] / MIB, full["allocated_bytes"] / MIB))
    pg = mem["large_host_with_pg"]
    print("  with class pg (rados ls) in every pool too: hists %d, phase_hists %d keys: %s" %
          (pg["keys"]["hists"], pg["keys"]["phase_hists"],
           "fits" if pg["fits"] else "does NOT fit (keys past max_entries are lost)"))
    op = next(r for r in big["maps"] if r["name"] == "opcounts")
    alt = mem["large_host_opcounts_plain_hash"]
    print("  opcounts as a plain hash (atomic adds) instead of per CPU: %.3f MiB allocated "
          "instead of %.3f" % (alt["allocated_bytes"] / MIB, op["allocated_bytes"] / MIB))


def fmt(x, spec, none="-"):
    return none if x is None else format(x, spec)


def write_result(result, out_f):
    """The JSON result to out_f, and on stdout where it went (also
    bench/duty_report.py's)."""
    with open(out_f, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print()
    print("results: %s" % out_f)


def main():
    meta_f, windows_f, sizes_f, out_f = sys.argv[1:5]
    with open(meta_f) as f:
        meta = json.load(f)
    with open(windows_f) as f:
        windows = [json.loads(line) for line in f if line.strip()]
    with open(sizes_f) as f:
        sz = json.load(f)
    # bench/front_cost.c's measurement, beside the sizes (run.sh writes both)
    front_f = os.path.join(os.path.dirname(sizes_f), "front_cost.json")
    front = None
    if os.path.exists(front_f):
        with open(front_f) as f:
            front = json.load(f)
    summary = summarize([w for w in windows if not w.get("extra")])
    moves = move_cost(windows, os.sysconf("SC_CLK_TCK"))
    ncpus_here = possible_cpus(meta["machine"]["cpus_possible"])

    mem = map_memory([w for w in windows if not w.get("extra")], sz, ncpus_here)
    cost_nt = bpf_cost(summary, "osdhist", "osdhist-nt")
    cost_prev = bpf_cost(summary, "osdhist", "prev")

    # ---- the table
    m = meta["machine"]
    print()
    print("osdhist bench: %s mode, %d round(s) of %d s per variant and workload%s" %
          (meta["mode"], meta["rounds"], meta["round_secs"],
           ", after a warm-up" if meta["warmup"] else ", no warm-up"))
    print("machine: %s CPUs (%s), kernel %s, %s; %s" %
          (m["nproc"], m["cpu"], m["kernel"], m["ceph"], m["date"]))
    print("load average: %s at start, %s at end; other ceph-osd processes on the host: %d" %
          (m["loadavg_start"], m["loadavg_end"], m["other_ceph_osds_at_end"]))
    print()
    print("%-10s %-5s %16s %20s %12s %10s %8s %13s %5s" %
          ("variant", "op", "IOPS mean+-sd", "rounds", "loss %", "BPF us/op", "hits/op",
           "OSD CPU us/op", "load"))
    for v, s in summary.items():
        for _, name in WORKLOADS:
            d = s["workloads"].get(name)
            if not d or d["iops_mean"] is None:
                continue
            loss = "-" if v == "none" else "%.1f" % d["loss_pct"]
            if v != "none" and d.get("loss_pct_paired_sd"):
                loss += "+-%.1f" % d["loss_pct_paired_sd"]
            cpu = fmt(d["osd_cpu_us_per_op"], ".1f")
            if v != "none" and d["osd_cpu_us_per_op"] is not None:
                cpu += " (%+.1f)" % d["osd_cpu_us_per_op_added"]
            print("%-10s %-5s %9.0f+-%-5.0f %20s %12s %10s %8s %13s %5.1f" %
                  (v, name, d["iops_mean"], d["iops_sd"],
                   "/".join("%.0f" % x for x in d["iops_rounds"]), loss,
                   fmt(d["bpf_ns_per_op"] and d["bpf_ns_per_op"] / 1000, ".3f") if v != "none" else "-",
                   fmt(d["hits_per_op"], ".2f") if v != "none" else "-", cpu, d["load1_mean"]))
    print()
    print("%-10s %10s %10s %10s %11s %11s  %s" %
          ("variant", "BPF us/op", "hits/op", "CPU %core", "RSS MiB", "maps MiB",
           "keys hists/phase_hists/opcounts, losses"))
    for v, s in summary.items():
        if v == "none":
            continue
        k = s.get("keys_end")
        print("%-10s %10s %10s %10.2f %11.1f %11.2f  %s" %
              (v, fmt(s["bpf_ns_per_op"] and s["bpf_ns_per_op"] / 1000, ".3f"),
               fmt(s["hits_per_op"], ".2f"), s["loader_cpu_pct"], s["loader_rss_kb"] / 1024,
               s["map_bytes"] / MIB,
               "-" if not k else "%s, %s" % ("/".join("-" if k.get(m) is None else str(k[m])
                                                       for m in KEYMAPS), s.get("losses"))))
    for v, s in summary.items():
        if s.get("per_program"):
            print("  %-10s per program: %s" % (v, ", ".join(
                "%s %.2f us x %.2f/op" % (n, p["ns_per_run"] / 1000, p["runs_per_op"])
                for n, p in s["per_program"].items())))
    print("(load: the 1-minute load average after each window of the row, mean;")
    print(" loss: from the means, +- the stddev of the round-by-round paired losses;"
          " OSD CPU: the OSD's utime+stime per client op, in brackets what the tracer adds;"
          " BPF time and hits over write and read together)")
    print()
    smp = summary.get("sampled", {}).get("sampling")
    if smp:
        print("sampled (%s): traced %.1f s of %.1f s: duty cycle %.1f %% (rounds %s); "
              "hits/op %s (2 x duty = %.2f, plus the drains)" %
              (meta["variants"]["sampled"], smp["traced_s"], smp["interval_s"], smp["duty"] * 100,
               "/".join("%.1f" % (x * 100) for x in smp["duty_rounds"]),
               fmt(summary["sampled"]["hits_per_op"], ".2f"), FULL_HITS_PER_OP * smp["duty"]))
        print("  probe moves (attach, gate shut, detach per period): %d, %.2f/s, %s ms per move "
              "(%s ms per period); loader time in them %s %% of a core by the wall clock "
              "(its CPU use, all of it: %.2f %%); "
              "drain timeouts %d, losses %d" %
              (smp["window_moves"], smp["moves_per_s"], fmt(smp["ms_per_move"], ".1f"),
               fmt(smp["ms_per_period"], ".0f"),
               fmt(smp["move_core_pct"], ".2f"), summary["sampled"]["loader_cpu_pct"],
               smp["drain_timeout"], smp["losses"]))
    if moves:
        mm = moves["sampling"]
        print("probe moves cost the OSD (%s, one window per workload right after one "
              "without tracer): %.1f moves/s, %s ms per move, loader CPU %.1f %%, hits/op %.2f" %
              (meta["variants"]["moves"], mm["moves_per_s"], fmt(mm["ms_per_move"], ".1f"),
               moves["loader_cpu_pct"], moves["hits_per_op"] or 0))
        for _, name in WORKLOADS:
            d = moves["workloads"][name]
            line = ("  %-5s %6.0f IOPS vs %6.0f without tracer: loss %.1f %% at %.1f moves/s, "
                    "OSD CPU %+.1f us/op" % (name, d["moves_iops"], d["none_iops"], d["loss_pct"],
                                            d["moves_per_s"], d["osd_cpu_us_per_op_added"]))
            if smp and d["moves_per_s"]:
                d["loss_pct_at_sampled_rate"] = d["loss_pct"] * smp["moves_per_s"] / d["moves_per_s"]
                line += "; scaled to sampled's %.2f moves/s: %.2f %%" % (
                    smp["moves_per_s"], d["loss_pct_at_sampled_rate"])
            print(line)
        print("  (one pair of windows: as noisy as one round of the table above)")
        print()
    if cost_nt or cost_prev:
        def cost(c):
            if not c:
                return "not measured"
            return "%+.3f us/op %s%s" % (
                c["us"], "PASS" if c["us"] <= MAX_OPTYPES_US else "MISS",
                "" if c["se"] is None else " (+-%.3f s.e. over %d rounds)" % (c["se"], len(c["us_rounds"])))
        print("op types cost: %s BPF (osdhist - osdhist-nt); vs previous release: %s%s "
              "(limit +%.1f us)" % (cost(cost_nt), cost(cost_prev),
                                    "" if cost_prev else " (set OSDHIST_PREV to an older osdhist)",
                                    MAX_OPTYPES_US))
        print()
    print_map_memory(mem)
    if front:
        fm = front["model"]
        print("per-CPU front rows, read at each snapshot (bench/front_cost.c): here a lookup "
              "%d ns + %.0f ns/KiB copied, a row summed over %d CPUs %d ns (histograms) / %d ns "
              "(op codes); modelled for %d CPUs%s, %d + %d rows: %.1f MiB copied, %.2f ms a "
              "snapshot, %.2f %% of a core at 1 s" % (
                  front["lookup_ns"], front["copy_ns_per_kib"], fm["cpus"],
                  front["fold_ns_hist_row"], front["fold_ns_opc_row"], fm["cpus"],
                  " with --phases" if fm["phases"] else "", fm["hist_rows"] * (2 if fm["phases"] else 1),
                  fm["opc_rows"], fm["bytes"] / MIB, fm["ms_per_snapshot"], fm["cpu_pct_at_1s"]))

    # ---- targets (osdhist's default mode)
    targets = []

    def target(name, value, limit, unit, fmtspec=".2f", strict=False, se=False):
        """se: the standard error of value - limit where it is a noisy IOPS
        figure (None: one round, no estimate); the verdict is marked
        uncertain when the margin or gap is under two standard errors."""
        ok = value is not None and (value < limit if strict else value <= limit)
        gap = None if value is None else value - limit
        uncertain = se is not False and (se is None or gap is None or abs(gap) < 2 * se)
        targets.append({"target": name, "value": value, "limit": limit, "unit": unit,
                        "result": "PASS" if ok else "MISS", "gap": gap,
                        "noise_se": se if se is not False else None,
                        "within_noise": uncertain})
        print("%-4s %-52s %10s %s (limit %s; %s %s)%s" %
              ("PASS" if ok else "MISS", name, fmt(value, fmtspec, "n/a"), unit,
               format(limit, fmtspec), "margin" if ok else "gap",
               fmt(None if gap is None else abs(gap), fmtspec, "n/a"),
               "" if not uncertain else
               "  [within noise: one round]" if se is None else
               "  [within noise: +-%.1f %% s.e.]" % se))

    print()
    print("targets (osdhist default mode):")
    d = summary.get("osdhist")
    peer = summary.get("bpftrace")
    if d:
        target("probe hits per client op <= 2", d["hits_per_op"], MAX_HITS_PER_OP, "hits")
        target("BPF run time per client op <= 0.5 us",
               d["bpf_ns_per_op"] and d["bpf_ns_per_op"] / 1000, MAX_BPF_US_PER_OP, "us", ".3f")
        if peer and peer["bpf_ns_per_op"]:
            target("BPF run time per client op below the bpftrace peer's (%.3f us)" %
                   (peer["bpf_ns_per_op"] / 1000), d["bpf_ns_per_op"] and d["bpf_ns_per_op"] / 1000,
                   peer["bpf_ns_per_op"] / 1000, "us", ".3f")
        for _, name in WORKLOADS:
            dw = d["workloads"][name]
            target("%s IOPS loss <= 3 %%" % name, dw["loss_pct"], MAX_LOSS_PCT, "%", ".1f",
                   se=dw["loss_pct_se"])
            if peer:
                pw = peer["workloads"][name]
                se = (None if dw["loss_pct_se"] is None or pw["loss_pct_se"] is None else
                      (dw["loss_pct_se"] ** 2 + (pw["loss_pct_se"] / 2) ** 2) ** 0.5)
                target("%s IOPS loss <= half the bpftrace peer's (%.1f %%)" %
                       (name, pw["loss_pct"]), dw["loss_pct"], pw["loss_pct"] / 2, "%", ".1f",
                       se=se)
        target("loader CPU at 1 s interval < 0.5 % of a core",
               d["loader_cpu_pct"], MAX_LOADER_CPU_PCT, "%", ".2f", strict=True)
    for c, what in ((cost_nt, "osdhist - osdhist-nt"), (cost_prev, "osdhist - prev")):
        if c:
            target("op types: BPF time per op %s <= +0.1 us" % what, c["us"], MAX_OPTYPES_US,
                   "us", ".3f")
    if front:
        target("large host: reading the per-CPU front rows at 1 s (modelled) < 0.5 %% of a core"
               "", front["model"]["cpu_pct_at_1s"], MAX_LOADER_CPU_PCT, "%", ".2f")
    big = mem["large_host"]
    target("maps on the large host (%d OSDs, %d CPUs, %d pools), allocated <= 64 MiB" %
           (big["osds"], big["cpus"], big["pools"]), big["allocated_bytes"] / MIB,
           MAX_MAP_MIB_LARGE, "MiB")
    target("large host: every key fits (keys over max_entries, worst map)",
           max(r["keys"] / r["max_entries"] for r in big["maps"] if r["keys"] is not None),
           1.0, "x", ".3f")
    target("map model = the kernel's bytes_memlock here (maps not exact)",
           0 if mem["model_check"] == "exact" else max(1, mem["model_check"].count(";") + 1),
           0, "maps", ".0f")
    # sampled mode: its loss should be the full mode's scaled by the duty
    # cycle it really traced, plus what the probe moves cost (above)
    sd = summary.get("sampled")
    if d and sd and sd.get("sampling"):
        duty = sd["sampling"]["duty"]
        print()
        print("targets (sampled mode, duty cycle %.3f measured):" % duty)
        for _, name in WORKLOADS:
            dw, sw = d["workloads"][name], sd["workloads"][name]
            se = (None if dw["loss_pct_se"] is None or sw["loss_pct_se"] is None else
                  (sw["loss_pct_se"] ** 2 + (duty * dw["loss_pct_se"]) ** 2) ** 0.5)
            target("%s IOPS loss <= full mode's (%.1f %%) x duty" % (name, dw["loss_pct"]),
                   sw["loss_pct"], dw["loss_pct"] * duty, "%", ".2f", se=se)
        if moves:
            print("     (the limit is full-mode loss x duty only; the probe moves' own cost, the "
                  "move measurement scaled to sampled's rate: %s)" % ", ".join(
                      "%s %s %%" % (name, fmt(moves["workloads"][name].get("loss_pct_at_sampled_rate"), ".2f"))
                      for _, name in WORKLOADS))
    for n in meta.get("notes", []):
        print("note: %s" % n)

    result = dict(meta)
    result.update({"summary": summary, "move_cost": moves, "map_memory": mem, "front_cost": front,
                   "bpf_cost": {"optypes": cost_nt, "vs_prev": cost_prev}, "targets": targets,
                   "windows": [{k: w[k] for k in w if k != "maps"} for w in windows]})
    write_result(result, out_f)


if __name__ == "__main__":
    main()
