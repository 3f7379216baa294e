#!/usr/bin/env python3
"""bench/bpf_stats.py: keeps BPF run-time statistics on while it runs.

BPF_ENABLE_STATS (Linux 5.8+) turns on run_time_ns/run_cnt accounting for as
long as the returned fd is open: the same switch as the sysctl
kernel.bpf_stats_enabled, but counted per holder.  Unlike writing the
sysctl there is nothing to restore: the stats go back to what they were when
this process exits, also when the bench is killed (PR_SET_PDEATHSIG), and a
bench running at the same time on the host cannot turn ours off.
Prints "on" once the stats are enabled, then waits to be killed.
"""
import ctypes
import os
import signal
import sys

NR_BPF = 321            # x86-64
BPF_ENABLE_STATS = 32
BPF_STATS_RUN_TIME = 0
PR_SET_PDEATHSIG = 1

libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
if os.getppid() == 1:   # the parent is already gone
    sys.exit(1)
attr = ctypes.c_uint32(BPF_STATS_RUN_TIME)
fd = libc.syscall(NR_BPF, BPF_ENABLE_STATS, ctypes.byref(attr), ctypes.sizeof(attr))
if fd < 0:
    print("bpf_stats: BPF_ENABLE_STATS failed: %s" % os.strerror(ctypes.get_errno()),
          file=sys.stderr)
    sys.exit(1)
print("on", flush=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
while True:
    signal.pause()
