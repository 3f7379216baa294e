// SPDX-License-Identifier: GPL-2.0
/* Finding ceph-osd processes in /proc; proc_root is a parameter so the unit
 * tests can run this on fixture trees. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "procs.h"

static int parse_id(const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return OSD_UNKNOWN;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > PROCS_OSD_ID_MAX)
		return OSD_UNKNOWN;
	return v;
}

int procs_osd_id(const char *cmdline, size_t len)
{
	const char *a = cmdline, *end = cmdline + len, *next;

	for (; a < end; a = next) {
		next = a + strnlen(a, end - a) + 1;
		const char *val = next < end ? next : "";

		if (!strcmp(a, "--id") || !strcmp(a, "-i"))
			return parse_id(val);
		if (!strncmp(a, "--id=", 5))
			return parse_id(a + 5);
		if (!strncmp(a, "-i", 2) && a[2])
			return parse_id(a + 2);
		if (!strcmp(a, "-n") || !strcmp(a, "--name"))
			return strncmp(val, "osd.", 4) ? OSD_UNKNOWN : parse_id(val + 4);
		if (!strncmp(a, "--name=osd.", 11))
			return parse_id(a + 11);
	}
	return OSD_UNKNOWN;
}

static ssize_t read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, total = 0;

	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1 &&
	       (n = read(fd, buf + total, size - 1 - total)) > 0)
		total += n;
	close(fd);
	buf[total] = 0;
	return total;
}

ssize_t procs_cmdline(const char *proc_root, pid_t pid, char *buf, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%d/cmdline", proc_root, pid);
	return read_file(path, buf, size);
}

/*
 * The names an OSD runs under.  Ceph's main branch installs the classic OSD
 * as ceph-osd-classic behind an alternatives link named ceph-osd; comm is
 * cut to 15 characters ("ceph-osd-classi").  crimson-osd is another OSD
 * altogether (Seastar, none of the functions osdhist probes): found, so it
 * can be named as not supported, never traced.
 */
static const struct {
	const char *name;
	bool supported;
} osd_names[] = {
	{ "ceph-osd", true },
	{ "ceph-osd-classic", true },
	{ "crimson-osd", false },
};

#define COMM_MAX 15	/* TASK_COMM_LEN - 1 */

/* 1 a supported OSD name, 0 crimson-osd, -1 none.  comm matches a name or
 * its first 15 characters; base is an exact basename. */
static int osd_name(const char *s, bool comm)
{
	for (size_t i = 0; i < sizeof(osd_names) / sizeof(osd_names[0]); i++) {
		const char *n = osd_names[i].name;

		if (comm ? !strncmp(s, n, COMM_MAX) && strlen(s) == (strlen(n) < COMM_MAX ?
								     strlen(n) : COMM_MAX)
			 : !strcmp(s, n))
			return osd_names[i].supported;
	}
	return -1;
}

static const char *basename_of(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* An OSD by comm (what the kernel names the process after exec), by the
 * basename of the binary it runs (a copy, or the file behind a link), or
 * by argv[0]: the first of them that names one. */
static int osd_kind(char *comm, const char *cmdline, size_t len, const char *exe)
{
	char target[PATH_MAX], *nl = strchr(comm, '\n');
	ssize_t n;
	int k;

	if (nl)
		*nl = 0;
	k = osd_name(comm, true);
	if (k >= 0)
		return k;
	n = readlink(exe, target, sizeof(target) - 1);
	if (n > 0) {
		target[n] = 0;
		/* a binary replaced by an upgrade is still the OSD's */
		if (n > 10 && !strcmp(target + n - 10, " (deleted)"))
			target[n - 10] = 0;
		k = osd_name(basename_of(target), false);
		if (k >= 0)
			return k;
	}
	return len ? osd_name(basename_of(cmdline), false) : -1;
}

/* A stat line past the command name (which may hold anything, ')' too):
 * "S PPID ...", or NULL. */
static const char *after_comm(const char *buf)
{
	const char *rp = strrchr(buf, ')');

	return rp && rp[1] == ' ' && rp[2] ? rp + 2 : NULL;
}

/* The stat of PID's thread group leader past the command name, or NULL
 * (buf holds it).  PROC/PID/task/PID/stat,
 * not PROC/PID/stat: the same state and parent (the leader's, both), but
 * the kernel does not sum the times of every thread for it, which for an
 * OSD's hundred threads was the loader's largest kernel cost at each
 * snapshot's liveness check. */
static void leader_stat_path(char path[PATH_MAX], const char *proc_root, pid_t pid)
{
	snprintf(path, PATH_MAX, "%s/%d/task/%d/stat", proc_root, pid, pid);
}

static const char *stat_rest(const char *proc_root, pid_t pid, char *buf, size_t size)
{
	char path[PATH_MAX];

	leader_stat_path(path, proc_root, pid);
	if (read_file(path, buf, size) <= 0)
		return NULL;
	return after_comm(buf);
}

/* A zombie still has /proc/PID but will never run an op again. */
static bool state_alive(const char *rest)
{
	return rest && *rest != 'Z' && *rest != 'X';
}

static pid_t stat_ppid(const char *proc_root, pid_t pid)
{
	char buf[512];
	const char *s = stat_rest(proc_root, pid, buf, sizeof(buf));
	long ppid;

	if (!s || sscanf(s, "%*c %ld", &ppid) != 1 || ppid <= 0 || ppid > INT_MAX)
		return 0;
	return ppid;
}

int procs_inspect(const char *proc_root, pid_t pid, struct osd_proc *p)
{
	char path[PATH_MAX], comm[64], cmdline[8192];
	struct statx st;
	ssize_t n;
	int kind;

	memset(p, 0, sizeof(*p));
	snprintf(path, sizeof(path), "%s/%d/comm", proc_root, pid);
	if (read_file(path, comm, sizeof(comm)) < 0)
		return -ENOENT;
	n = procs_cmdline(proc_root, pid, cmdline, sizeof(cmdline));
	if (n < 0)
		return -ENOENT;
	snprintf(p->exe, sizeof(p->exe), "%s/%d/exe", proc_root, pid);
	kind = osd_kind(comm, cmdline, n, p->exe);
	if (kind < 0)
		return -EINVAL;
	/*
	 * exec names the process (comm, exe) before it lays out the new
	 * program's arguments: for that moment an OSD that is starting has an
	 * empty command line, as has one whose memory is gone (exiting).  Its
	 * OSD id is decided once (proctable.c), so not now: the next scan or
	 * snapshot asks again.  A scan catches this moment now and then: an
	 * id decided then would be none for good, and a restarted OSD's ops
	 * would all go to "osd.?".
	 */
	if (n == 0)
		return procs_alive(proc_root, pid) ? -EAGAIN : -ENOENT;

	p->pid = pid;
	p->ppid = stat_ppid(proc_root, pid);
	p->osd_id = procs_osd_id(cmdline, n);
	p->unsupported = kind == 0 ? "crimson-osd, which osdhist does not support "
				     "(it traces the classic ceph-osd)" : NULL;
	/* The attributes the kernel has cached, not asked again of the file
	 * system: a FUSE mount that stopped answering would hold this stat,
	 * and the scan, for ever.  Its exec looked them up. */
	if (statx(AT_FDCWD, p->exe, AT_STATX_DONT_SYNC,
		  STATX_INO | STATX_SIZE | STATX_CTIME, &st))
		return -errno;
	p->dev = makedev(st.stx_dev_major, st.stx_dev_minor);
	p->ino = st.stx_ino;
	p->size = st.stx_size;
	p->ctime = (struct timespec){ st.stx_ctime.tv_sec, st.stx_ctime.tv_nsec };
	return 0;
}

int procs_each(const char *proc_root, procs_fn fn, void *arg)
{
	DIR *d = opendir(proc_root);
	struct osd_proc p;
	struct dirent *e;
	bool more = true;
	int n = 0;

	if (!d)
		return -errno;
	while (more && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0 || procs_inspect(proc_root, pid, &p))
			continue;
		n++;
		more = fn(&p, arg);
	}
	closedir(d);
	return n;
}

struct into_array {
	struct osd_proc *out;
	int n, max;
};

static bool into_array(const struct osd_proc *p, void *arg)
{
	struct into_array *a = arg;

	a->out[a->n++] = *p;
	return a->n < a->max;
}

int procs_scan(const char *proc_root, struct osd_proc *out, int max)
{
	struct into_array a = { out, 0, max };
	int r = max > 0 ? procs_each(proc_root, into_array, &a) : 0;

	return r < 0 ? r : a.n;
}

void procs_exe_where(const struct osd_proc *p, char *out, size_t len)
{
	ssize_t n = len ? readlink(p->exe, out, len - 1) : -1;

	if (n > 0)
		out[n] = 0;
	else if (len)
		snprintf(out, len, "%s", p->exe);
}

bool procs_alive(const char *proc_root, pid_t pid)
{
	char buf[512];

	return state_alive(stat_rest(proc_root, pid, buf, sizeof(buf)));
}

int procs_handle(const char *proc_root, pid_t pid)
{
	char path[PATH_MAX];
	int fd;

	/* a fixture tree's file would still read as it was once removed */
	if (strcmp(proc_root, PROC_ROOT))
		return -ENOTSUP;
	leader_stat_path(path, proc_root, pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd >= 0 ? fd : -errno;
}

bool procs_handle_exited(int h)
{
	char buf[512];
	ssize_t n = pread(h, buf, sizeof(buf) - 1, 0);

	/* reaped: the file is its pid's, which no other process gets */
	if (n <= 0)
		return true;
	buf[n] = 0;
	return !state_alive(after_comm(buf));
}

bool procs_forked_from(const char *proc_root, const struct osd_proc *p)
{
	struct osd_proc parent;

	return p->ppid > 1 && p->osd_id >= 0 &&
	       procs_inspect(proc_root, p->ppid, &parent) == 0 &&
	       !parent.unsupported && parent.osd_id == p->osd_id &&
	       parent.dev == p->dev && parent.ino == p->ino;
}
