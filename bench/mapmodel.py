"""bench/mapmodel.py: what osdhist's BPF maps cost in kernel memory.

Two figures per map, both for x86-64 and kernel 6.x:

kernel     what the kernel itself reports as the map's memory (bpftool's
           bytes_memlock): map_mem_usage(), i.e. kernel/bpf/hashtab.c
           htab_map_mem_usage() and kernel/bpf/arraymap.c
           array_map_mem_usage().  For a hash map without preallocation it
           counts the keys in use only: (elem_size + sizeof(llist_node)) per
           key, and for a per-CPU one also (llist_node + pointer) and
           round_up(value, 8) x possible CPUs per key.  bench/report.py
           checks this figure, map by map, against bytes_memlock here.
allocated  what the allocators really hand out, which the kernel's figure
           leaves out: kmalloc rounds each object up to its size class
           (8, 16, 32, 64, 96, 128, 192, 256, 512, 1 Ki, 2 Ki, 4 Ki, 8 Ki;
           larger ones take whole pages, 2^order of them), and a hash map
           without preallocation allocates through bpf_mem_alloc
           (kernel/bpf/memalloc.c), which keeps a cache of free objects on
           every possible CPU.  Objects: the element, elem_size + llist_node
           (the hash maps give bpf_mem_alloc_init their exact element size:
           one cache of that unit, filled by kmalloc, so the rounding is
           kmalloc's; the sizes[] table of memalloc.c, 96 ... 4096, is the
           allocator for objects of any size, not the maps'); for a per-CPU
           map also a 16-byte kmalloc (llist_node + per-CPU pointer) and
           round_up(value, 8) on every possible CPU.  The free-object cache
           of each CPU: created with `prefill` objects (4 for units up to
           256 B, else 1; per-CPU objects 1), refilled by `batch` when it
           drops below `low` (units <= 256 B: low 32, high 96; larger:
           low max(8192 / unit, 1), high max(24576 / unit, 3); batch
           max((high - low) / 4 * 3, 1); per-CPU objects: low 1, high 3,
           batch 1 since 6.8), so a CPU that has allocated holds up to
           low - 1 + batch of them, one that has not its prefill.
           Preallocated maps and arrays: their areas as allocated
           (kmalloc'ed up to 32 KiB, else vmalloc'ed in pages).  Memory
           cgroup accounting (every map allocation is charged to the
           loader's cgroup) adds one obj_cgroup pointer per kmalloc'ed
           object and, in the per-CPU allocator, one per 4 bytes of a
           per-CPU object (its chunk's obj_exts array): 2 bytes per byte,
           once, whatever the CPU count.  bench/alloc_check.sh checks this
           figure against the memory cgroup's own count on this kernel.

The struct sizes are read from the running kernel's BTF
(/sys/kernel/btf/vmlinux, with bpftool) when it has them: struct bpf_htab
is 832 bytes on one 6.18 build and 896 on another, and the check against
this host's bytes_memlock (model_check) is exact.  Without BTF, the
figures below (a 6.18 build) stand.
"""
import re
import subprocess

SIZEOF_BPF_HTAB = 832
SIZEOF_BPF_ARRAY = 312
SIZEOF_HTAB_ELEM = 48       # struct htab_elem header, before the key
SIZEOF_BUCKET = 16          # struct bucket: hlist_nulls_head + lock
SIZEOF_BPF_MEM_CACHE = 208  # bpf_mem_alloc's per-CPU cache head
SIZEOF_LRU_LOCALLIST = 32   # common LRU: one per CPU
HASHTAB_MAP_LOCK_COUNT = 8  # per-CPU int counters per hash map
LLIST_NODE = 8
OBJCG_PTR = 8               # memcg: per accounted kmalloc object
PCPU_MIN_ALLOC = 4          # memcg: an obj_cgroup pointer per 4 per-CPU bytes
PAGE = 4096
MAP_AREA_KMALLOC_MAX = PAGE << 3   # bpf_map_area_alloc: kmalloc up to here


def _btf_sizes():
    """{struct name: size} of the running kernel's structs the model uses."""
    want = {"bpf_htab", "bpf_array", "htab_elem", "bucket"}
    out = ""
    for tool in ("bpftool", "/usr/sbin/bpftool"):	# a non-root PATH lacks sbin
        try:
            out = subprocess.run([tool, "btf", "dump", "file", "/sys/kernel/btf/vmlinux",
                                  "format", "raw"], capture_output=True, text=True,
                                 timeout=60).stdout
            break
        except (OSError, subprocess.SubprocessError):
            continue
    found = {}
    for m in re.finditer(r"STRUCT '(\w+)' size=(\d+)", out):
        if m.group(1) in want and m.group(1) not in found:
            found[m.group(1)] = int(m.group(2))
    return found


_sizes = _btf_sizes()
SIZEOF_BPF_HTAB = _sizes.get("bpf_htab", SIZEOF_BPF_HTAB)
SIZEOF_BPF_ARRAY = _sizes.get("bpf_array", SIZEOF_BPF_ARRAY)
SIZEOF_HTAB_ELEM = _sizes.get("htab_elem", SIZEOF_HTAB_ELEM)
SIZEOF_BUCKET = _sizes.get("bucket", SIZEOF_BUCKET)
BPF_F_NO_PREALLOC = 1
BPF_F_MMAPABLE = 1 << 10
HASHES = ("hash", "lru_hash", "percpu_hash", "lru_percpu_hash")


def round_up(n, a):
    return (n + a - 1) // a * a


def pow2_ceil(n):
    p = 1
    while p < n:
        p <<= 1
    return p


def kmalloc_size(n):
    """The size class kmalloc serves n bytes from (SLUB, 4 KiB pages)."""
    for c in (8, 16, 32, 64, 96, 128, 192):
        if n <= c:
            return c
    if n <= 2 * PAGE:
        return pow2_ceil(n)
    return PAGE * pow2_ceil(round_up(n, PAGE) // PAGE)


def kmalloc_acct(n):
    """An accounted kmalloc object: its size class, and past 8 KiB whole
    pages; an obj_cgroup pointer for those served by a slab."""
    return kmalloc_size(n) + (OBJCG_PTR if n <= 2 * PAGE else 0)


def pcpu_acct(n, ncpus, accounted=True):
    """An n-byte per-CPU allocation: n on every possible CPU, and for an
    accounted one (a map's: __GFP_ACCOUNT) its share of the chunk's
    obj_cgroup pointers."""
    return n * ncpus + (n // PCPU_MIN_ALLOC * OBJCG_PTR if accounted else 0)


def area_size(n):
    """bpf_map_area_alloc(): kmalloc up to 32 KiB, vmalloc (pages) above."""
    return kmalloc_acct(n) if n <= MAP_AREA_KMALLOC_MAX else round_up(n, PAGE)


def cache_marks(unit, percpu):
    """bpf_mem_alloc's per-CPU free-object cache for objects of unit bytes:
    prefill, low and high watermark, refill batch (kernel/bpf/memalloc.c
    prefill_mem_cache / init_refill_work, 6.8 and later)."""
    if percpu:
        return {"prefill": 1, "low": 1, "high": 3, "batch": 1}
    if unit <= 256:
        low, high, prefill = 32, 96, 4
    else:
        low, high, prefill = max(32 * 256 // unit, 1), max(96 * 256 // unit, 3), 1
    return {"prefill": prefill, "low": low, "high": high,
            "batch": max((high - low) // 4 * 3, 1)}


def held_after(marks, allocs):
    """Free objects a CPU's cache holds after it made allocs allocations
    (each refill, batch objects, comes when it drops below low)."""
    held = marks["prefill"]
    for _ in range(allocs):
        held -= 1
        if held < marks["low"]:
            held += marks["batch"]
    return held


def cached_objects(marks, ncpus, hot_cpus, allocs=None):
    """Free objects in the caches of all CPUs: hot_cpus have allocated
    (allocs times each; None: as many as they like, so up to the most a
    cache holds between refills, low - 1 + batch), the others hold their
    prefill."""
    hot = min(hot_cpus, ncpus)
    held = (max(marks["prefill"], marks["low"] - 1 + marks["batch"]) if allocs is None
            else held_after(marks, allocs))
    return hot * held + (ncpus - hot) * marks["prefill"]


def is_prealloc(m):
    return not m["flags"] & BPF_F_NO_PREALLOC


def elem_size(m):
    percpu = m["type"].endswith("percpu_hash")
    return SIZEOF_HTAB_ELEM + round_up(m["key"], 8) + (8 if percpu else round_up(m["value"], 8))


def kernel_bytes(m, ncpus, count=None):
    """map_mem_usage() of map m on a host with ncpus possible CPUs; count:
    keys in use (hash maps without preallocation)."""
    t, val8, n = m["type"], round_up(m["value"], 8), m["max_entries"]
    if t in HASHES:
        percpu, lru = t.endswith("percpu_hash"), t.startswith("lru")
        usage = SIZEOF_BPF_HTAB + SIZEOF_BUCKET * pow2_ceil(n)
        usage += 4 * ncpus * HASHTAB_MAP_LOCK_COUNT
        if is_prealloc(m):
            n_el = n + (ncpus if not percpu and not lru else 0)
            usage += elem_size(m) * n_el
            if percpu:
                usage += val8 * ncpus * n_el
            elif not lru:
                usage += 8 * ncpus
            return usage
        usage += (elem_size(m) + LLIST_NODE) * count
        if percpu:
            usage += (LLIST_NODE + 8) * count + val8 * ncpus * count
        return usage
    if t == "percpu_array":
        return SIZEOF_BPF_ARRAY + 8 * n + val8 * n * ncpus
    if t == "array":
        if m["flags"] & BPF_F_MMAPABLE:
            return round_up(SIZEOF_BPF_ARRAY, PAGE) + round_up(n * val8, PAGE)
        return SIZEOF_BPF_ARRAY + n * val8
    raise ValueError("map %s: no model for type %s" % (m["name"], t))


def allocated_bytes(m, ncpus, count=None, hot_cpus=None, allocs=None):
    """What the allocators hand out for map m (see the module text):
    {"bytes": total, "cache_bytes": the part in bpf_mem_alloc's free-object
    caches, "unaccounted_bytes": the part not charged to the memory cgroup
    (bpf_mem_alloc's and the LRU's per-CPU heads)}.  hot_cpus: CPUs that
    have created keys (default: all), allocs times each (see
    cached_objects)."""
    t, val8, n = m["type"], round_up(m["value"], 8), m["max_entries"]
    hot = ncpus if hot_cpus is None else hot_cpus
    cache = 0
    if t in HASHES:
        percpu, lru = t.endswith("percpu_hash"), t.startswith("lru")
        usage = area_size(SIZEOF_BPF_HTAB) + area_size(SIZEOF_BUCKET * pow2_ceil(n))
        usage += HASHTAB_MAP_LOCK_COUNT * pcpu_acct(4, ncpus)
        if is_prealloc(m):
            n_el = n + (ncpus if not percpu and not lru else 0)
            usage += area_size(elem_size(m) * n_el)
            heads = 0
            if percpu:
                usage += n_el * pcpu_acct(val8, ncpus)
            elif lru:
                heads = pcpu_acct(SIZEOF_LRU_LOCALLIST, ncpus, False)
            else:
                usage += pcpu_acct(8, ncpus)
            return {"bytes": usage + heads, "cache_bytes": 0, "unaccounted_bytes": heads}
        unit = elem_size(m) + LLIST_NODE
        obj = kmalloc_acct(unit)
        heads = pcpu_acct(SIZEOF_BPF_MEM_CACHE, ncpus, False)
        usage += count * obj
        cache += cached_objects(cache_marks(unit, False), ncpus, hot, allocs) * obj
        if percpu:
            pobj = kmalloc_acct(LLIST_NODE + 8) + pcpu_acct(val8, ncpus)
            heads *= 2
            usage += count * pobj
            cache += cached_objects(cache_marks(val8, True), ncpus, hot, allocs) * pobj
        return {"bytes": usage + cache + heads, "cache_bytes": cache, "unaccounted_bytes": heads}
    if t == "percpu_array":
        return {"bytes": area_size(SIZEOF_BPF_ARRAY + 8 * n) + n * pcpu_acct(val8, ncpus),
                "cache_bytes": 0, "unaccounted_bytes": 0}
    if t == "array":
        if m["flags"] & BPF_F_MMAPABLE:
            return {"bytes": kernel_bytes(m, ncpus), "cache_bytes": 0, "unaccounted_bytes": 0}
        return {"bytes": area_size(SIZEOF_BPF_ARRAY + n * val8), "cache_bytes": 0,
                "unaccounted_bytes": 0}
    raise ValueError("map %s: no model for type %s" % (m["name"], t))


def front_rows(budget, value, nmaps, ncpus, most):
    """Rows of a per-CPU front as the loader sizes it at load time
    (loader/front.c front_rows_for): budget bytes of copies."""
    return max(1, min(most, budget // (value * nmaps * ncpus)))


def osdhist_maps(sz, global_maps, ncpus, phases):
    """osdhist's maps as maps/osdhist.h and bpf/ define them (sizes from
    bench/mapsizes.c) on a host of ncpus possible CPUs, with --phases or
    not (the per-CPU fronts are sized at load time), plus the skeleton's
    global data (.bss, .rodata: as measured, they do not depend on the
    host; .bss holds the front table, which key has which row)."""
    mk = lambda name, t, k, v, n, f=0: {"name": name, "type": t, "key": k, "value": v,
                                        "max_entries": n, "flags": f}
    rows = front_rows(sz["front_bytes"], sz["front_pair"], 2 if phases else 1, ncpus,
                      sz["front_rows_max"])
    opc_rows = front_rows(sz["opc_front_bytes"], sz["front_opc"], 1, ncpus, sz["opc_rows_max"])
    maps = [
        mk("front", "percpu_array", 4, sz["front_pair"], rows),
        mk("phase_front", "percpu_array", 4, sz["front_pair"], rows if phases else 1),
        mk("opc_front", "percpu_array", 4, sz["front_opc"], opc_rows),
        mk("inflight", "lru_hash", sz["op_key"], sz["op_state"], sz["inflight_entries"]),
        mk("hists", "hash", sz["hist_key"], sz["hist_pair"], sz["hists_entries"], BPF_F_NO_PREALLOC),
        mk("phase_hists", "hash", sz["hist_key"], sz["hist_pair"], sz["phase_hists_entries"],
           BPF_F_NO_PREALLOC),
        mk("opcounts", "hash", 4, sz["op_counts"], sz["opcount_entries"]),
        mk("calls", "hash", sz["call_key"], 4, sz["calls_entries"], BPF_F_NO_PREALLOC),
        mk("slowops", "hash", 4, sz["slow_sets"], sz["slowops_entries"]),
        mk("slowfilt", "percpu_array", 4, sz["slow_filter"], 1),
        mk("scratch", "percpu_array", 4, sz["scratch"], 1),
        mk("health", "percpu_array", 4, 8, sz["nr_health"]),
        mk("zero", "array", 4, sz["zero_value"], 1),
    ]
    return maps + [mk(g["name"], g["type"], g["bytes_key"], g["bytes_value"], g["max_entries"],
                      g["flags"]) for g in global_maps]


# The large host of issue #16, every option on (-P --phases), and the mix of
# keys it creates (bpf/osdhist.bpf.c record_op): with -P a client op updates
# a pool key (class, op type all, pool P) and an op-type key (class, op
# type, pool -1) in hists, and with --phases the pool key only in
# phase_hists; a sub-op has no op type: its pool key only.
LARGE_HOST = {"osds": 24, "cpus": 128, "pools": 32, "args": "-P --phases"}
MIX_CLASSES = ["read", "write", "rw", "error", "subop"]
MIX_OPTYPE_KEYS = 24    # per OSD: (class, op type) pairs seen, pool -1
CALLS_PER_OSD = 64      # call names (maps/osdhist.h CALLS_MAX): the worst


def large_host_keys(h, classes=len(MIX_CLASSES), optype_keys=MIX_OPTYPE_KEYS):
    pool_keys = h["pools"] * classes
    return {"hists": h["osds"] * (pool_keys + optype_keys),
            "phase_hists": h["osds"] * pool_keys,
            "opcounts": h["osds"],
            "calls": h["osds"] * CALLS_PER_OSD,
            "slowops": h["osds"]}


MIX_TEXT = ("per OSD and pool the classes %s (a pool key each in hists and in "
            "phase_hists), per OSD %d (class, op type) keys in hists (pool -1; none "
            "in phase_hists with -P), 1 opcounts key, %d call names and 1 slowops key" %
            ("/".join(MIX_CLASSES), MIX_OPTYPE_KEYS, CALLS_PER_OSD))


def model(maps, ncpus, keys, hot=None):
    """Both figures for every map; keys: keys in use per no-prealloc hash;
    hot: CPUs that created keys, per map (default all)."""
    out = []
    for m in maps:
        count = None
        if m["type"] in HASHES and not is_prealloc(m):
            count = keys.get(m["name"])
            if count is None:
                raise ValueError("map %s: keys in use unknown" % m["name"])
        a = allocated_bytes(m, ncpus, count, (hot or {}).get(m["name"]))
        out.append({"name": m["name"], "type": m["type"], "prealloc": is_prealloc(m),
                    "max_entries": m["max_entries"], "keys": count,
                    "fits": count is None or count <= m["max_entries"],
                    "kernel_bytes": kernel_bytes(m, ncpus, count),
                    "allocated_bytes": a["bytes"], "cache_bytes": a["cache_bytes"]})
    return out
