#!/usr/bin/env python3
"""bench/report.py META WINDOWS MAPSIZES OUT: the figures of bench/run.sh.

META      machine and run description (JSON, from run.sh)
WINDOWS   one JSON line per measured window: variant, round, workload,
          rados bench totals and the deltas of the OSD's `op` counter, the
          tracer's CPU ticks and its BPF programs' run_time_ns / run_cnt;
          for the sampled tracers the window's health-line figures (health);
          extra: the move-cost windows (none, then moves), kept apart
MAPSIZES  sizes and constants of maps/osdhist.h (bench/mapsizes.c)
OUT       where the JSON result goes; the text table goes to stdout
"""
import json
import os
import statistics
import sys

VARIANTS = ["none", "osdhist", "osdhist+", "bpftrace", "sampled"]
WORKLOADS = [("write", "write"), ("rand", "read")]
MIB = 1 << 20

# Targets for osdhist's default mode.
MAX_HITS_PER_OP = 2
MAX_BPF_US_PER_OP = 0.5
MAX_LOSS_PCT = 3.0
MAX_LOADER_CPU_PCT = 0.5
MAX_MAP_MIB_64 = 16
BIG_HOST_CPUS = 64
FULL_HITS_PER_OP = 2        # osdhist's default mode, what sampling scales down
MOVES_PER_PERIOD = 3        # --sample: attach + open, shut the gate, detach

# Kernel-side sizes for the map memory model (x86-64, kernel 6.x).  The
# kernel reports a map's memory (bpftool's bytes_memlock) as map_mem_usage():
# kernel/bpf/hashtab.c htab_map_mem_usage(), kernel/bpf/arraymap.c
# array_map_mem_usage().  sizeof(struct bpf_htab) and sizeof(struct
# bpf_array) vary with the kernel config; these two are the ones measured on
# this project's 6.18 VMs, and every run checks the model against the
# measured bytes_memlock (model_check in the output).
SIZEOF_BPF_HTAB = 832
SIZEOF_BPF_ARRAY = 312
SIZEOF_HTAB_ELEM = 48       # struct htab_elem header, before the key
SIZEOF_BUCKET = 16          # struct bucket: hlist_nulls_head + lock
HASHTAB_MAP_LOCK_COUNT = 8  # per-CPU int counters per hash map
PAGE = 4096
BPF_F_MMAPABLE = 1 << 10


def round_up(n, a):
    return (n + a - 1) // a * a


def pow2_ceil(n):
    p = 1
    while p < n:
        p <<= 1
    return p


def map_mem(mtype, key, value, entries, flags, ncpus):
    """Bytes the kernel accounts for one map on a host with ncpus possible
    CPUs (preallocated maps, which is all osdhist uses).

    hash:  the table header, one bucket per entry rounded up to a power of
           two, 8 per-CPU lock counters, then one element per entry: a 48-byte
           header, the key, and the value (or, per-CPU maps, a pointer to
           ncpus copies of it, each rounded up to 8 bytes).  A plain hash
           keeps ncpus spare elements; LRU and per-CPU ones do not.
    array: the header, then the values (per-CPU: a pointer per entry and
           ncpus copies); .bss/.rodata are mmapable, so both parts take
           whole pages."""
    val8 = round_up(value, 8)
    if mtype in ("hash", "lru_hash", "percpu_hash", "lru_percpu_hash"):
        percpu = mtype.endswith("percpu_hash")
        lru = mtype.startswith("lru")
        n = entries + (ncpus if not percpu and not lru else 0)
        elem = SIZEOF_HTAB_ELEM + round_up(key, 8) + (8 if percpu else val8)
        usage = SIZEOF_BPF_HTAB + SIZEOF_BUCKET * pow2_ceil(entries)
        usage += 4 * ncpus * HASHTAB_MAP_LOCK_COUNT + elem * n
        if percpu:
            usage += val8 * ncpus * n
        elif not lru:
            usage += 8 * ncpus
        return usage
    if mtype == "percpu_array":
        return SIZEOF_BPF_ARRAY + 8 * entries + val8 * entries * ncpus
    if mtype == "array":
        if flags & BPF_F_MMAPABLE:
            return round_up(SIZEOF_BPF_ARRAY, PAGE) + round_up(entries * val8, PAGE)
        return SIZEOF_BPF_ARRAY + entries * val8
    return None


def hists_entries(sz, ncpus):
    """The loader's rule (loader/tracer.c): keep the per-CPU copies of the
    histograms within HIST_MEM_BUDGET, but never below 64 or above 1024
    keys: min(1024, max(64, HIST_MEM_BUDGET / (ncpus * sizeof(struct hist)))),
    with sizeof(struct hist) = 16 + 8 * NR_BUCKETS."""
    n = sz["hist_mem_budget"] // (ncpus * sz["hist"])
    return min(sz["hists_entries_max"], max(sz["hists_entries_min"], n))


def osdhist_maps(sz, ncpus, global_maps):
    """osdhist's maps as maps/osdhist.h defines them, for ncpus CPUs:
    in-flight LRU hash {op_key -> op_state}, per-CPU histogram hash
    {hist_key -> hist}, per-CPU health array of u64, one-entry zero_hist
    array; plus the skeleton's global-data arrays (.bss, .rodata), whose size
    does not depend on the CPU count."""
    maps = [
        ("inflight", "lru_hash", sz["op_key"], sz["op_state"], sz["inflight_entries"], 0),
        ("hists", "percpu_hash", sz["hist_key"], sz["hist"], hists_entries(sz, ncpus), 0),
        ("health", "percpu_array", 4, 8, sz["nr_health"], 0),
        ("zero_hist", "array", 4, sz["hist"], 1, 0),
    ]
    maps += [(m["name"], m["type"], m["bytes_key"], m["bytes_value"], m["max_entries"], m["flags"])
             for m in global_maps]
    return [{"name": n, "type": t, "max_entries": e, "bytes": map_mem(t, k, v, e, f, ncpus)}
            for n, t, k, v, e, f in maps]


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
        s["maps"] = next((w["maps"] for w in ws if w["maps"]), [])
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


def fmt(x, spec, none="-"):
    return none if x is None else format(x, spec)


def main():
    meta_f, windows_f, sizes_f, out_f = sys.argv[1:5]
    with open(meta_f) as f:
        meta = json.load(f)
    with open(windows_f) as f:
        windows = [json.loads(line) for line in f if line.strip()]
    with open(sizes_f) as f:
        sz = json.load(f)
    summary = summarize([w for w in windows if not w.get("extra")])
    moves = move_cost(windows, os.sysconf("SC_CLK_TCK"))
    ncpus_here = possible_cpus(meta["machine"]["cpus_possible"])

    # Map memory: the model for this host checked against what the kernel
    # reports for the default variant, then the same model for 64 CPUs.
    measured = summary.get("osdhist", {}).get("maps", [])
    global_maps = [m for m in measured if m["type"] == "array" and m["flags"] & BPF_F_MMAPABLE]
    if not global_maps:     # no measurement: .bss and .rodata, a page each twice
        global_maps = [{"name": n, "type": "array", "bytes_key": 4, "bytes_value": 8,
                        "max_entries": 1, "flags": BPF_F_MMAPABLE} for n in (".bss", ".rodata")]
    here = osdhist_maps(sz, ncpus_here, global_maps)
    big = osdhist_maps(sz, BIG_HOST_CPUS, global_maps)
    mem = {
        "sizeof_hist": sz["hist"], "nr_buckets": sz["nr_buckets"],
        "model_here": {"ncpus": ncpus_here, "bytes": sum(m["bytes"] for m in here), "maps": here},
        "measured_here_bytes": sum(m["bytes_memlock"] for m in measured) if measured else None,
        "host_64cpu": {"ncpus": BIG_HOST_CPUS, "hists_entries": hists_entries(sz, BIG_HOST_CPUS),
                       "bytes": sum(m["bytes"] for m in big), "maps": big},
    }
    mem["model_check"] = ("exact" if mem["measured_here_bytes"] == mem["model_here"]["bytes"]
                          else "model %s B, measured %s B" % (mem["model_here"]["bytes"],
                                                               mem["measured_here_bytes"]))

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
    print("%-9s %-5s %16s %20s %12s %10s %8s %13s %5s" %
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
            print("%-9s %-5s %9.0f+-%-5.0f %20s %12s %10s %8s %13s %5.1f" %
                  (v, name, d["iops_mean"], d["iops_sd"],
                   "/".join("%.0f" % x for x in d["iops_rounds"]), loss,
                   fmt(d["bpf_ns_per_op"] and d["bpf_ns_per_op"] / 1000, ".3f") if v != "none" else "-",
                   fmt(d["hits_per_op"], ".2f") if v != "none" else "-", cpu, d["load1_mean"]))
    print()
    print("%-9s %10s %10s %10s %11s %11s" %
          ("variant", "BPF us/op", "hits/op", "CPU %core", "RSS MiB", "maps MiB"))
    for v, s in summary.items():
        if v == "none":
            continue
        print("%-9s %10s %10s %10.2f %11.1f %11.2f" %
              (v, fmt(s["bpf_ns_per_op"] and s["bpf_ns_per_op"] / 1000, ".3f"),
               fmt(s["hits_per_op"], ".2f"), s["loader_cpu_pct"], s["loader_rss_kb"] / 1024,
               s["map_bytes"] / MIB))
    for v, s in summary.items():
        if s.get("per_program"):
            print("  %-9s per program: %s" % (v, ", ".join(
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
    print("osdhist maps on a %d-CPU host: %.2f MiB (hists %d keys x %d CPUs x %d B); "
          "model at %d CPUs vs measured here: %s" %
          (BIG_HOST_CPUS, mem["host_64cpu"]["bytes"] / MIB, mem["host_64cpu"]["hists_entries"],
           BIG_HOST_CPUS, sz["hist"], ncpus_here, mem["model_check"]))
    for mm in mem["host_64cpu"]["maps"]:
        print("  %-16s %-13s %6d entries %10.3f MiB" %
              (mm["name"], mm["type"], mm["max_entries"], mm["bytes"] / MIB))

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
    target("map memory on a %d-CPU host < 16 MiB" % BIG_HOST_CPUS,
           mem["host_64cpu"]["bytes"] / MIB, MAX_MAP_MIB_64, "MiB", strict=True)
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
    result.update({"summary": summary, "move_cost": moves, "map_memory": mem, "targets": targets,
                   "windows": [{k: w[k] for k in w if k != "maps"} for w in windows]})
    with open(out_f, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print()
    print("results: %s" % out_f)


if __name__ == "__main__":
    main()
