#!/bin/bash
# bench/alloc_check.sh (make bench-alloc): checks bench/mapmodel.py's
# "allocated" figure, the part the kernel's own figure (bytes_memlock)
# leaves out, on this kernel.
#
# The maps are made by bpftool run inside a memory cgroup of their own
# (cgroup v1, /sys/fs/cgroup/memory), whose kernel-memory counter
# (memory.kmem.usage_in_bytes) is charged with every object a BPF map
# allocates, at its allocated size: what the model's "allocated" figure
# claims, and nothing of the rest of the host.
# 1. Per-CPU hashes without preallocation (osdhist's opcounts): N maps of
#    opcounts' value size (the model: bpf_mem_alloc fills a free-object
#    cache on every possible CPU at map creation, each per-CPU object is
#    value x possible CPUs), then one key in each.
# 2. A shared hash without preallocation (hists): K keys of struct
#    hist_pair (the model: one kmalloc-4k object per key, plus the
#    refills of the per-CPU caches).
# Each map also costs a little the model leaves out (its bpffs inode and
# dentry), so "created" runs a little over the model.  Maps live in a
# private bpffs mount; mount and cgroup are removed at the end.
#
# Usage: bench/alloc_check.sh [N_MAPS [K_KEYS]]   (defaults 300 and 400)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-300} K=${2:-400}
die() { echo "alloc_check: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "needs root (BPF maps, cgroups): run with sudo"
for t in bpftool python3 cc; do command -v $t >/dev/null || die "$t not found (make deps)"; done
MEMCG_ROOT=/sys/fs/cgroup/memory
[ -w "$MEMCG_ROOT/cgroup.procs" ] ||
	die "needs the cgroup v1 memory controller at $MEMCG_ROOT (kernel memory accounting)"

WORK=$(mktemp -d /tmp/osdhist-alloc.XXXXXX)
CG=$MEMCG_ROOT/$(basename "$WORK")
cleanup() {
	umount "$WORK/fs" 2>/dev/null || true
	rm -rf -- "$WORK"
	# the maps' memory is uncharged once they are freed (after an RCU
	# grace period): wait for the cgroup to empty before removing it
	for _ in $(seq 50); do rmdir "$CG" 2>/dev/null && break; sleep 0.2; done
}
trap cleanup EXIT
mkdir "$WORK/fs" "$CG"
mount -t bpf bpf "$WORK/fs" || die "cannot mount a bpffs on $WORK/fs"
# in_cg CMD...: CMD charged to the cgroup (a subshell that joins it first)
in_cg() { (echo "$BASHPID" >"$CG/cgroup.procs" && "$@"); }

cc -Wall -Imaps -o "$WORK/mapsizes" bench/mapsizes.c
"$WORK/mapsizes" >"$WORK/sizes.json"
size_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$WORK/sizes.json" "$1"; }
opc=$(size_of op_counts) pair=$(size_of hist_pair)
# possible CPUs: what bpf_mem_alloc and the per-CPU allocator provision for
ncpus=$(awk -F, '{n = 0; for (i = 1; i <= NF; i++) {split($i, r, "-");
	n += (r[2] == "" ? 1 : r[2] - r[1] + 1)}; print n}' /sys/devices/system/cpu/possible)
kmem() { sleep 1; cat "$CG/memory.kmem.usage_in_bytes"; }	# after RCU frees
zeros() { printf '00 %.0s' $(seq "$1"); }

p0=$(kmem)
for i in $(seq "$N"); do
	in_cg bpftool map create "$WORK/fs/p$i" type percpu_hash key 4 value "$opc" entries 64 \
		name ac_p$i flags 1
done
p1=$(kmem)
v=$(zeros "$opc")
for i in $(seq "$N"); do
	in_cg bpftool map update pinned "$WORK/fs/p$i" key 1 0 0 0 value $v
done
p2=$(kmem)

in_cg bpftool map create "$WORK/fs/h" type hash key 16 value "$pair" entries 8192 name ac_h flags 1
v=$(zeros "$pair")
s0=$(kmem)
for i in $(seq "$K"); do
	in_cg bpftool map update pinned "$WORK/fs/h" key $((i & 255)) $((i >> 8)) \
		0 0 0 0 0 0 0 0 0 0 0 0 0 0 value $v
done
s1=$(kmem)

python3 - "$ncpus" "$opc" "$pair" "$N" "$K" "$p0" "$p1" "$p2" "$s0" "$s1" <<'EOF'
import sys
sys.path.insert(0, "bench")
import mapmodel as mm
ncpus, opc, pair, n, k, p0, p1, p2, s0, s1 = map(int, sys.argv[1:])
pm = {"name": "p", "type": "percpu_hash", "key": 4, "value": opc, "max_entries": 64,
      "flags": mm.BPF_F_NO_PREALLOC}
create = mm.allocated_bytes(pm, ncpus, 0, 0)
# what the cgroup is charged with: all but the allocators' per-CPU heads
charged = create["bytes"] - create["unaccounted_bytes"]
# one key each, from the CPU bpftool ran on: its objects, that CPU's
# caches refilled
insert = mm.allocated_bytes(pm, ncpus, 1, 1, 1)["bytes"] - create["bytes"]
print("per-CPU hash, value %d B, %d possible CPUs, %d maps (memcg kernel memory):" % (opc, ncpus, n))
print("  created:      +%.0f B/map; model %d B/map charged (+%d uncharged), of which the "
      "caches' prefill %d" % ((p1 - p0) / n, charged, create["unaccounted_bytes"],
                              create["cache_bytes"]))
print("  one key each: +%.0f B/map; model %d B/map" % ((p2 - p1) / n, insert))
hm = {"name": "h", "type": "hash", "key": 16, "value": pair, "max_entries": 8192,
      "flags": mm.BPF_F_NO_PREALLOC}
unit = mm.elem_size(hm) + mm.LLIST_NODE
base = mm.allocated_bytes(hm, ncpus, 0, 0)["bytes"]
# bpftool ran on any CPU: from one CPU's cache refilled, holding as few
# as it can between refills, to every CPU's holding as many
marks = mm.cache_marks(unit, False)
fewest = min(range(1, 64), key=lambda a: mm.held_after(marks, a))
lo = mm.allocated_bytes(hm, ncpus, k, 1, fewest)["bytes"] - base
hi = mm.allocated_bytes(hm, ncpus, k, ncpus)["bytes"] - base
print("shared hash, value %d B (element %d B -> kmalloc %d B), %d keys: +%d B = %.0f B/key; "
      "model %d..%d B (caches of 1..%d CPUs refilled)" %
      (pair, unit, mm.kmalloc_size(unit), k, s1 - s0, (s1 - s0) / k, lo, hi, ncpus))
EOF
