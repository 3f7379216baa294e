#!/usr/bin/python3
"""How long a program takes to end after SIGTERM, and how much of that it
could not run:

  term_timer.py OUT CMD ARGS...

Runs CMD (stdout, stderr inherited) and writes its pid to OUT.pid.  On
SIGTERM it sends SIGTERM to CMD and waits for it to exit, without reaping
it (waitid WNOWAIT), so that CMD's /proc/PID/schedstat can still be read:
then it writes to OUT one line "SECONDS WAIT_SECONDS": the time from the
signal to CMD's exit, and the time in it that CMD's threads, or this
process, were runnable and not running (schedstat's run-queue wait), plus
the host's stolen time, so that a caller can allow for the load of the
machine and no more.  Then it reaps CMD and exits with its status.
"""
import os
import signal
import subprocess
import sys
import time


def runq_wait(pid):
    total = 0
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{t}/schedstat") as f:
                total += int(f.read().split()[1])
        except OSError:
            pass
    return total / 1e9


def steal():
    with open("/proc/stat") as f:
        cpu = f.readline().split()
    return int(cpu[8]) / os.sysconf("SC_CLK_TCK")


def main(out, cmd):
    child = subprocess.Popen(cmd)
    # blocked only now: a signal mask is inherited across exec
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])
    with open(out + ".pid", "w") as f:
        f.write(f"{child.pid}\n")
    signal.sigwait([signal.SIGTERM])
    w0 = runq_wait(child.pid) + runq_wait(os.getpid()) + steal()
    t0 = time.monotonic()
    child.send_signal(signal.SIGTERM)
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)
    t1 = time.monotonic()
    w1 = runq_wait(child.pid) + runq_wait(os.getpid()) + steal()
    with open(out, "w") as f:
        f.write(f"{t1 - t0:.3f} {w1 - w0:.3f}\n")
    sys.exit(child.wait())


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
