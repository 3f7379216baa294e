// SPDX-License-Identifier: GPL-2.0
/* A ceph-osd's admin socket: where it is, and one bounded request to it. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <json-c/json.h>

#include "asok.h"

const char *const asok_err_name[NR_ASOK_ERRS] = {
	[ASOK_OK] = "ok",
	[ASOK_NO_SOCKET] = "no socket",
	[ASOK_PERMISSION] = "permission",
	[ASOK_TIMEOUT] = "timeout",
	[ASOK_GARBAGE] = "garbage",
	[ASOK_IO] = "error",
};

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

static int from_listening(const char *proc_root, pid_t pid, char *path, size_t size)
{
	unsigned long *inos = NULL;
	char file[PATH_MAX], line[PATH_MAX + 128], best[PATH_MAX] = "";
	int n = socket_inodes(proc_root, pid, &inos);
	FILE *f;

	if (n <= 0) {
		free(inos);
		return n ? n : -ENOENT;
	}
	snprintf(file, sizeof(file), "%s/%d/net/unix", proc_root, pid);
	f = fopen(file, "re");
	if (!f) {
		free(inos);
		return -errno;
	}
	/* Num RefCount Protocol Flags Type St Inode Path */
	while (fgets(line, sizeof(line), f)) {
		unsigned int flags, type;
		unsigned long ino;
		char name[PATH_MAX];
		size_t len;

		if (sscanf(line, "%*s %*x %*x %x %x %*x %lu %4095s", &flags, &type,
			   &ino, name) != 4)
			continue;
		if (!(flags & UNIX_LISTENING) || type != SOCK_STREAM || name[0] != '/' ||
		    !bsearch(&ino, inos, n, sizeof(*inos), cmp_ino))
			continue;
		/* only a .asok: a socket configured under another name is
		 * found from the config, never guessed among other listeners */
		len = strlen(name);
		if (len > 5 && !strcmp(name + len - 5, ".asok")) {
			snprintf(best, sizeof(best), "%s", name);
			break;
		}
	}
	fclose(f);
	free(inos);
	if (!best[0])
		return -ENOENT;
	if (snprintf(path, size, "%s/%d/root%s", proc_root, pid, best) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* ---- 2. the command line and the config --------------------------------- */

struct osd_conf {
	char cluster[64];
	char conf[PATH_MAX];		/* as the OSD names it */
	char admin_socket[PATH_MAX];	/* unexpanded */
	char run_dir[PATH_MAX];
	int id;
	pid_t pid;
};

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

/* Fills admin_socket and run_dir from the config file at file (a path seen
 * from here), where the command line set neither. */
static void read_conf(const char *file, struct osd_conf *c, bool want_asok, bool want_run)
{
	int asok_rank = 0, run_rank = 0, rank = 0;
	char line[PATH_MAX + 256], sec[128] = "";
	FILE *f = fopen(file, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *eq, *key, *val;

		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			char *e = strchr(s, ']');

			if (e) {
				*e = 0;
				snprintf(sec, sizeof(sec), "%s", trim(s + 1));
				norm_key(sec);
				/* "osd_3" after norm_key: Ceph's section is osd.3 */
				for (char *p = sec; *p; p++)
					if (*p == '_' && !strncmp(sec, "osd", 3) && p == sec + 3)
						*p = '.';
				rank = section_rank(sec, c->id);
			}
			continue;
		}
		eq = strchr(s, '=');
		if (!eq || !rank)
			continue;
		*eq = 0;
		key = trim(s);
		val = trim(eq + 1);
		for (char *p = val; *p; p++)	/* a trailing comment */
			if ((*p == '#' || *p == ';') && (p == val || isspace((unsigned char)p[-1]))) {
				*p = 0;
				val = trim(val);
				break;
			}
		if (*val == '"' && strlen(val) > 1 && val[strlen(val) - 1] == '"') {
			val[strlen(val) - 1] = 0;
			val++;
		}
		norm_key(key);
		if (want_asok && !strcmp(key, "admin_socket") && rank >= asok_rank) {
			snprintf(c->admin_socket, sizeof(c->admin_socket), "%s", val);
			asok_rank = rank;
		} else if (want_run && !strcmp(key, "run_dir") && rank >= run_rank) {
			snprintf(c->run_dir, sizeof(c->run_dir), "%s", val);
			run_rank = rank;
		}
	}
	fclose(f);
}

/* $cluster, $type, $id, $name, $pid, $run_dir (also as ${...}). */
static int expand(const char *in, const struct osd_conf *c, char *out, size_t size, int depth)
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

static ssize_t read_cmdline(const char *proc_root, pid_t pid, char *buf, size_t size)
{
	char file[PATH_MAX];
	ssize_t n, total = 0;
	int fd;

	snprintf(file, sizeof(file), "%s/%d/cmdline", proc_root, pid);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < size - 1 && (n = read(fd, buf + total, size - 1 - total)) > 0)
		total += n;
	close(fd);
	buf[total] = 0;
	return total;
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

static int from_config(const char *proc_root, pid_t pid, int osd_id, char *path, size_t size)
{
	char cmd[16384], file[PATH_MAX], rel[PATH_MAX];
	struct osd_conf c = { .cluster = "ceph", .id = osd_id, .pid = pid };
	ssize_t len = read_cmdline(proc_root, pid, cmd, sizeof(cmd));
	const char *a, *end;
	struct stat st;
	int err;

	if (len < 0)
		return len;
	if (osd_id < 0)
		return -ENOENT;	/* $name unknown: no default to build */
	end = cmd + len;
	for (a = cmd; a < end; a += strlen(a) + 1) {
		const char *next = a + strlen(a) + 1 < end ? a + strlen(a) + 1 : "";
		const char *v;
		bool took;

		if ((v = opt_val(a, next, "--admin-socket", &took)))
			snprintf(c.admin_socket, sizeof(c.admin_socket), "%s", v);
		else if ((v = opt_val(a, next, "--conf", &took)))
			snprintf(c.conf, sizeof(c.conf), "%s", v);
		else if (!strcmp(a, "-c") && (took = true))
			snprintf(c.conf, sizeof(c.conf), "%s", next);
		else if ((v = opt_val(a, next, "--cluster", &took)))
			snprintf(c.cluster, sizeof(c.cluster), "%s", v);
		else if ((v = opt_val(a, next, "--run-dir", &took)))
			snprintf(c.run_dir, sizeof(c.run_dir), "%s", v);
		else
			continue;
		if (took && next[0])
			a = next;
	}
	if (!c.admin_socket[0] || !c.run_dir[0]) {
		bool want_asok = !c.admin_socket[0], want_run = !c.run_dir[0];

		if (!c.conf[0])
			snprintf(c.conf, sizeof(c.conf), "/etc/ceph/%s.conf", c.cluster);
		/* Ceph takes a list of config files; the first one is read */
		c.conf[strcspn(c.conf, ", ")] = 0;
		/* relative: to the OSD's working directory */
		if (snprintf(file, sizeof(file), "%s/%d/%s%s", proc_root, pid,
			     c.conf[0] == '/' ? "root" : "cwd/", c.conf) < (int)sizeof(file))
			read_conf(file, &c, want_asok, want_run);
	}
	if (!c.run_dir[0])
		snprintf(c.run_dir, sizeof(c.run_dir), "/var/run/ceph");
	if (!c.admin_socket[0])
		snprintf(c.admin_socket, sizeof(c.admin_socket), "$run_dir/$cluster-$name.asok");
	err = expand(c.admin_socket, &c, rel, sizeof(rel), 0);
	if (err)
		return err == -EINVAL ? -ENOENT : err;
	if (rel[0] != '/')
		return -ENOENT;	/* relative to what the daemon had as cwd: not guessed */
	if (snprintf(path, size, "%s/%d/root%s", proc_root, pid, rel) >= (int)size)
		return -ENAMETOOLONG;
	if (stat(path, &st))
		return -errno;
	return S_ISSOCK(st.st_mode) ? 0 : -ENOTSOCK;
}

int asok_find(const char *proc_root, pid_t pid, int osd_id, char *path,
	      size_t size, const char **how)
{
	int err = from_listening(proc_root, pid, path, size);

	if (!err) {
		*how = "listening";
		return 0;
	}
	*how = "config";
	err = from_config(proc_root, pid, osd_id, path, size);
	if (err == -ENOTSOCK || err == -ENOTDIR)
		err = -ENOENT;
	return err;
}

/* ---- the protocol -------------------------------------------------------- */

size_t asok_frame_request(const char *cmd, char *buf, size_t size)
{
	size_t n = strlen(cmd);

	if (n + 1 > size || strchr(cmd, '\n'))
		return 0;
	memcpy(buf, cmd, n + 1);	/* the NUL ends the command */
	return n + 1;
}

int64_t asok_reply_length(const unsigned char hdr[4], uint32_t max)
{
	uint32_t be;

	memcpy(&be, hdr, 4);
	return ntohl(be) > max ? -1 : (int64_t)ntohl(be);
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Waits for events on fd until the deadline: 1 ready, 0 timed out, -errno. */
static int wait_fd(int fd, short events, double deadline)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		double left = deadline - now_ms();
		int r;

		if (left <= 0)
			return 0;
		r = poll(&p, 1, (int)left + 1);
		if (r > 0)
			return 1;
		if (r < 0 && errno != EINTR)
			return -errno;
	}
}

static enum asok_err sys_err(int e, const char *what, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: %s", what, strerror(e));
	if (e == ENOENT || e == ECONNREFUSED || e == ENOTDIR || e == ENOTSOCK)
		return ASOK_NO_SOCKET;
	if (e == EACCES || e == EPERM)
		return ASOK_PERMISSION;
	return ASOK_IO;
}

/*
 * connect() to a path of any length: sun_path holds 108 bytes, a socket
 * under /proc/PID/root/<a test's temp dir> can be longer.  The directory is
 * opened with O_PATH and the socket named through /proc/self/fd/N/, which
 * the kernel resolves like the full path (permissions included).
 */
static enum asok_err connect_path(int s, const char *path, char *why, size_t whylen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	int dfd = -1, r;

	if (strlen(path) < sizeof(sa.sun_path)) {
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	} else {
		if (!slash || slash == path || (size_t)(slash - path) >= sizeof(dir))
			return sys_err(ENAMETOOLONG, "socket path", why, whylen);
		memcpy(dir, path, slash - path);
		dir[slash - path] = 0;
		dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return sys_err(errno, "open socket dir", why, whylen);
		if (snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s",
			     dfd, slash + 1) >= (int)sizeof(sa.sun_path)) {
			close(dfd);
			return sys_err(ENAMETOOLONG, "socket name", why, whylen);
		}
	}
	r = connect(s, (struct sockaddr *)&sa, sizeof(sa));
	if (r && errno == EAGAIN) {	/* the listen backlog is full */
		snprintf(why, whylen, "connect: backlog full (daemon not accepting)");
		r = ASOK_TIMEOUT;
	} else if (r) {
		r = sys_err(errno, "connect", why, whylen);
	}
	if (dfd >= 0)
		close(dfd);
	return r;
}

/* Reads exactly len bytes before the deadline. */
static enum asok_err read_all(int s, char *buf, size_t len, double deadline,
			      const char *what, char *why, size_t whylen)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(s, buf + got, len - got, MSG_DONTWAIT);
		int w;

		if (n > 0) {
			got += n;
			continue;
		}
		if (n == 0) {
			snprintf(why, whylen, "connection closed after %zu of %zu %s bytes",
				 got, len, what);
			return ASOK_GARBAGE;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return sys_err(errno, "recv", why, whylen);
		w = wait_fd(s, POLLIN, deadline);
		if (w < 0)
			return sys_err(-w, "poll", why, whylen);
		if (w == 0) {
			snprintf(why, whylen, "no %s within the time allowed (%zu of %zu bytes)",
				 what, got, len);
			return ASOK_TIMEOUT;
		}
	}
	return ASOK_OK;
}

enum asok_err asok_request(const char *path, const char *cmd, int timeout_ms,
			   char **out, size_t *outlen, char *why, size_t whylen)
{
	double deadline = now_ms() + timeout_ms;
	unsigned char hdr[4];
	char req[1024];
	size_t reqlen = asok_frame_request(cmd, req, sizeof(req)), sent = 0;
	char *buf = NULL;
	int64_t len;
	enum asok_err e;
	int s;

	*out = NULL;
	*outlen = 0;
	why[0] = 0;
	if (!reqlen) {
		snprintf(why, whylen, "command too long");
		return ASOK_IO;
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s < 0)
		return sys_err(errno, "socket", why, whylen);
	e = connect_path(s, path, why, whylen);
	while (!e && sent < reqlen) {
		ssize_t n = send(s, req + sent, reqlen - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
		int w;

		if (n >= 0) {
			sent += n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN) {
			e = sys_err(errno, "send", why, whylen);
			break;
		}
		w = wait_fd(s, POLLOUT, deadline);
		if (w <= 0) {
			snprintf(why, whylen, "could not send the command in time");
			e = w ? ASOK_IO : ASOK_TIMEOUT;
		}
	}
	if (!e)
		e = read_all(s, (char *)hdr, 4, deadline, "answer", why, whylen);
	if (!e) {
		len = asok_reply_length(hdr, ASOK_MAX_REPLY);
		if (len < 0) {
			snprintf(why, whylen, "answer length header %02x%02x%02x%02x is above %u",
				 hdr[0], hdr[1], hdr[2], hdr[3], ASOK_MAX_REPLY);
			e = ASOK_GARBAGE;
		} else if (!(buf = malloc(len + 1))) {
			e = sys_err(ENOMEM, "malloc", why, whylen);
		} else {
			e = read_all(s, buf, len, deadline, "answer body", why, whylen);
			buf[len] = 0;
		}
	}
	close(s);
	if (e) {
		free(buf);
		return e;
	}
	*out = buf;
	*outlen = len;
	return ASOK_OK;
}

/* ---- perf dump ------------------------------------------------------------ */

static bool get_u64(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
		return false;
	*v = json_object_get_uint64(x);
	return true;
}

enum asok_err asok_parse_perf(const char *json, size_t len,
			      struct ceph_osd_counts *c, char *why, size_t whylen)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *root, *osd;
	enum asok_err e = ASOK_GARBAGE;

	if (!tok) {
		snprintf(why, whylen, "out of memory");
		return ASOK_IO;
	}
	root = json_tokener_parse_ex(tok, json, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		/* a newer Ceph answers a failed command with "ERROR: ..." */
		snprintf(why, whylen, "answer is not JSON: %.40s", json);
		for (char *p = why; *p; p++)
			if (*p == '\n' || (unsigned char)*p < 0x20)
				*p = ' ';
	} else if (!json_object_object_get_ex(root, "osd", &osd) ||
		   !json_object_is_type(osd, json_type_object)) {
		snprintf(why, whylen, "answer has no \"osd\" counters");
	} else if (!get_u64(osd, "op_r", &c->op_r) || !get_u64(osd, "op_w", &c->op_w) ||
		   !get_u64(osd, "op_rw", &c->op_rw) || !get_u64(osd, "subop_w", &c->subop_w)) {
		snprintf(why, whylen, "answer lacks osd.op_r/op_w/op_rw/subop_w");
	} else {
		e = ASOK_OK;
	}
	if (root)
		json_object_put(root);
	json_tokener_free(tok);
	return e;
}
