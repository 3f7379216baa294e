// SPDX-License-Identifier: GPL-2.0
/* The admin socket protocol client against in-process servers, its framing,
 * perf dump parsing, and socket discovery on a fixture /proc tree whose OSD
 * has a root of its own (a chroot or container). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include "unit.h"
#include "fixture.h"
#include "ceph/asok.h"
#include "ceph/asok_find.h"
#include "ceph/proot.h"

static const char perf[] =
	"{\"osd\":{\"op_wip\":0,\"op\":10,\"op_r\":7,\"op_w\":2,\"op_rw\":1,"
	"\"op_r_latency\":{\"avgcount\":7,\"sum\":0.01,\"avgtime\":0.001},"
	"\"subop_w\":5}}";

static void framing(void **state)
{
	char buf[64];
	unsigned char hdr[4] = { 0, 0, 0x12, 0x34 }, big[4] = { 0x74, 0x68, 0x69, 0x73 };

	(void)state;
	assert_int_equal(asok_frame_request("{\"prefix\":\"0\"}", buf, sizeof(buf)), 15);
	assert_int_equal(buf[14], 0);	/* the NUL ends the command */
	assert_int_equal(asok_frame_request("{\"a\":\n1}", buf, sizeof(buf)), 0);
	assert_int_equal(asok_frame_request("0123456789", buf, 10), 0);	/* no room for NUL */
	assert_true(asok_reply_length(hdr, ASOK_MAX_REPLY) == 0x1234);
	/* "this..." as a length: far above any answer, garbage */
	assert_true(asok_reply_length(big, ASOK_MAX_REPLY) == -EMSGSIZE);
}

static void parse_perf(void **state)
{
	struct ceph_osd_counts c;
	char why[128];

	(void)state;
	assert_int_equal(asok_parse_perf(perf, strlen(perf), &c, why, sizeof(why)), ASOK_OK);
	assert_true(c.op_r == 7 && c.op_w == 2 && c.op_rw == 1 && c.subop_w == 5);
	assert_int_equal(asok_parse_perf("{not json", 9, &c, why, sizeof(why)), ASOK_GARBAGE);
	assert_int_equal(asok_parse_perf("ERROR: (22) Invalid argument\n", 29, &c, why,
					 sizeof(why)), ASOK_GARBAGE);
	assert_non_null(strstr(why, "ERROR: (22)"));
	assert_int_equal(asok_parse_perf("{\"mon\":{}}", 10, &c, why, sizeof(why)), ASOK_GARBAGE);
	assert_int_equal(asok_parse_perf("{\"osd\":{\"op_r\":\"7\"}}", 20, &c, why,
					 sizeof(why)), ASOK_GARBAGE);
	/* a truncated answer is not parsed as far as it goes */
	assert_int_equal(asok_parse_perf(perf, strlen(perf) - 2, &c, why, sizeof(why)),
			 ASOK_GARBAGE);
}

/* ---- in-process servers ---- */

enum mode { M_GOOD, M_HANG, M_GARBAGE, M_SHORT, M_HUGE, M_TOGETHER };

struct server {
	int fd;
	enum mode mode;
	int release;		/* M_HANG, M_HUGE: read end of a pipe, EOF once the client returned */
	pthread_barrier_t *all;	/* M_TOGETHER: every server has its request */
	char got[256];		/* the request as received, up to its NUL */
	size_t gotlen;
};

static void *serve(void *arg)
{
	struct server *s = arg;
	int c = accept(s->fd, NULL, NULL);
	uint32_t len = htonl(sizeof(perf) - 1);

	if (c < 0)
		return NULL;
	while (s->gotlen < sizeof(s->got)) {
		ssize_t n = read(c, s->got + s->gotlen, 1);

		if (n <= 0 || s->got[s->gotlen++] == 0)
			break;
	}
	switch (s->mode) {
	case M_TOGETHER:	/* answers once every server has a request */
		pthread_barrier_wait(s->all);
		/* fall through */
	case M_GOOD:	/* the length and the body in two writes, as Ceph does */
		(void)!write(c, &len, 4);
		usleep(10000);
		(void)!write(c, perf, sizeof(perf) - 1);
		break;
	case M_HUGE:	/* a 16 MiB answer announced, then nothing */
		len = htonl(16u << 20);
		(void)!write(c, &len, 4);
		/* fall through */
	case M_HANG:	/* answers nothing until the test lets it go */
		{
			char b;

			while (read(s->release, &b, 1) > 0)
				;
		}
		break;
	case M_GARBAGE:
		(void)!write(c, "hello, not the protocol\n", 24);
		break;
	case M_SHORT:	/* promises more than it sends, then closes */
		(void)!write(c, &len, 4);
		(void)!write(c, perf, 10);
		break;
	}
	close(c);
	return NULL;
}

static char dir[FX_ROOT_MAX];

static void listen_at(struct server *s, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char rel[PATH_MAX], cwd[PATH_MAX];

	s->fd = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(s->fd >= 0);
	/* bind through a relative name: path may be longer than sun_path */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(rel, sizeof(rel), "%s", path);
	*strrchr(rel, '/') = 0;
	assert_int_equal(chdir(rel), 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", strrchr(path, '/') + 1);
	assert_int_equal(bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(listen(s->fd, 4), 0);
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* The time allowed: 200 ms against the server that never answers (the
 * timeout is what is tested there); 10 s against the others, whose answer,
 * or lack of one, must come whatever the load (a server thread not run for
 * 200 ms on a busy machine is no bug of the client). */
#define HANG_MS 200
#define ANSWER_MS 10000

/* asok_request() through an O_PATH descriptor of path, as asok_find() gives */
static enum asok_err request_at(const char *path, int ms, char **out, size_t *len, char *why)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	enum asok_err e;

	assert_true(fd >= 0);
	e = asok_request(fd, ASOK_PERF_CMD, ms, out, len, why, 128);
	close(fd);
	return e;
}

static enum asok_err ask(const char *path, enum mode mode, char **out, size_t *len,
			 char *why, double *ms)
{
	struct server s = { .mode = mode };
	struct timespec t0;
	pthread_t th;
	enum asok_err e;
	int rel[2];

	assert_int_equal(pipe(rel), 0);
	s.release = rel[0];
	unlink(path);
	listen_at(&s, path);
	assert_int_equal(pthread_create(&th, NULL, serve, &s), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	e = request_at(path, mode == M_HANG ? HANG_MS : ANSWER_MS, out, len, why);
	*ms = ms_since(&t0);
	close(rel[1]);	/* only now may the hanging server let go */
	pthread_join(th, NULL);
	close(rel[0]);
	close(s.fd);
	unlink(path);
	if (mode == M_GOOD) {	/* what Ceph's server reads: the JSON, then NUL */
		assert_int_equal(s.gotlen, strlen(ASOK_PERF_CMD) + 1);
		assert_string_equal(s.got, ASOK_PERF_CMD);
	}
	return e;
}

static void client(void **state)
{
	char path[PATH_MAX], why[128], *out;
	size_t len;
	double ms;

	(void)state;
	snprintf(path, sizeof(path), "%s/ceph-osd.3.asok", dir);
	assert_int_equal(ask(path, M_GOOD, &out, &len, why, &ms), ASOK_OK);
	assert_int_equal(len, sizeof(perf) - 1);
	assert_string_equal(out, perf);
	free(out);

	/* The server holds the connection open without a byte until the client
	 * has returned: only the client's own deadline can end the request.
	 * >= 200 ms, exactly: it gives up only once CLOCK_MONOTONIC, the clock
	 * measured here, has passed the deadline (wait_fd loops until then);
	 * < 5000 ms: one wait bounded by that deadline (a client waiting per
	 * read, or in seconds, would take 25 times as long or hang), with
	 * 4.8 s left for a loaded machine to run this thread again. */
	assert_int_equal(ask(path, M_HANG, &out, &len, why, &ms), ASOK_TIMEOUT);
	assert_null(out);
	assert_true(ms >= HANG_MS && ms < 5000);
	assert_int_equal(ask(path, M_GARBAGE, &out, &len, why, &ms), ASOK_GARBAGE);
	assert_int_equal(ask(path, M_SHORT, &out, &len, why, &ms), ASOK_GARBAGE);
	/* above ASOK_MAX_REPLY: garbage from the header alone, not a wait
	 * for a body that would then be refused (or parsed) */
	assert_int_equal(ask(path, M_HUGE, &out, &len, why, &ms), ASOK_GARBAGE);
	assert_non_null(strstr(why, "16777216 bytes is above"));

	/* nobody there: the socket file is left, its listener closed */
	{
		struct server s = { .mode = M_GOOD };

		listen_at(&s, path);
		close(s.fd);
		assert_int_equal(request_at(path, 200, &out, &len, why), ASOK_NO_SOCKET);
		unlink(path);
	}
}

/* Requests in flight together (the verifier's round): each server answers
 * only once all of them have their request, so a client that did them one
 * after the other would get none within the deadline. */
#define NTOGETHER 4
static void calls_together(void **state)
{
	struct server s[NTOGETHER];
	struct asok_call c[NTOGETHER];
	pthread_t th[NTOGETHER];
	pthread_barrier_t all;
	char path[NTOGETHER][PATH_MAX];
	int fd[NTOGETHER];
	struct timespec t0;

	(void)state;
	assert_int_equal(pthread_barrier_init(&all, NULL, NTOGETHER), 0);
	for (int i = 0; i < NTOGETHER; i++) {
		s[i] = (struct server){ .mode = M_TOGETHER, .all = &all };
		snprintf(path[i], sizeof(path[i]), "%s/ceph-osd.%d.asok", dir, 10 + i);
		listen_at(&s[i], path[i]);
		fd[i] = open(path[i], O_PATH | O_CLOEXEC);
		assert_true(fd[i] >= 0);
		assert_int_equal(pthread_create(&th[i], NULL, serve, &s[i]), 0);
		asok_call_start(&c[i], fd[i], ASOK_PERF_CMD);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (bool done = false; !done && ms_since(&t0) < ANSWER_MS;) {
		struct pollfd p[NTOGETHER];
		int n = 0;

		for (int i = 0; i < NTOGETHER; i++)
			if (asok_call_events(&c[i]))
				p[n++] = (struct pollfd){ .fd = c[i].s, .events = asok_call_events(&c[i]) };
		poll(p, n, 100);
		done = true;
		for (int i = 0; i < NTOGETHER; i++)
			done &= asok_call_step(&c[i]);
	}
	for (int i = 0; i < NTOGETHER; i++) {
		asok_call_expire(&c[i]);
		assert_int_equal(c[i].err, ASOK_OK);
		assert_int_equal(c[i].len, sizeof(perf) - 1);
		assert_string_equal(c[i].buf, perf);
		asok_call_end(&c[i]);
		assert_null(c[i].buf);
		assert_int_equal(c[i].s, -1);
		pthread_join(th[i], NULL);
		close(s[i].fd);
		close(fd[i]);
		unlink(path[i]);
	}
	pthread_barrier_destroy(&all);
}

/* A socket path longer than sun_path's 108 bytes (a deep chroot). */
static void client_long_path(void **state)
{
	char deep[256], path[PATH_MAX], why[128], *out;
	size_t len;
	double ms;

	(void)state;
	snprintf(deep, sizeof(deep), "%s/%0120d", dir, 0);
	assert_int_equal(mkdir(deep, 0755), 0);
	snprintf(path, sizeof(path), "%s/ceph-osd.3.asok", deep);
	assert_true(strlen(path) > sizeof(((struct sockaddr_un *)0)->sun_path));
	assert_int_equal(ask(path, M_GOOD, &out, &len, why, &ms), ASOK_OK);
	free(out);
	rmdir(deep);
}

/* ---- discovery on a fixture: PROC/PID/{cmdline,root/...} ---- */

static void sock_at(const char *rel, struct server *s)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fx_put(dir, rel, "", 0);	/* makes the directories */
	unlink(path);
	listen_at(s, path);
}

/* fd (from asok_find) is the socket at rel, and is closed. */
static void same_inode(int fd, const char *rel)
{
	char path[PATH_MAX];
	struct stat a, b;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &a), 0);
	assert_int_equal(stat(path, &b), 0);
	assert_true(a.st_dev == b.st_dev && a.st_ino == b.st_ino);
	close(fd);
}

static void find_from_config(void **state)
{
	static const char cmd1[] = "/usr/bin/ceph-osd\0-f\0--cluster\0ceph\0--id\0003\0";
	static const char cmd2[] = "ceph-osd\0-c\0/etc/ceph/x.conf\0-i\0007\0";
	static const char cmd3[] = "ceph-osd\0-i\0009\0--admin_socket=/s/$name.sock\0";
	static const char conf2[] =
		"[global]\n run dir = /g  # where\n"
		"[osd]\n admin socket = /o/$cluster-$name.asok\n"
		"[osd.7]\n\tadmin_socket = ${run_dir}/seven-$id.asok\n"
		"[osd.8]\n admin socket = /nope\n";
	char path[PATH_MAX], want[PATH_MAX];
	struct server s1, s2, s3;
	const char *how;
	int fd;

	(void)state;
	/* pid 100: no config file, Ceph's default under the OSD's own root */
	fx_put(dir, "proc/100/cmdline", cmd1, sizeof(cmd1) - 1);
	sock_at("proc/100/root/var/run/ceph/ceph-osd.3.asok", &s1);
	snprintf(path, sizeof(path), "%s/proc", dir);
	{
		char small[16];

		assert_int_equal(asok_find(path, 100, 3, &fd, small, sizeof(small), &how),
				 -ENAMETOOLONG);
		assert_int_equal(fd, -1);
	}
	{
		char got[PATH_MAX];

		assert_int_equal(asok_find(path, 100, 3, &fd, got, sizeof(got), &how), 0);
		assert_string_equal(got, "/var/run/ceph/ceph-osd.3.asok");
		assert_string_equal(how, "config");
		same_inode(fd, "proc/100/root/var/run/ceph/ceph-osd.3.asok");
	}
	/* pid 200: -c file, [osd.7] over [osd], $run_dir from [global] */
	fx_put(dir, "proc/200/cmdline", cmd2, sizeof(cmd2) - 1);
	fx_put(dir, "proc/200/root/etc/ceph/x.conf", conf2, sizeof(conf2) - 1);
	sock_at("proc/200/root/g/seven-7.asok", &s2);
	{
		char got[PATH_MAX];

		assert_int_equal(asok_find(path, 200, 7, &fd, got, sizeof(got), &how), 0);
		assert_string_equal(got, "/g/seven-7.asok");
		same_inode(fd, "proc/200/root/g/seven-7.asok");
		/* osd.7's file is gone: ENOENT, not another guess */
		snprintf(want, sizeof(want), "%s/proc/200/root/g/seven-7.asok", dir);
		unlink(want);
		assert_int_equal(asok_find(path, 200, 7, &fd, got, sizeof(got), &how), -ENOENT);
	}
	/* pid 300: --admin_socket=... on the command line wins */
	fx_put(dir, "proc/300/cmdline", cmd3, sizeof(cmd3) - 1);
	sock_at("proc/300/root/s/osd.9.sock", &s3);
	{
		char got[PATH_MAX];

		assert_int_equal(asok_find(path, 300, 9, &fd, got, sizeof(got), &how), 0);
		assert_string_equal(got, "/s/osd.9.sock");
		same_inode(fd, "proc/300/root/s/osd.9.sock");
		/* no OSD id: no $name, nothing guessed */
		assert_int_equal(asok_find(path, 300, -1, &fd, got, sizeof(got), &how), -ENOENT);
	}
	close(s1.fd);
	close(s2.fd);
	close(s3.fd);
}

/* The cluster's fsid, as Ceph finds it: --fsid, else the config, else the
 * data directory's ceph_fsid; only a UUID, and nothing read that blocks. */
static void find_fsid(void **state)
{
	static const char cmd0[] = "ceph-osd\0--fsid=0A0B0C0D-1111-4222-8333-444455556666\0-i\0001\0";
	static const char cmd1[] = "ceph-osd\0-c\0/etc/ceph/y.conf\0-i\0004\0";
	static const char conf1[] = "[global]\n fsid = 11111111-2222-4333-8444-555555555555\n"
				    "[mon]\n fsid = not-this-one\n";
	static const char cmd2[] = "ceph-osd\0-i\0005\0";
	static const char cmd3[] = "ceph-osd\0-i\0006\0--osd-data\0/d/$cluster-$id\0";
	char path[PATH_MAX], fsid[ASOK_FSID_LEN + 1], why[256], fifo[PATH_MAX];

	(void)state;
	snprintf(path, sizeof(path), "%s/proc", dir);
	fx_put(dir, "proc/400/cmdline", cmd0, sizeof(cmd0) - 1);
	fx_put(dir, "proc/400/root/.keep", "", 0);
	assert_int_equal(asok_fsid(path, 400, 1, fsid, why, sizeof(why)), 0);
	assert_string_equal(fsid, "0a0b0c0d-1111-4222-8333-444455556666");
	assert_int_equal(asok_fsid_cmdline(path, 400, fsid), 0);
	assert_string_equal(fsid, "0a0b0c0d-1111-4222-8333-444455556666");

	fx_put(dir, "proc/401/cmdline", cmd1, sizeof(cmd1) - 1);
	fx_put(dir, "proc/401/root/etc/ceph/y.conf", conf1, sizeof(conf1) - 1);
	assert_int_equal(asok_fsid(path, 401, 4, fsid, why, sizeof(why)), 0);
	assert_string_equal(fsid, "11111111-2222-4333-8444-555555555555");
	assert_int_equal(asok_fsid_cmdline(path, 401, fsid), -ENOENT);	/* not read there */

	fx_put(dir, "proc/402/cmdline", cmd2, sizeof(cmd2) - 1);
	fx_put(dir, "proc/402/root/var/lib/ceph/osd/ceph-5/ceph_fsid",
	       CMD("99999999-8888-4777-8666-555555555555\n"));
	assert_int_equal(asok_fsid(path, 402, 5, fsid, why, sizeof(why)), 0);
	assert_string_equal(fsid, "99999999-8888-4777-8666-555555555555");

	/* --osd-data names the directory; what it holds is no UUID */
	fx_put(dir, "proc/403/cmdline", cmd3, sizeof(cmd3) - 1);
	fx_put(dir, "proc/403/root/d/ceph-6/ceph_fsid", CMD("hello"));
	assert_int_equal(asok_fsid(path, 403, 6, fsid, why, sizeof(why)), -ENOENT);
	assert_string_equal(fsid, "");
	assert_non_null(strstr(why, "no UUID"));

	/* a FIFO there: refused, never opened for reading (would block) */
	fx_put(dir, "proc/404/cmdline", cmd2, sizeof(cmd2) - 1);
	fx_put(dir, "proc/404/root/var/lib/ceph/osd/.keep", "", 0);
	snprintf(fifo, sizeof(fifo), "%s/proc/404/root/var/lib/ceph/osd/ceph-5", dir);
	assert_int_equal(mkdir(fifo, 0755), 0);
	strcat(fifo, "/ceph_fsid");
	assert_int_equal(mkfifo(fifo, 0644), 0);
	assert_int_equal(asok_fsid(path, 404, 5, fsid, why, sizeof(why)), -ENOENT);
	assert_string_equal(fsid, "");
}

/* ---- hostile roots: what a process plants in its root (issue 23) ---- */

static void link_at(const char *rel, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	unlink(path);	/* not through an old link */
	fx_put(dir, rel, "", 0);	/* makes the directories */
	unlink(path);
	assert_int_equal(symlink(target, path), 0);
}

/* asok_locate on fixture pid, with its reason; bounded in time by alarm():
 * a blocking open (a FIFO with no writer) would hang the test, so SIGALRM
 * ends it, failed, instead. */
static int locate(pid_t pid, int id, int *fd, char *got, char *why)
{
	char proc[PATH_MAX];
	const char *how;
	int r;

	snprintf(proc, sizeof(proc), "%s/proc", dir);
	why[0] = 0;
	alarm(20);
	r = asok_locate(proc, pid, id, fd, got, PATH_MAX, &how, why, 256);
	alarm(0);
	if (r)
		assert_int_equal(*fd, -1);
	return r;
}

#define CONF(sock) "[osd]\n admin socket = " sock "\n"

static void find_inside_root(void **state)
{
	static const char cmd_c[] = "ceph-osd\0--id\0" "4\0-c\0/etc/ceph/ceph.conf\0";
	static const char cmd_dots[] = "ceph-osd\0--id\0" "4\0--conf=/../../../out.conf\0";
	static const char cmd_asok[] = "ceph-osd\0--id\0" "4\0--admin-socket\0/../../x.asok\0";
	static const char cmd_rel[] = "ceph-osd\0--id\0" "4\0-c\0../../../../../../out.conf\0";
	static const char cmd_def[] = "ceph-osd\0--id\0" "5\0";
	char got[PATH_MAX], why[256], abs_out[PATH_MAX], target[PATH_MAX];
	struct server in1, in2, in3, host;
	int fd;

	(void)state;
	/* an absolute symlink to a config outside the root: resolved inside
	 * it, where the same path holds another config */
	snprintf(abs_out, sizeof(abs_out), "%s/outside/ceph.conf", dir);
	fx_put(dir, "outside/ceph.conf", CONF("/host.asok"), strlen(CONF("/host.asok")));
	fx_put(dir, "proc/400/cmdline", cmd_c, sizeof(cmd_c) - 1);
	link_at("proc/400/root/etc/ceph/ceph.conf", abs_out);
	snprintf(target, sizeof(target), "proc/400/root%.200s", abs_out);
	fx_put(dir, target, CONF("/in-root.asok"), strlen(CONF("/in-root.asok")));
	sock_at("proc/400/root/in-root.asok", &in1);
	assert_int_equal(locate(400, 4, &fd, got, why), 0);
	assert_string_equal(got, "/in-root.asok");
	same_inode(fd, "proc/400/root/in-root.asok");

	/* ".." above the root in -c stays at the root */
	fx_put(dir, "proc/out.conf", CONF("/host.asok"), strlen(CONF("/host.asok")));
	fx_put(dir, "out.conf", CONF("/host.asok"), strlen(CONF("/host.asok")));
	fx_put(dir, "proc/401/cmdline", cmd_dots, sizeof(cmd_dots) - 1);
	fx_put(dir, "proc/401/root/out.conf", CONF("/in-root.asok"), strlen(CONF("/in-root.asok")));
	sock_at("proc/401/root/in-root.asok", &in2);
	assert_int_equal(locate(401, 4, &fd, got, why), 0);
	assert_string_equal(got, "/in-root.asok");
	same_inode(fd, "proc/401/root/in-root.asok");

	/* ".." in --admin-socket: DIR/proc/x.asok on the host is a socket,
	 * the one inside the root is the one opened */
	sock_at("proc/x.asok", &host);
	fx_put(dir, "proc/402/cmdline", cmd_asok, sizeof(cmd_asok) - 1);
	sock_at("proc/402/root/x.asok", &in3);
	assert_int_equal(locate(402, 4, &fd, got, why), 0);
	same_inode(fd, "proc/402/root/x.asok");

	/* a relative -c climbs from the cwd, and stops at the root */
	fx_put(dir, "proc/403/cmdline", cmd_rel, sizeof(cmd_rel) - 1);
	snprintf(target, sizeof(target), "%s/proc/403/root/var/lib/ceph", dir);
	fx_put(dir, "proc/403/root/var/lib/ceph/keep", "", 0);
	link_at("proc/403/cwd", target);
	fx_put(dir, "proc/403/root/out.conf", CONF("/in-root.asok"), strlen(CONF("/in-root.asok")));
	/* its socket: an absolute link to a listening socket on the host */
	snprintf(target, sizeof(target), "%s/proc/402/root/x.asok", dir);
	link_at("proc/403/root/in-root.asok", target);
	assert_int_equal(locate(403, 4, &fd, got, why), -ENOENT);
	assert_non_null(strstr(why, "/in-root.asok"));
	/* the same, cwd outside the root (chroot without chdir): not read */
	snprintf(target, sizeof(target), "%s/outside", dir);
	link_at("proc/403/cwd", target);
	assert_int_equal(locate(403, 4, &fd, got, why), -EXDEV);
	assert_non_null(strstr(why, "outside the process's root"));

	/* the default socket name, a symlink to a listening socket on the
	 * host: nothing of that name inside the root, nothing opened */
	fx_put(dir, "proc/405/cmdline", cmd_def, sizeof(cmd_def) - 1);
	snprintf(target, sizeof(target), "%s/proc/x.asok", dir);
	link_at("proc/405/root/var/run/ceph/ceph-osd.5.asok", target);
	assert_int_equal(locate(405, 5, &fd, got, why), -ENOENT);
	assert_non_null(strstr(why, "/var/run/ceph/ceph-osd.5.asok"));
	close(in1.fd);
	close(in2.fd);
	close(in3.fd);
	close(host.fd);
}

/* A config that is a FIFO (no writer: a blocking open would never return)
 * or a character device (/dev/zero: a read would never end): refused at
 * once from the object itself, with its kind in the reason. */
static void find_conf_not_regular(void **state)
{
	static const char cmd[] = "ceph-osd\0--id\0" "6\0";
	static const char cmd_zero[] = "ceph-osd\0--id\0" "6\0-c\0/dev/zero\0";
	char got[PATH_MAX], why[256], path[PATH_MAX];
	struct timespec t0;
	int fd;

	(void)state;
	fx_put(dir, "proc/500/cmdline", cmd, sizeof(cmd) - 1);
	fx_put(dir, "proc/500/root/etc/ceph/keep", "", 0);
	snprintf(path, sizeof(path), "%s/proc/500/root/etc/ceph/ceph.conf", dir);
	assert_int_equal(mkfifo(path, 0644), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(locate(500, 6, &fd, got, why), -EINVAL);
	assert_string_equal(why, "config /etc/ceph/ceph.conf is not a regular file (fifo)");
	/* the root of pid 501 is the real "/", whose /dev/zero is a device */
	fx_put(dir, "proc/501/cmdline", cmd_zero, sizeof(cmd_zero) - 1);
	link_at("proc/501/root", "/");
	assert_int_equal(locate(501, 6, &fd, got, why), -EINVAL);
	assert_string_equal(why, "config /dev/zero is not a regular file (character device)");
	/* "at once": 10 s is what no loaded machine takes for two opens;
	 * a read of /dev/zero to the 256 KiB cap would pass, so the reason
	 * above is the check that nothing was read */
	assert_true(ms_since(&t0) < 10000);
}

/* Found among the sockets it listens on (PROC/PID/fd and net/unix), and a
 * name forged for its socket's inode by another socket's name, whose
 * newline makes a second line: neither name is taken, the config decides. */
static void find_listening(void **state)
{
	static const char cmd[] = "ceph-osd\0--id\0" "6\0";
	static const char real[] =
		"Num       RefCount Protocol Flags    Type St Inode Path\n"
		"0000000000000000: 00000002 00000000 00010000 0001 01 777 /run/real.asok\n";
	static const char forged[] =
		"Num       RefCount Protocol Flags    Type St Inode Path\n"
		"0000000000000000: 00000002 00000000 00010000 0001 01 777 /run/real\n"
		"0000000000000000: 00000002 00000000 00010000 0001 01 888 /x\n"
		"0000000000000000: 00000002 00000000 00010000 0001 01 777 /run/evil.asok\n";
	char got[PATH_MAX], why[256];
	struct server s1, s2, s3;
	const char *how;
	char proc[PATH_MAX];
	int fd;

	(void)state;
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	fx_put(dir, "proc/600/cmdline", cmd, sizeof(cmd) - 1);
	link_at("proc/600/fd/3", "socket:[777]");
	fx_put(dir, "proc/600/net/unix", real, sizeof(real) - 1);
	sock_at("proc/600/root/run/real.asok", &s1);
	sock_at("proc/600/root/run/evil.asok", &s2);
	sock_at("proc/600/root/var/run/ceph/ceph-osd.6.asok", &s3);
	assert_int_equal(asok_locate(proc, 600, 6, &fd, got, sizeof(got), &how, why,
				     sizeof(why)), 0);
	assert_string_equal(how, "listening");
	assert_string_equal(got, "/run/real.asok");
	same_inode(fd, "proc/600/root/run/real.asok");
	fx_put(dir, "proc/600/net/unix", forged, sizeof(forged) - 1);
	assert_int_equal(asok_locate(proc, 600, 6, &fd, got, sizeof(got), &how, why,
				     sizeof(why)), 0);
	assert_string_equal(how, "config");
	assert_string_equal(got, "/var/run/ceph/ceph-osd.6.asok");
	same_inode(fd, "proc/600/root/var/run/ceph/ceph-osd.6.asok");
	close(s1.fd);
	close(s2.fd);
	close(s3.fd);
}

/* A kernel without openat2 (before 5.6), made with a seccomp filter in a
 * child: every lookup fails closed, with one reason, and nothing is opened
 * the old way (pid 100's socket exists: a fallback would find it). */
static void find_without_openat2(void **state)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };
	int status;
	pid_t child;

	(void)state;
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		char proc[PATH_MAX], got[PATH_MAX], why[256];
		const char *how;
		int fd, r;

		snprintf(proc, sizeof(proc), "%s/proc", dir);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(2);
		r = asok_locate(proc, 100, 3, &fd, got, sizeof(got), &how, why, sizeof(why));
		_exit(r == -ENOSYS && fd == -1 &&
		      !strncmp(why, "openat2 not available: ", 23) ? 0 : 1);
	}
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void cwd_rel(void **state)
{
	char out[PATH_MAX];

	(void)state;
	assert_int_equal(proot_cwd_rel("/", "/var/lib", "c.conf", out, sizeof(out)), 0);
	assert_string_equal(out, "/var/lib/c.conf");
	assert_int_equal(proot_cwd_rel("/a/b", "/a/b", "c", out, sizeof(out)), 0);
	assert_string_equal(out, "/c");
	assert_int_equal(proot_cwd_rel("/a/b", "/a/b/d", "../c", out, sizeof(out)), 0);
	assert_string_equal(out, "/d/../c");	/* ".." is the resolver's: IN_ROOT */
	assert_int_equal(proot_cwd_rel("/a/b", "/a/bc", "c", out, sizeof(out)), -EXDEV);
	assert_int_equal(proot_cwd_rel("/a/b", "/", "c", out, sizeof(out)), -EXDEV);
	assert_int_equal(proot_cwd_rel("/", "(unreachable)/x", "c", out, sizeof(out)), -EXDEV);
	assert_int_equal(proot_cwd_rel("/", "/x", "c", out, 4), -ENAMETOOLONG);
}

static int setup(void **state)
{
	(void)state;
	fx_mkroot(dir, "unit-asok");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fx_remove(dir, NULL);
}

int run_asok_tests(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(framing),
		cmocka_unit_test(parse_perf),
		cmocka_unit_test(client),
		cmocka_unit_test(client_long_path),
		cmocka_unit_test(calls_together),
		cmocka_unit_test(find_from_config),
		cmocka_unit_test(find_fsid),
		cmocka_unit_test(find_inside_root),
		cmocka_unit_test(find_conf_not_regular),
		cmocka_unit_test(find_listening),
		cmocka_unit_test(find_without_openat2),
		cmocka_unit_test(cwd_rel),
	};
	return cmocka_run_group_tests_name("asok", tests, setup, teardown);
}
