// SPDX-License-Identifier: GPL-2.0
/*
 * osdhist --inspect and --list: what osdhist makes of a ceph-osd binary, or
 * of every one running on the host, without loading any of bpf/ (the
 * kernel line's feature probes load and close tiny programs of their
 * own).  The offsets are derived exactly as for tracing (binary_inspect),
 * so what these print is what a trace would use.  Every string that comes
 * from a process or its binary (paths, socket names, versions, build-ids,
 * derivation notes, refusals quoting them) is printed through ESC(): one
 * process, one line, whatever bytes it chose.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>

#include "ceph/asok.h"
#include "ceph/asok_find.h"
#include "util/escape.h"
#include "kfeatures.h"
#include "claims.h"
#include "report/clusters.h"
#include "list.h"
#include "readers.h"
#include "ceph/procs.h"
#include "util/testhooks.h"


void list_print_offsets(FILE *f, const struct osd_binary *b)
{
	for (int o = 0; o < NR_OFFS; o++) {
		if (b->have & OFF_BIT(o))
			fprintf(f, "  %s = 0x%x  (witnesses: %s)\n", osd_off_name[o],
				osd_off_get(&b->offs, o), ESC(b->why[o]));
		else
			fprintf(f, "  %s = none  (%s)\n", osd_off_name[o],
				b->why[o][0] ? ESC(b->why[o]) : "not derived");
	}
}

/* ", arm64": the architecture of b's code, when its ELF header was read. */
static void print_arch(const struct osd_binary *b)
{
	if (binary_arch_name(b))
		printf(", %s", binary_arch_name(b));
}

/* ", without -P (sp_spg: ...)" for each optional feature the binary lacks. */
static void print_features(FILE *f, const struct osd_binary *b)
{
	char why[512];

	for (int i = 0; i < NR_FEATS; i++)
		if (binary_lacks(b, i, why, sizeof(why)))
			fprintf(f, "; without %s (%s)", osd_feature_name[i], ESC(why));
}

/* Which variant of bpf/ a trace would load here, and why: the kernel's
 * answer to every feature probe (loads and unloads the probes' own tiny
 * programs, nothing of bpf/).  The release is shown, for the reader only:
 * it decides nothing. */
static void print_kernel(FILE *f, bool perf_uprobes)
{
	struct kfeatures kf;
	struct utsname u;
	struct variant v;
	int m;

	fprintf(f, "kernel %s: ", testhook_kernel_release(uname(&u) ? "?" : u.release));
	kfeatures_probe(&kf);
	if (!kf.probed) {
		fprintf(f, "features not probed (no privilege to load a BPF "
			"program)\n");
		return;
	}
	m = kfeatures_missing(&kf);
	v = kfeatures_variant(&kf, perf_uprobes);
	if (m >= 0)
		fprintf(f, "cannot trace: it lacks %s;", kfeature_what[m]);
	else
		fprintf(f, "clock %s, op scan %s, uprobes %s%s;", v.clock, v.scan,
			v.uprobes, perf_uprobes ? " (--perf-uprobes)" : "");
	fprintf(f, " feature probes:");
	for (int i = 0; i < NR_KFEATURES; i++)
		fprintf(f, " %s %s", kfeature_name[i], kf.have[i] ? "yes" : "no");
	fprintf(f, "\n");
}

int list_inspect(const char *path, bool verbose, bool perf_uprobes)
{
	struct osd_binary b;
	char err[1024];
	char foreign[512] = "";
	int r = binary_inspect(path, path, &b, err, sizeof(err));

	if (r >= 0)	/* b.arch is read: another host's binary? */
		binary_foreign(&b, ESC(path), foreign, sizeof(foreign));
	printf("%s: build-id %s, Ceph %s", ESC(path), ESC(b.build_id), ESC(b.version));
	print_arch(&b);
	printf(": %s", r < 0 ? "not traceable" : foreign[0] ?
	       "derived here, traceable by an osdhist built for it" : "traceable");
	if (r >= 0)
		print_features(stdout, &b);
	printf("\n");
	if (foreign[0])
		printf("%s\n", foreign);
	if (verbose && b.why[0][0])
		list_print_offsets(stdout, &b);
	if (verbose)
		print_kernel(stdout, perf_uprobes);
	fflush(stdout);
	if (r < 0)
		fprintf(stderr, "osdhist: %s\n", ESC(err));
	return r;
}

struct seen {
	dev_t dev;
	ino_t ino;
	int ok;
	struct osd_binary b;
	char err[1024];
};

/* The admin socket osdhist's own check will read, as --list's last word;
 * looked for in a job (readers.h), as the check does: a stalled mount in
 * the process's root does not hold --list. */
static void print_socket(const struct osd_proc *p)
{
	struct socket_req req = { PROC_ROOT, p->pid, p->osd_id };
	static struct socket_ans a;
	int fds[JOB_FDS], nfds;
	ssize_t n = reader_run(find_socket, &req, &a, sizeof(a), fds, &nfds, READ_CONFIG_S);

	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	if (n == -ETIMEDOUT)
		printf("; admin socket: not found (its config or socket did not answer "
		       "within %.0f s: a stalled mount in its root?)", READ_CONFIG_S);
	else if (n != (ssize_t)sizeof(a))
		printf("; admin socket: not looked for (%s)", strerror(n < 0 ? (int)-n : EIO));
	else if (a.err)
		printf("; admin socket: none found (%s)", ESC(a.why[0] ? a.why : strerror(-a.err)));
	else
		printf("; admin socket %s (%s)", ESC(a.path), ESC(a.how));
}

/* What --list has inspected, by binary: each distinct binary once while
 * there is room; past it each further process's binary is inspected anew
 * (bounded per file, binary.h), never skipped: fakes must not hide an OSD. */
struct list_ctx {
	bool verbose;		/* -v: every offset of each binary */
	struct seen seen[MAX_BINARIES * 4];
	int nseen;
	struct seen spare;
	struct claimant {	/* the first pass's claims */
		pid_t pid;
		int key;	/* clusters.h */
		bool forked;	/* the daemon of a daemonizing start */
	} *claims;
	size_t nclaims, claims_cap;
};

/* p's OSD, its cluster read as a trace reads it (in a reader). */
static int cluster_key(const struct osd_proc *p)
{
	struct fsid_req req = { PROC_ROOT, p->pid, p->osd_id };
	char fsid[ASOK_FSID_LEN + 1] = "";

	if (asok_fsid_cmdline(PROC_ROOT, p->pid, fsid) &&
	    reader_run(read_fsid, &req, fsid, sizeof(fsid), NULL, NULL,
		       READ_CONFIG_S) != ASOK_FSID_LEN + 1)
		fsid[0] = 0;
	fsid[ASOK_FSID_LEN] = 0;
	return osd_key(cluster_index(fsid), p->osd_id);
}

/* Its cluster, and what else claims its OSD, in the words of the trace. */
static void print_claim(const struct list_ctx *c, const struct osd_proc *p)
{
	const struct claimant *a = NULL;
	int n;

	for (size_t i = 0; i < c->nclaims && !a; i++)
		if (c->claims[i].pid == p->pid)
			a = &c->claims[i];
	if (!a)
		return;
	if (cluster_fsid(osd_cluster_of(a->key))[0])
		printf("; cluster %s", cluster_fsid(osd_cluster_of(a->key)));
	if (a->forked) {
		printf("; forked by pid %d, which claims osd.%d too: a daemonizing "
		       "start, one OSD", p->ppid, p->osd_id);
		return;
	}
	n = claims_of(a->key);
	if (n > 1)
		printf("; duplicate: %d processes claim osd.%d%s", n, p->osd_id,
		       osd_cluster_of(a->key) ? " of this cluster" : "");
}

/* p's binary inspected in a job (readers.h), as a trace does. */
static bool inspect(const struct osd_proc *p, const char *where, struct seen *s)
{
	struct binary_req req = { p->exe, where };
	static struct binary_ans a;
	int fds[JOB_FDS], nfds;
	ssize_t n = reader_run(read_binary, &req, &a, sizeof(a), fds, &nfds, READ_BINARY_S);

	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	memset(&s->b, 0, sizeof(s->b));
	s->b.arch = NR_ST_ARCHS;	/* not read, unless the job answers */
	if (n == -ETIMEDOUT) {
		snprintf(s->err, sizeof(s->err), "its binary did not answer within %.0f s "
			 "(a stalled mount in its root?)", READ_BINARY_S);
		return false;
	}
	if (n != (ssize_t)sizeof(a)) {
		snprintf(s->err, sizeof(s->err), "not inspected: %s",
			 strerror(n < 0 ? (int)-n : EIO));
		return false;
	}
	s->b = a.ob;
	snprintf(s->err, sizeof(s->err), "%s", a.err);
	return a.rc == 0;
}

static bool list_one(const struct osd_proc *p, void *arg)
{
	struct list_ctx *c = arg;
	struct seen *s = NULL;
	char where[4096];

	for (int j = 0; j < c->nseen && !s; j++)
		if (c->seen[j].dev == p->dev && c->seen[j].ino == p->ino)
			s = &c->seen[j];
	procs_exe_where(p, where, sizeof(where));
	if (p->unsupported) {	/* crimson-osd: named, not inspected */
		printf("osd.");
		p->osd_id >= 0 ? printf("%d", p->osd_id) : printf("?");
		printf(" pid %d: not traceable: %s is %s\n", p->pid,
		       ESC(where), ESC(p->unsupported));
		return true;
	}
	if (!s) {
		s = c->nseen < (int)(sizeof(c->seen) / sizeof(c->seen[0])) ?
			&c->seen[c->nseen++] : &c->spare;
		s->dev = p->dev;
		s->ino = p->ino;
		s->ok = inspect(p, where, s);
	}
	if (p->osd_id >= 0)
		printf("osd.%d", p->osd_id);
	else
		printf("osd.?");
	printf(" pid %d Ceph %s build-id %s", p->pid, ESC(s->b.version), ESC(s->b.build_id));
	print_arch(&s->b);
	printf(": ");
	if (s->ok) {
		printf("traceable");
		print_features(stdout, &s->b);
	} else {
		printf("not traceable: %s", ESC(s->err));
	}
	print_claim(c, p);
	print_socket(p);
	printf("\n");
	if (c->verbose && s->b.why[0][0])
		list_print_offsets(stdout, &s->b);
	return true;
}

/* The first pass: who claims which OSD (cluster and id), as a trace
 * counts it. */
static bool note_claim(const struct osd_proc *p, void *arg)
{
	struct list_ctx *c = arg;
	struct claimant *a;

	if (p->osd_id < 0 || p->unsupported)
		return true;
	if (c->nclaims == c->claims_cap) {
		size_t cap = c->claims_cap ? 2 * c->claims_cap : 64;
		void *q = realloc(c->claims, cap * sizeof(*c->claims));

		if (!q)
			return true;	/* not said, as if not claimed */
		c->claims = q;
		c->claims_cap = cap;
	}
	a = &c->claims[c->nclaims++];
	a->pid = p->pid;
	a->key = cluster_key(p);
	a->forked = procs_forked_from(PROC_ROOT, p);
	return true;
}

/* Every OSD process on the host, however many (procs_each keeps none). */
int list_osds(bool verbose, bool perf_uprobes)
{
	static struct list_ctx c;
	int n;

	c.verbose = verbose;
	print_kernel(stdout, perf_uprobes);
	fflush(stdout);
	claims_reset();
	procs_each(PROC_ROOT, note_claim, &c);
	for (size_t i = 0; i < c.nclaims; i++)
		if (!c.claims[i].forked)
			claims_add(c.claims[i].key);
	n = procs_each(PROC_ROOT, list_one, &c);
	free(c.claims);
	if (n < 0) {
		fprintf(stderr, "osdhist: cannot scan /proc: %s\n", strerror(-n));
		return n;
	}
	if (!n)
		printf("no ceph-osd running\n");
	return 0;
}
