/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_ASOK_FIND_H
#define OSDHIST_ASOK_FIND_H

/*
 * Finding a ceph-osd's admin socket with no configuration of osdhist's own.
 * Everything here reads what the process chose (its fds, its command line,
 * its config file), so every parser takes bounded bytes and is fuzzed.
 */
#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The admin socket of process PID (a ceph-osd with id osd_id, -1 unknown),
 * reached through the OSD's own root (PROC/PID/root), so a container's or a
 * chroot's socket is found as the OSD sees it.  Tried in order:
 *   1. the unix sockets PID listens on (PROC/PID/net/unix against the
 *      socket inodes of its fds) with a name ending in .asok;
 *   2. its command line and config: --admin-socket, else admin_socket from
 *      -c/--conf (default /etc/ceph/$cluster.conf) in [osd.N], [osd] or
 *      [global], else Ceph's default $run_dir/$cluster-$name.asok with
 *      run_dir /var/run/ceph, metavariables expanded.
 * how says which ("listening" or "config").  Every path (config, socket)
 * is resolved inside the process's root and checked on the object opened
 * (proot.h): a config must be a regular file, read capped at ASOK_CONF_MAX
 * without blocking; a socket must be a socket.  On success *fd is an O_PATH
 * descriptor of the socket (the caller closes it; asok_request() connects
 * through it) and path names it as the OSD sees it, for display only: it is
 * the process's text, to be escaped by whoever prints it.  0, or -errno
 * (*fd -1) with why set to one phrase for the operator ("config
 * /etc/ceph/ceph.conf is not a regular file (fifo)"): -ENOENT when nothing
 * was found, -EACCES when the candidate could not be looked at, -EPERM
 * for a socket on a FUSE file system (never connected to: a stalled mount
 * would hold the caller), -ENOSYS without openat2.
 */
int asok_locate(const char *proc_root, pid_t pid, int osd_id, int *fd, char *path,
		size_t size, const char **how, char *why, size_t whylen);
/* asok_locate() for callers that show only the errno. */
int asok_find(const char *proc_root, pid_t pid, int osd_id, int *fd, char *path,
	      size_t size, const char **how);

/* Bytes of a config file read; the rest is ignored (a real ceph.conf is a
 * few KiB; a cephadm one is a few hundred bytes). */
#define ASOK_CONF_MAX	(256u << 10)

/* What the command line and the config say of one OSD. */
struct asok_osd_conf {
	char cluster[64];
	char fsid[64];			/* --fsid */
	char osd_data[PATH_MAX];	/* --osd-data, unexpanded */
	char conf[PATH_MAX];		/* as the OSD names it */
	char admin_socket[PATH_MAX];	/* unexpanded */
	char run_dir[PATH_MAX];
	int id;
	pid_t pid;
};

/* --admin-socket, -c/--conf, --cluster, --run-dir, --fsid and --osd-data
 * (also --opt=V, '_'
 * for '-') from a NUL-separated command line of len bytes; an argument
 * without its NUL at the end is ignored.  Fields not named stay as given. */
void asok_cmdline_parse(const char *cmd, size_t len, struct asok_osd_conf *c);

/* The admin_socket, run_dir, fsid and osd_data of a ceph.conf's text (len
 * bytes, not
 * NUL-terminated): [osd.ID] beats [osd] beats [global], a later line beats
 * an earlier one of the same rank; "" where none is set. */
struct asok_conf_vals {
	char admin_socket[PATH_MAX];
	char run_dir[PATH_MAX];
	char fsid[64];
	char osd_data[PATH_MAX];
};
void asok_conf_parse(const char *text, size_t len, int id, struct asok_conf_vals *v);

/* Expands $cluster, $type, $id, $name, $pid and $run_dir (also ${...}) in
 * in.  0; -EINVAL for any other variable ($host: not guessed);
 * -ENAMETOOLONG when the result does not fit size. */
int asok_expand(const char *in, const struct asok_osd_conf *c, char *out, size_t size);

/*
 * The cluster of process PID (a ceph-osd with id osd_id), as Ceph itself
 * finds its fsid: --fsid on the command line (Rook), else fsid in its
 * config (cephadm's minimal ceph.conf, a hand-made one), else its data
 * directory's ceph_fsid (osd_data, default /var/lib/ceph/osd/$cluster-$id,
 * written by mkfs).  Read inside the process's root under the same rules
 * as the socket (proot.h: regular files only, bounded, no blocking file
 * types).  0 with fsid set to a UUID in lower case (36 characters), or
 * -ENOENT (fsid "") with why set when none is found or what is found is no
 * UUID: the OSD's cluster is unknown then.
 */
#define ASOK_FSID_LEN	36
int asok_fsid(const char *proc_root, pid_t pid, int osd_id, char fsid[ASOK_FSID_LEN + 1],
	      char *why, size_t whylen);
/* The same from the command line alone (--fsid): nothing read in the
 * process's root, so nothing there can stall it.  0, or -ENOENT (""). */
int asok_fsid_cmdline(const char *proc_root, pid_t pid, char fsid[ASOK_FSID_LEN + 1]);

#endif
