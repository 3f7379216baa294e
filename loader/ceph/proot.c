// SPDX-License-Identifier: GPL-2.0
/* Opening things inside an OSD process's root: openat2 with
 * RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS from one descriptor of
 * PROC/PID/root, and checks on the object opened (proot.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <sys/syscall.h>

#include "proot.h"

int proot_open(const char *proc_root, pid_t pid, char *why, size_t whylen)
{
	char dir[PATH_MAX];
	int fd;

	/* PROC/PID/root is the kernel's link to the process's root: followed
	 * here, from our side, on purpose; nothing below follows another */
	snprintf(dir, sizeof(dir), "%s/%d/root", proc_root, pid);
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		snprintf(why, whylen, "cannot open the process's root: %s", strerror(e));
		return -e;
	}
	return fd;
}

const char *proot_kind(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return "regular file";
	case S_IFDIR: return "directory";
	case S_IFIFO: return "fifo";
	case S_IFCHR: return "character device";
	case S_IFBLK: return "block device";
	case S_IFSOCK: return "socket";
	case S_IFLNK: return "symlink";
	default: return "unknown file type";
	}
}

/* An O_PATH descriptor of path inside root: nothing is opened for I/O, so
 * a FIFO, a device or a socket is only looked at.  -errno with why. */
static int open_in_root(int root, const char *what, const char *path, char *why,
			size_t whylen)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int fd = -1, e = 0;

	/* EAGAIN: a rename during ".." resolution, which the kernel will not
	 * vouch for; the process's own doing, so a few tries and then its
	 * failure, not a loop it can keep us in */
	for (int tries = 0; tries < 3; tries++) {
		fd = (int)syscall(SYS_openat2, root, path, &how, sizeof(how));
		e = fd < 0 ? errno : 0;
		if (e != EAGAIN)
			break;
	}
	if (fd >= 0)
		return fd;
	if (e == ENOSYS)
		snprintf(why, whylen, "openat2 not available: %s (Linux >= 5.6 needed "
			 "to resolve %s %s inside the process's root)", strerror(e), what, path);
	else if (e == ELOOP)
		snprintf(why, whylen, "%s %s: too many symlinks, or a /proc magic link",
			 what, path);
	else
		snprintf(why, whylen, "%s %s: %s", what, path, strerror(e));
	return -e;
}

ssize_t proot_read(int root, const char *what, const char *path, char *buf, size_t cap,
		   char *why, size_t whylen)
{
	char self[64];
	struct stat st, st2;
	size_t total = 0;
	int pfd, fd;

	pfd = open_in_root(root, what, path, why, whylen);
	if (pfd < 0)
		return pfd;
	if (fstat(pfd, &st)) {
		int e = errno;

		snprintf(why, whylen, "%s %s: fstat: %s", what, path, strerror(e));
		close(pfd);
		return -e;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "%s %s is not a regular file (%s)", what, path,
			 proot_kind(st.st_mode));
		close(pfd);
		return -EFTYPE_PROOT;
	}
	/* Reopened for reading through the descriptor checked, never through
	 * the path again: the object read is the object checked.  Opening a
	 * device at all can act (/dev/watchdog arms a timer), which is why
	 * the check comes before this open, not after it. */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
	fd = open(self, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	close(pfd);
	if (fd < 0) {
		int e = errno;

		snprintf(why, whylen, "%s %s: %s", what, path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st2) || st2.st_ino != st.st_ino || st2.st_dev != st.st_dev) {
		snprintf(why, whylen, "%s %s changed while opened", what, path);
		close(fd);
		return -EAGAIN;
	}
	while (total < cap) {
		ssize_t n = read(fd, buf + total, cap - total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			snprintf(why, whylen, "%s %s: read: %s", what, path, strerror(e));
			close(fd);
			return -e;
		}
		if (n == 0)
			break;
		total += (size_t)n;
	}
	close(fd);
	return (ssize_t)total;
}

int proot_sock(int root, const char *path, char *why, size_t whylen)
{
	struct statfs sf;
	struct stat st;
	int fd = open_in_root(root, "admin socket", path, why, whylen);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st))
		st.st_mode = 0;	/* "unknown file type" */
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(why, whylen, "admin socket %s is not a socket (%s)", path,
			 proot_kind(st.st_mode));
		close(fd);
		return -ENOTSOCK;
	}
	if (!fstatfs(fd, &sf) && sf.f_type == FUSE_SUPER_MAGIC) {
		snprintf(why, whylen, "admin socket %.120s is on a FUSE file system: not "
			 "connected to (a stalled mount would hold osdhist)", path);
		close(fd);
		return -EREMOTE;
	}
	return fd;
}

int proot_cwd_rel(const char *root, const char *cwd, const char *rel, char *out, size_t size)
{
	size_t n = strlen(root);
	const char *in;

	/* "/" as root: every absolute cwd is inside it */
	if (n == 1 && root[0] == '/')
		n = 0;
	if (cwd[0] != '/' || strncmp(cwd, root, n) || (cwd[n] && cwd[n] != '/'))
		return -EXDEV;
	in = cwd + n;
	if (snprintf(out, size, "%s/%s", in, rel) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* Where PROC/PID/NAME points, as seen from here.  A fixture tree's root is
 * a plain directory, not a link: then its own path is where it is. */
static int link_of(const char *proc_root, pid_t pid, const char *name, char *out,
		   size_t size)
{
	char l[PATH_MAX];
	ssize_t n;

	snprintf(l, sizeof(l), "%s/%d/%s", proc_root, pid, name);
	n = readlink(l, out, size - 1);
	if (n < 0 && errno == EINVAL && !strcmp(name, "root"))
		return snprintf(out, size, "%s", l) < (int)size ? 0 : -ENAMETOOLONG;
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	out[n] = 0;
	return 0;
}

int proot_cwd_path(const char *proc_root, pid_t pid, const char *rel, char *out,
		   size_t size, char *why, size_t whylen)
{
	char root[PATH_MAX], cwd[PATH_MAX];
	int e = link_of(proc_root, pid, "root", root, sizeof(root));

	if (!e)
		e = link_of(proc_root, pid, "cwd", cwd, sizeof(cwd));
	if (e) {
		snprintf(why, whylen, "config %s is relative, and the process's "
			 "working directory is unknown: %s", rel, strerror(-e));
		return e;
	}
	e = proot_cwd_rel(root, cwd, rel, out, size);
	if (e == -EXDEV)
		snprintf(why, whylen, "config %s is relative to a working directory "
			 "outside the process's root: not read", rel);
	else if (e)
		snprintf(why, whylen, "config %s: %s", rel, strerror(-e));
	return e;
}
