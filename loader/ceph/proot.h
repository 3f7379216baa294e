/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_PROOT_H
#define OSDHIST_PROOT_H

/*
 * The one place that opens things inside an OSD process's root.
 * osdhist runs as root next to processes it does not trust: a path a
 * process names (its config, its admin socket) is resolved inside that
 * process's root, never on the host, and the object opened is checked
 * before anything is read from or connected to it.
 *
 * Every path is resolved by openat2() from a descriptor of PROC/PID/root
 * with RESOLVE_IN_ROOT (an absolute symlink, or "..", stays inside the
 * root, as it would for the process) and RESOLVE_NO_MAGICLINKS (no
 * /proc/self/... link inside it reaches out).  Not RESOLVE_NO_XDEV: a
 * container's root has mounts of its own.  openat2 exists since Linux 5.6
 * (RHEL 9's 5.14 and Ubuntu 22.04's 5.15 have it); without it every call
 * fails with "openat2 not available: ...", never a plain open.
 *
 * Every failure returns -errno and writes one phrase to why (what, which
 * path as the process names it, and what was wrong with it); the path is
 * the process's text, to be escaped by whoever prints it.
 */
#include <stddef.h>
#include <sys/types.h>

/* An O_PATH descriptor of PROC/PID/root (the caller closes it), or -errno. */
int proot_open(const char *proc_root, pid_t pid, char *why, size_t whylen);

/* Reads at most cap bytes of the regular file at path inside root (what
 * names it in why: "config").  Never blocks and never opens anything but a
 * regular file: a FIFO, a device (/dev/zero, /dev/watchdog), a directory or
 * a socket is refused from its O_PATH descriptor, before any open for
 * reading.  Bytes read (more may follow: the rest is ignored), or -errno:
 * -EFTYPE_PROOT (see below) for a file that is not regular. */
ssize_t proot_read(int root, const char *what, const char *path, char *buf, size_t cap,
		   char *why, size_t whylen);

/* An O_PATH descriptor of the socket at path inside root, checked
 * S_ISSOCK on the opened object (connect through it: the object checked is
 * the object connected to), or -errno: -ENOTSOCK for anything else, -EREMOTE
 * for a socket on a FUSE file system (connecting would ask that file
 * system, which may never answer). */
int proot_sock(int root, const char *path, char *why, size_t whylen);

/* The error for "not a regular file": Linux has no EFTYPE. */
#define EFTYPE_PROOT EINVAL

/*
 * A path relative to the process's working directory, as a path inside its
 * root: root and cwd are what PROC/PID/root and PROC/PID/cwd point to (as
 * seen from here), rel the process's relative path.  Pure.  0, or -EXDEV
 * when cwd is not inside root (a process that chrooted without chdir: its
 * cwd is on the host, and nothing relative to it is read), -ENAMETOOLONG.
 * Whatever this computes is then resolved with RESOLVE_IN_ROOT, so even a
 * wrong answer can only name something inside the root.
 */
int proot_cwd_rel(const char *root, const char *cwd, const char *rel, char *out, size_t size);

/* proot_cwd_rel() for process PID: rel as a path inside its root, from
 * where PROC/PID/root and PROC/PID/cwd point.  0, or -errno with why. */
int proot_cwd_path(const char *proc_root, pid_t pid, const char *rel, char *out,
		   size_t size, char *why, size_t whylen);

/* The kind of file a mode is, in a word ("fifo", "character device"). */
const char *proot_kind(unsigned int mode);

#endif
