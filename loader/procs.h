/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_PROCS_H
#define OSDHIST_PROCS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/* One running ceph-osd, as seen in /proc. */
struct osd_proc {
	pid_t pid;
	int osd_id;		/* -1 if the command line names none */
	dev_t dev;		/* identity of the binary it runs */
	ino_t ino;
	char exe[PATH_MAX];	/* PROC/PID/exe: opens the binary from any mount ns */
	const char *unsupported; /* an OSD osdhist cannot trace (crimson-osd):
				  * why, in words; NULL for a ceph-osd */
};

/* OSD id from a NUL-separated command line: --id N, --id=N, -i N, -iN,
 * -n osd.N, --name osd.N, --name=osd.N.  -1 if none. */
int procs_osd_id(const char *cmdline, size_t len);

/* Is PID an OSD (ceph-osd, ceph-osd-classic, or crimson-osd with
 * p->unsupported set), by comm, the binary's basename or argv[0]?  Fills
 * *p.  0 yes, -ENOENT no such process, -EINVAL not an OSD, other -errno on
 * read errors. */
int procs_inspect(const char *proc_root, pid_t pid, struct osd_proc *p);

/* All OSD processes (as procs_inspect) under proc_root ("/proc", or a fixture tree).
 * Returns how many were written to out (at most max), or -errno. */
int procs_scan(const char *proc_root, struct osd_proc *out, int max);

/* Does PID still exist? */
bool procs_alive(const char *proc_root, pid_t pid);

#endif
