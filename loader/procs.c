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
#include <unistd.h>

#include "procs.h"

static int parse_id(const char *s)
{
	char *end;
	long v;

	if (!isdigit((unsigned char)*s))
		return -1;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 1000000)
		return -1;
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
			return strncmp(val, "osd.", 4) ? -1 : parse_id(val + 4);
		if (!strncmp(a, "--name=osd.", 11))
			return parse_id(a + 11);
	}
	return -1;
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

static bool is_ceph_osd(const char *comm, const char *cmdline, size_t len)
{
	const char *base;

	/* comm is what the kernel names the process after exec */
	if (!strcmp(comm, "ceph-osd\n") || !strcmp(comm, "ceph-osd"))
		return true;
	if (!len)
		return false;
	base = strrchr(cmdline, '/');
	return !strcmp(base ? base + 1 : cmdline, "ceph-osd");
}

int procs_inspect(const char *proc_root, pid_t pid, struct osd_proc *p)
{
	char path[PATH_MAX], comm[64], cmdline[8192];
	struct stat st;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%d/comm", proc_root, pid);
	if (read_file(path, comm, sizeof(comm)) < 0)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%d/cmdline", proc_root, pid);
	n = read_file(path, cmdline, sizeof(cmdline));
	if (n < 0)
		return -ENOENT;
	if (!is_ceph_osd(comm, cmdline, n))
		return -EINVAL;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->osd_id = procs_osd_id(cmdline, n);
	snprintf(p->exe, sizeof(p->exe), "%s/%d/exe", proc_root, pid);
	if (stat(p->exe, &st))
		return -errno;
	p->dev = st.st_dev;
	p->ino = st.st_ino;
	return 0;
}

int procs_scan(const char *proc_root, struct osd_proc *out, int max)
{
	DIR *d = opendir(proc_root);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d)) && n < max) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		if (procs_inspect(proc_root, pid, &out[n]) == 0)
			n++;
	}
	closedir(d);
	return n;
}

bool procs_alive(const char *proc_root, pid_t pid)
{
	char path[PATH_MAX], stat[512], *rp;

	/* A zombie still has /proc/PID but will never run an op again. */
	snprintf(path, sizeof(path), "%s/%d/stat", proc_root, pid);
	if (read_file(path, stat, sizeof(stat)) <= 0)
		return false;
	rp = strrchr(stat, ')');
	return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}
