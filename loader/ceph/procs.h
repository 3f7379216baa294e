/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_PROCS_H
#define OSDHIST_PROCS_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "util/osd_id.h"

/* The /proc osdhist reads: every function here takes it as proc_root, so
 * the unit tests can pass a fixture tree instead. */
#define PROC_ROOT	"/proc"

/* The largest OSD id read from a command line. */
#define PROCS_OSD_ID_MAX	1000000

/* One running ceph-osd, as seen in /proc. */
struct osd_proc {
	pid_t pid;
	pid_t ppid;		/* its parent: a daemonizing start's daemon is
				 * the child of a process claiming its id */
	int osd_id;		/* OSD_UNKNOWN if the command line names none */
	dev_t dev;		/* identity of the binary it runs */
	ino_t ino;
	off_t size;		/* ... and its version: a file changed in place */
	struct timespec ctime;	/* (same inode) is another binary */
	char exe[PATH_MAX];	/* PROC/PID/exe: opens the binary from any mount ns */
	const char *unsupported; /* an OSD osdhist cannot trace (crimson-osd):
				  * why, in words; NULL for a ceph-osd */
};

/* OSD id from a NUL-separated command line: --id N, --id=N, -i N, -iN,
 * -n osd.N, --name osd.N, --name=osd.N.  OSD_UNKNOWN if none. */
int procs_osd_id(const char *cmdline, size_t len);

/* PROC/PID/cmdline, NUL-separated, into buf with a NUL after the bytes
 * read (the last argument may lack its own): at most size - 1 bytes, the
 * rest ignored.  Bytes read, or -errno. */
ssize_t procs_cmdline(const char *proc_root, pid_t pid, char *buf, size_t size);

/* Is PID an OSD (ceph-osd, ceph-osd-classic, or crimson-osd with
 * p->unsupported set), by comm, the binary's basename or argv[0]?  Fills
 * *p.  0 yes, -ENOENT no such process (or a zombie), -EINVAL not an OSD,
 * -EAGAIN an OSD whose exec (or exit) is under way, its command line empty:
 * ask again later; other -errno on read errors. */
int procs_inspect(const char *proc_root, pid_t pid, struct osd_proc *p);

/* Calls fn(p, arg) for every OSD process (as procs_inspect) under
 * proc_root ("/proc", or a fixture tree), in /proc's order, and keeps
 * nothing: a scan sees every ceph-osd however many there are (processes
 * anyone can start under that name).  fn returns false to end the scan.
 * Returns how many OSD processes it found (given to fn), or -errno if
 * proc_root cannot be read. */
typedef bool (*procs_fn)(const struct osd_proc *p, void *arg);
int procs_each(const char *proc_root, procs_fn fn, void *arg);

/* The first max OSD processes of procs_each, written to out: how many, or
 * -errno. */
int procs_scan(const char *proc_root, struct osd_proc *out, int max);

/* Where p's binary is, as its own mount namespace names it (the text of
 * PROC/PID/exe's link), for messages: into out, NUL-terminated; p->exe
 * itself if the link cannot be read.  The process chose that text: escape
 * it when printing. */
void procs_exe_where(const struct osd_proc *p, char *out, size_t len);

/* Does PID still exist? */
bool procs_alive(const char *proc_root, pid_t pid);

/* A handle on PID's process that says whether it has exited, as
 * procs_alive does, at the cost of one read: procs_alive opens, reads and
 * closes a file of /proc, and the open and close (the path walk) were
 * most of it.  The handle is the open stat file of the thread group's
 * leader, which reads as an error once the process is reaped (and stays
 * its pid's: no other process can take it over).  Negative errno where
 * there is none (a proc_root that is not this host's /proc: a test's
 * fixture tree); ask procs_alive then.  The caller closes it. */
int procs_handle(const char *proc_root, pid_t pid);
/* Has the process behind handle h exited (a zombie, or gone)? */
bool procs_handle_exited(int h);

/* Did p's parent, running the same binary, claim the same OSD id?  That
 * parent is the first half of a daemonizing start (Ceph's Preforker: the
 * process that parsed the arguments forks the daemon, waits for it to run,
 * and exits): one OSD, not two. */
bool procs_forked_from(const char *proc_root, const struct osd_proc *p);

#endif
