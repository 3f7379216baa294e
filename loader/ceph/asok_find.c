// SPDX-License-Identifier: GPL-2.0
/* Where a ceph-osd's admin socket is, from what the process shows: the
 * sockets it listens on, its command line, its config.  All of it is the
 * process's to choose, so the parsers are pure functions on bounded bytes
 * (fuzzed: tests/fuzz/) and the reading is apart from the parsing. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "asok_find.h"
#include "procs.h"
#include "proot.h"

/* ---- 1. the sockets the process listens on ------------------------------ */

#define MAX_SOCK_FDS 65536

static int cmp_ino(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Inodes of the sockets among PID's fds, sorted; count or -errno. */
static int socket_inodes(const char *proc_root, pid_t pid, unsigned long **out)
{
	char dir[PATH_MAX], link[PATH_MAX], target[64];
	unsigned long *inos = NULL;
	int n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%d/fd", proc_root, pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d)) && n < MAX_SOCK_FDS) {
		ssize_t len;
		unsigned long ino;

		if (de->d_name[0] == '.')
			continue;
		if (snprintf(link, sizeof(link), "%s/%s", dir, de->d_name) >= (int)sizeof(link))
			continue;
		len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		if (sscanf(target, "socket:[%lu]", &ino) != 1)
			continue;
		if (n == cap) {
			void *p = realloc(inos, (cap = cap ? 2 * cap : 64) * sizeof(*inos));

			if (!p)
				break;
			inos = p;
		}
		inos[n++] = ino;
	}
	closedir(d);
	qsort(inos, n, sizeof(*inos), cmp_ino);
	*out = inos;
	return n;
}

/* __SO_ACCEPTCON in /proc/net/unix's Flags: a listening socket. */
#define UNIX_LISTENING 0x10000
/* PROC/PID/net/unix is procfs, but its length is the process's to choose
 * (every unix socket of its network namespace): read this much at most.
 * A line is < 200 bytes (sun_path is 108), so this is ~1 M sockets. */
#define NET_UNIX_MAX_BYTES (64u << 20)
#define NET_UNIX_MAX_LINES (1u << 20)

static int from_listening(const char *proc_root, pid_t pid, char *path, size_t size)
{
	unsigned long *inos = NULL, *hit;
	char file[PATH_MAX], line[PATH_MAX + 128], best[PATH_MAX] = "";
	int n = socket_inodes(proc_root, pid, &inos), err = 0;
	size_t bytes = 0, lines = 0, best_at = 0, *seen;
	FILE *f;

	if (n <= 0) {
		free(inos);
		return n ? n : -ENOENT;
	}
	seen = calloc(n, sizeof(*seen));	/* lines naming each inode */
	snprintf(file, sizeof(file), "%s/%d/net/unix", proc_root, pid);
	f = seen ? fopen(file, "re") : NULL;
	if (!f) {
		err = seen ? -errno : -ENOMEM;
		free(seen);
		free(inos);
		return err;
	}
	/* Num RefCount Protocol Flags Type St Inode Path */
	while (fgets(line, sizeof(line), f)) {
		unsigned int flags, type;
		unsigned long ino;
		char name[PATH_MAX];
		size_t len;

		bytes += strlen(line);
		if (++lines > NET_UNIX_MAX_LINES || bytes > NET_UNIX_MAX_BYTES) {
			err = -EFBIG;
			break;
		}
		if (sscanf(line, "%*s %*x %*x %x %x %*x %lu %4095s", &flags, &type,
			   &ino, name) != 4)
			continue;
		hit = bsearch(&ino, inos, n, sizeof(*inos), cmp_ino);
		if (!hit)
			continue;
		seen[hit - inos]++;
		if (best[0] || !(flags & UNIX_LISTENING) || type != SOCK_STREAM ||
		    name[0] != '/')
			continue;
		/* only a .asok: a socket configured under another name is
		 * found from the config, never guessed among other listeners */
		len = strlen(name);
		if (len > 5 && !strcmp(name + len - 5, ".asok")) {
			snprintf(best, sizeof(best), "%s", name);
			best_at = hit - inos;
		}
	}
	fclose(f);
	/* The kernel prints a socket's name raw, newlines too, so a process
	 * can bind a name that reads as a second line for another socket's
	 * inode, with a name of its choosing.  The real line for that inode
	 * is always there too: an inode named twice is a forgery, and neither
	 * name is taken. */
	if (!err && best[0] && seen[best_at] > 1)
		err = -EEXIST;
	free(seen);
	free(inos);
	if (err)
		return err;
	if (!best[0])
		return -ENOENT;
	if (snprintf(path, size, "%s", best) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* ---- 2. the command line and the config --------------------------------- */

/* Ceph treats ' ', '_' and '-' in option names alike. */
static void norm_key(char *k)
{
	for (; *k; k++)
		*k = *k == ' ' || *k == '-' ? '_' : tolower((unsigned char)*k);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/* Section rank: [osd.N] beats [osd] beats [global]; 0 for other sections. */
static int section_rank(const char *sec, int id)
{
	char me[32];

	snprintf(me, sizeof(me), "osd.%d", id);
	if (!strcmp(sec, me))
		return 3;
	if (!strcmp(sec, "osd"))
		return 2;
	if (!strcmp(sec, "global"))
		return 1;
	return 0;
}

void asok_conf_parse(const char *text, size_t len, int id, struct asok_conf_vals *v)
{
	int asok_rank = 0, run_rank = 0, fsid_rank = 0, data_rank = 0, rank = 0;
	char line[PATH_MAX + 256], sec[128] = "";
	const char *end = text + len;

	v->admin_socket[0] = v->run_dir[0] = v->fsid[0] = v->osd_data[0] = 0;
	while (text < end) {
		const char *nl = memchr(text, '\n', end - text);
		size_t n = (nl ? nl : end) - text;
		char *s, *eq, *key, *val;

		/* a longer line is no line Ceph would take for these keys */
		if (n >= sizeof(line)) {
			text += n + 1;
			continue;
		}
		memcpy(line, text, n);
		line[n] = 0;	/* a NUL inside ends the line early: fine */
		text += n + 1;
		s = trim(line);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');

			if (e) {
				*e = 0;
				snprintf(sec, sizeof(sec), "%s", trim(s + 1));
				norm_key(sec);
				/* "osd_3" after norm_key: Ceph's section is osd.3 */
				for (char *q = sec; *q; q++)
					if (*q == '_' && !strncmp(sec, "osd", 3) && q == sec + 3)
						*q = '.';
				rank = section_rank(sec, id);
			}
			continue;
		}
		eq = strchr(s, '=');
		if (!eq || !rank)
			continue;
		*eq = 0;
		key = trim(s);
		val = trim(eq + 1);
		for (char *q = val; *q; q++)	/* a trailing comment */
			if ((*q == '#' || *q == ';') && (q == val || isspace((unsigned char)q[-1]))) {
				*q = 0;
				val = trim(val);
				break;
			}
		if (*val == '"' && strlen(val) > 1 && val[strlen(val) - 1] == '"') {
			val[strlen(val) - 1] = 0;
			val++;
		}
		norm_key(key);
		if (!strcmp(key, "admin_socket") && rank >= asok_rank) {
			snprintf(v->admin_socket, sizeof(v->admin_socket), "%s", val);
			asok_rank = rank;
		} else if (!strcmp(key, "run_dir") && rank >= run_rank) {
			snprintf(v->run_dir, sizeof(v->run_dir), "%s", val);
			run_rank = rank;
		} else if (!strcmp(key, "fsid") && rank >= fsid_rank) {
			snprintf(v->fsid, sizeof(v->fsid), "%s", val);
			fsid_rank = rank;
		} else if (!strcmp(key, "osd_data") && rank >= data_rank) {
			snprintf(v->osd_data, sizeof(v->osd_data), "%s", val);
			data_rank = rank;
		}
	}
}

/* Fills admin_socket and run_dir from the config file at file (a path
 * inside the process's root), where the command line set neither.  0 also
 * when the file does not exist (Ceph runs on its defaults then); -errno
 * with why when it cannot be read or is no regular file: a process whose
 * config is a FIFO or a device is shown as such, not given a default. */
static int read_conf(int root, const char *file, struct asok_osd_conf *c, bool want_asok,
		     bool want_run, char *why, size_t whylen)
{
	static char text[ASOK_CONF_MAX];
	static struct asok_conf_vals v;
	ssize_t n = proot_read(root, "config", file, text, sizeof(text), why, whylen);

	if (n == -ENOENT)
		return 0;
	if (n < 0)
		return (int)n;
	asok_conf_parse(text, (size_t)n, c->id, &v);
	if (want_asok && v.admin_socket[0])
		snprintf(c->admin_socket, sizeof(c->admin_socket), "%s", v.admin_socket);
	if (want_run && v.run_dir[0])
		snprintf(c->run_dir, sizeof(c->run_dir), "%s", v.run_dir);
	if (!c->fsid[0])
		snprintf(c->fsid, sizeof(c->fsid), "%s", v.fsid);
	if (!c->osd_data[0])
		snprintf(c->osd_data, sizeof(c->osd_data), "%s", v.osd_data);
	return 0;
}

/* $cluster, $type, $id, $name, $pid, $run_dir (also as ${...}). */
static int expand(const char *in, const struct asok_osd_conf *c, char *out, size_t size, int depth)
{
	size_t o = 0;

	while (*in) {
		char var[32], val[PATH_MAX];
		size_t n = 0;
		bool brace;

		if (*in != '$') {
			if (o + 1 >= size)
				return -ENAMETOOLONG;
			out[o++] = *in++;
			continue;
		}
		in++;
		brace = *in == '{';
		in += brace;
		while ((isalnum((unsigned char)*in) || *in == '_') && n < sizeof(var) - 1)
			var[n++] = *in++;
		var[n] = 0;
		if (brace && *in == '}')
			in++;
		if (!strcmp(var, "cluster"))
			snprintf(val, sizeof(val), "%s", c->cluster);
		else if (!strcmp(var, "type"))
			snprintf(val, sizeof(val), "osd");
		else if (!strcmp(var, "id"))
			snprintf(val, sizeof(val), "%d", c->id);
		else if (!strcmp(var, "name"))
			snprintf(val, sizeof(val), "osd.%d", c->id);
		else if (!strcmp(var, "pid"))
			snprintf(val, sizeof(val), "%d", c->pid);
		else if (!strcmp(var, "run_dir") && depth == 0) {
			if (expand(c->run_dir, c, val, sizeof(val), 1))
				return -ENAMETOOLONG;
		} else
			return -EINVAL;	/* $host, $cctid ...: not guessed */
		n = strlen(val);
		if (o + n >= size)
			return -ENAMETOOLONG;
		memcpy(out + o, val, n);
		o += n;
	}
	out[o] = 0;
	return 0;
}

int asok_expand(const char *in, const struct asok_osd_conf *c, char *out, size_t size)
{
	return expand(in, c, out, size, 0);
}

/* An option's value: "--opt V", "--opt=V"; Ceph accepts '_' for '-'. */
static const char *opt_val(const char *a, const char *next, const char *opt, bool *took_next)
{
	size_t n = strlen(opt);
	char norm[64];

	*took_next = false;
	if (strncmp(a, "--", 2))
		return NULL;
	snprintf(norm, sizeof(norm), "%s", a);
	for (char *p = norm + 2; *p && *p != '='; p++)
		if (*p == '_')
			*p = '-';
	*took_next = false;
	if (!strcmp(norm, opt)) {
		*took_next = true;
		return next;
	}
	if (!strncmp(norm, opt, n) && norm[n] == '=')
		return a + n + 1;
	return NULL;
}

void asok_cmdline_parse(const char *cmd, size_t len, struct asok_osd_conf *c)
{
	const char *a, *end = cmd + len;

	/* the last argument may lack its NUL: procs_cmdline() adds one past len */
	for (a = cmd; a < end; a += strnlen(a, end - a) + 1) {
		size_t alen = strnlen(a, end - a);
		const char *nx = a + alen + 1;
		/* the value is the next argument only if it has its NUL too
		 * (fuzz_cmdline: "-c\0\n" read past the end) */
		const char *next = nx < end && memchr(nx, 0, end - nx) ? nx : "";
		const char *v;
		bool took;

		if (a + alen == end)
			break;	/* unterminated: not an argument */
		if ((v = opt_val(a, next, "--admin-socket", &took)))
			snprintf(c->admin_socket, sizeof(c->admin_socket), "%s", v);
		else if ((v = opt_val(a, next, "--conf", &took)))
			snprintf(c->conf, sizeof(c->conf), "%s", v);
		else if (!strcmp(a, "-c") && (took = true))
			snprintf(c->conf, sizeof(c->conf), "%s", next);
		else if ((v = opt_val(a, next, "--cluster", &took)))
			snprintf(c->cluster, sizeof(c->cluster), "%s", v);
		else if ((v = opt_val(a, next, "--run-dir", &took)))
			snprintf(c->run_dir, sizeof(c->run_dir), "%s", v);
		else if ((v = opt_val(a, next, "--fsid", &took)))
			snprintf(c->fsid, sizeof(c->fsid), "%s", v);
		else if ((v = opt_val(a, next, "--osd-data", &took)))
			snprintf(c->osd_data, sizeof(c->osd_data), "%s", v);
		else
			continue;
		if (took && next[0])
			a = next;
	}
}

/* What PID's command line says (asok_cmdline_parse) into *c, from
 * Ceph's defaults: cluster "ceph", its id and pid.  0, or -errno with why. */
static int cmdline_conf(const char *proc_root, pid_t pid, int osd_id, struct asok_osd_conf *c,
			char *why, size_t whylen)
{
	static char cmd[16384];
	ssize_t len = procs_cmdline(proc_root, pid, cmd, sizeof(cmd));

	memset(c, 0, sizeof(*c));
	snprintf(c->cluster, sizeof(c->cluster), "ceph");
	c->id = osd_id;
	c->pid = pid;
	if (len < 0) {
		snprintf(why, whylen, "cannot read its command line: %s", strerror((int)-len));
		return (int)len;
	}
	asok_cmdline_parse(cmd, len, c);
	return 0;
}

/* The config file the OSD reads, as a path inside its root: the first of
 * -c's list, else /etc/ceph/$cluster.conf. */
static int conf_path(const char *proc_root, pid_t pid, struct asok_osd_conf *c, char *file,
		     size_t size, char *why, size_t whylen)
{
	if (!c->conf[0])
		snprintf(c->conf, sizeof(c->conf), "/etc/ceph/%s.conf", c->cluster);
	/* Ceph takes a list of config files; the first one is read */
	c->conf[strcspn(c->conf, ", ")] = 0;
	/*
	 * Relative: to the OSD's working directory, as a path inside its root
	 * (PROC/PID/cwd's path less PROC/PID/root's), then resolved like any
	 * other, RESOLVE_IN_ROOT.  Not RESOLVE_BENEATH from PROC/PID/cwd: a
	 * process that chrooted without chdir has its cwd on the host, and
	 * "beneath" it is the host; and a legitimate "../ceph.conf" would be
	 * refused.
	 */
	if (c->conf[0] == '/') {
		snprintf(file, size, "%s", c->conf);
		return 0;
	}
	return proot_cwd_path(proc_root, pid, c->conf, file, size, why, whylen);
}

static int from_config(const char *proc_root, pid_t pid, int root, int osd_id, char *path,
		       size_t size, char *why, size_t whylen)
{
	char file[PATH_MAX], rel[PATH_MAX];
	static struct asok_osd_conf c;
	int err = cmdline_conf(proc_root, pid, osd_id, &c, why, whylen);

	if (err)
		return err;
	if (osd_id < 0) {
		snprintf(why, whylen, "no OSD id on its command line: no default socket name");
		return -ENOENT;	/* $name unknown: no default to build */
	}
	if (!c.admin_socket[0] || !c.run_dir[0]) {
		bool want_asok = !c.admin_socket[0], want_run = !c.run_dir[0];

		err = conf_path(proc_root, pid, &c, file, sizeof(file), why, whylen);
		if (err)
			return err;
		err = read_conf(root, file, &c, want_asok, want_run, why, whylen);
		if (err)
			return err;
	}
	if (!c.run_dir[0])
		snprintf(c.run_dir, sizeof(c.run_dir), "/var/run/ceph");
	if (!c.admin_socket[0])
		snprintf(c.admin_socket, sizeof(c.admin_socket), "$run_dir/$cluster-$name.asok");
	err = asok_expand(c.admin_socket, &c, rel, sizeof(rel));
	if (err) {
		snprintf(why, whylen, err == -EINVAL ? "admin socket %.200s: a metavariable "
			 "osdhist does not expand" : "admin socket %.200s: name too long",
			 c.admin_socket);
		return err == -EINVAL ? -ENOENT : err;
	}
	if (rel[0] != '/') {
		snprintf(why, whylen, "admin socket %.200s is relative: not guessed", rel);
		return -ENOENT;	/* relative to what the daemon had as cwd: not guessed */
	}
	if (snprintf(path, size, "%s", rel) >= (int)size) {
		snprintf(why, whylen, "admin socket path longer than %zu bytes", size - 1);
		return -ENAMETOOLONG;
	}
	return 0;
}

int asok_locate(const char *proc_root, pid_t pid, int osd_id, int *fd, char *path,
		size_t size, const char **how, char *why, size_t whylen)
{
	int root, err;

	*fd = -1;
	*how = "config";
	root = proot_open(proc_root, pid, why, whylen);
	if (root < 0)
		return root;
	err = from_listening(proc_root, pid, path, size);
	if (!err) {
		*fd = proot_sock(root, path, why, whylen);
		if (*fd >= 0) {
			*how = "listening";
			close(root);
			return 0;
		}
		/* fail closed: no openat2, no other path either; the socket
		 * it listens on is on FUSE: never connected to, whatever
		 * the config names */
		if (*fd == -ENOSYS || *fd == -EREMOTE)
			err = *fd;
	}
	if (err != -ENOSYS && err != -EREMOTE) {
		err = from_config(proc_root, pid, root, osd_id, path, size, why, whylen);
		if (!err) {
			*fd = proot_sock(root, path, why, whylen);
			err = *fd < 0 ? *fd : 0;
		}
	}
	close(root);
	if (err)
		*fd = -1;
	if (err == -ENOTSOCK || err == -ENOTDIR)
		err = -ENOENT;
	if (err == -EREMOTE)	/* on FUSE: refused, as a permission */
		err = -EPERM;
	return err;
}

int asok_find(const char *proc_root, pid_t pid, int osd_id, int *fd, char *path,
	      size_t size, const char **how)
{
	char why[256];

	return asok_locate(proc_root, pid, osd_id, fd, path, size, how, why, sizeof(why));
}

/* ---- the cluster: its fsid ------------------------------------------------ */

static bool is_uuid(const char *s)
{
	for (int i = 0; i < ASOK_FSID_LEN; i++)
		if (i == 8 || i == 13 || i == 18 || i == 23 ? s[i] != '-' :
		    !isxdigit((unsigned char)s[i]))
			return false;
	return s[ASOK_FSID_LEN] == 0;
}

/* DATA/ceph_fsid inside root (DATA: c's osd_data), into fsid. */
static int read_data_fsid(int root, const struct asok_osd_conf *c, char *fsid, size_t size,
			  char *why, size_t whylen)
{
	char dir[PATH_MAX], file[PATH_MAX + 16], buf[64];
	ssize_t n;
	int err = asok_expand(c->osd_data, c, dir, sizeof(dir));

	if (err || dir[0] != '/') {
		snprintf(why, whylen, "osd data %.200s: %s", c->osd_data,
			 err == -ENAMETOOLONG ? "name too long" : "not expanded to an absolute path");
		return -ENOENT;
	}
	snprintf(file, sizeof(file), "%s/ceph_fsid", dir);
	n = proot_read(root, "ceph_fsid", file, buf, sizeof(buf) - 1, why, whylen);
	if (n < 0)
		return (int)n;
	buf[n] = 0;
	snprintf(fsid, size, "%s", buf);
	return 0;
}

/* c's fsid, trimmed and in lower case, into fsid if it is a UUID. */
static int take_fsid(char *cfsid, char fsid[ASOK_FSID_LEN + 1])
{
	char *f = trim(cfsid);

	for (char *q = f; *q; q++)
		*q = tolower((unsigned char)*q);
	if (!is_uuid(f))
		return -ENOENT;
	memcpy(fsid, f, ASOK_FSID_LEN + 1);
	return 0;
}

int asok_fsid_cmdline(const char *proc_root, pid_t pid, char fsid[ASOK_FSID_LEN + 1])
{
	static struct asok_osd_conf c;
	char why[128];

	fsid[0] = 0;
	if (cmdline_conf(proc_root, pid, -1, &c, why, sizeof(why)))
		return -ENOENT;
	return take_fsid(c.fsid, fsid);
}

int asok_fsid(const char *proc_root, pid_t pid, int osd_id, char fsid[ASOK_FSID_LEN + 1],
	      char *why, size_t whylen)
{
	static struct asok_osd_conf c;
	char file[PATH_MAX];
	int root, err = 0;

	fsid[0] = 0;
	if (cmdline_conf(proc_root, pid, osd_id, &c, why, whylen))
		return -ENOENT;
	root = proot_open(proc_root, pid, why, whylen);
	if (root < 0)
		return -ENOENT;
	if (!c.fsid[0] && !(err = conf_path(proc_root, pid, &c, file, sizeof(file), why, whylen)))
		err = read_conf(root, file, &c, false, false, why, whylen);
	if (!err && !c.fsid[0] && osd_id >= 0) {
		if (!c.osd_data[0])
			snprintf(c.osd_data, sizeof(c.osd_data), "/var/lib/ceph/osd/$cluster-$id");
		err = read_data_fsid(root, &c, c.fsid, sizeof(c.fsid), why, whylen);
	}
	close(root);
	if (err)
		return -ENOENT;
	if (take_fsid(c.fsid, fsid)) {
		snprintf(why, whylen, "its fsid \"%.40s\" is no UUID", c.fsid);
		return -ENOENT;
	}
	return 0;
}
