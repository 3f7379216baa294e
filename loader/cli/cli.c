// SPDX-License-Identifier: GPL-2.0
/* Command line: argp, shaped like libbpf-tools' `tool [options] [interval [count]]`. */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output/http.h"
#include "output/render.h"
#include "osdhist.h"
#include "report/names.h"

enum { OPT_OSD = 1000, OPT_NO_SUBOPS, OPT_NO_OP_TYPES, OPT_USAGE, OPT_PHASES,
       OPT_SAMPLE, OPT_DRAIN, OPT_PROMETHEUS, OPT_TEXTFILE, OPT_PROM_BUCKETS,
       OPT_QUIET, OPT_PERF_UPROBES, OPT_NO_VERIFY, OPT_INSPECT, OPT_LIST,
       OPT_SLOWEST, OPT_TABLE, OPT_TEXT, OPT_SORT, OPT_TOP, OPT_HEATMAP };

/* --help's figure for the heatmap's columns */
_Static_assert(HEATMAP_TEXT_COLS == 109, "--heatmap's help says 109 columns");

#define STR_(x) #x
#define STR(x) STR_(x)

static const char doc[] =
"osdhist: latency histograms of Ceph OSD ops, aggregated in the kernel.\n"
"\n"
"Finds every running ceph-osd (and every one that starts later), attaches\n"
"entry uprobes once per ceph-osd binary, and every INTERVAL seconds prints\n"
"per OSD and op class (read, write, rw as Ceph's op_r/op_w/op_rw; error for\n"
"client ops that ended without Ceph counting them; pg for PG ops; subop for\n"
"replica sub-ops) the ops, ops/s, mean, p50/p90/p99/p99.9, max and a\n"
"histogram; then per OSD its op types (the leading op code of each client\n"
"message: read, stat, write, writefull, omap-get-vals, ...; a class method\n"
"call by its name, call rbd.get_size) with count, failed, ops/s, mean and\n"
"p99, and how many ops of each code ran and failed; then per OSD the\n"
"interval's slowest client ops (latency, queue time, class, ops, PG, object\n"
"and client); then the tracer's own health counters.  On a terminal with\n"
"more than " STR(TABLE_AUTO_OSDS) " OSDs, or with --table: one table instead, a row per OSD\n"
"and class; with --top, that table full screen, live; with --heatmap, one\n"
"OSD's latency heatmap.\n"
"\n"
"INTERVAL defaults to 5 seconds (fractions allowed); COUNT to unlimited.\n"
"SIGINT or SIGTERM prints a final snapshot and exits 0; SIGUSR1 prints a\n"
"snapshot at once (the next interval then counts from there).\n"
"Needs root (or CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN for uprobes and\n"
"CAP_SYS_PTRACE for /proc/PID/exe).\n"
"\v"
"Examples:\n"
"  osdhist             # all OSDs, every 5 s, until Ctrl-C\n"
"  osdhist 1 10        # every second, 10 times\n"
"  osdhist --osd 3 -m  # only osd.3, in milliseconds\n"
"  osdhist -j 10       # JSON lines every 10 s (schema in osdhist(8))\n"
"  osdhist --sort p99  # one row per OSD and class, the slowest first\n"
"  osdhist --top 1     # those rows full screen, live (q quits)\n"
"  osdhist --osd 3 --heatmap write 1   # osd.3's write latency over time\n"
"  osdhist --quiet --prometheus 9720   # serve http://127.0.0.1:9720/metrics";

static const char args_doc[] = "[INTERVAL [COUNT]]";

/* Grouped as --help shows them: a header entry opens each group and the
 * entries after it join it (group 0 = the previous entry's group), so an
 * option added below a header lands in that group. */
enum { GRP_TRACING = 1, GRP_OUTPUT = 10, GRP_PROM = 20, GRP_INSPECT = 30 };

static const struct argp_option opts[] = {
	{ NULL, 0, NULL, 0, "Tracing: which OSDs, which ops, how", GRP_TRACING },
	{ "pid", 'p', "PID", 0, "Trace only this ceph-osd process", 0 },
	{ "pool", 'P', NULL, 0, "Key histograms by pool id as well (probes "
	  "OSD::enqueue_op too: 3 hits per client op instead of 2)", 0 },
	{ "phases", OPT_PHASES, NULL, 0,
	  "Also split execute and commit phases (probes submit_transaction "
	  "too: 3 hits per client write instead of 2; reads unchanged)", 0 },
	{ "no-subops", OPT_NO_SUBOPS, NULL, 0,
	  "Do not follow replica sub-ops (class subop)", 0 },
	{ "no-op-types", OPT_NO_OP_TYPES, NULL, 0,
	  "Do not read client ops' op vectors: no per-op-code counts and no "
	  "op-type histograms (saves one memory read per op)", 0 },
	{ "slowest", OPT_SLOWEST, "K", 0,
	  "Name the K slowest client ops of each OSD in every interval: their "
	  "object, PG, client and ops (0 to " STR(SLOW_K_MAX) ", default "
	  STR(SLOW_K_DEFAULT) "; 0 turns it off).  Only ops slower than the "
	  "K-th so far read their names", 0 },
	{ "sample", OPT_SAMPLE, "ON/PERIOD", 0,
	  "Sample in time: ops are recorded when the OSD received them in the "
	  "first ON of every PERIOD (e.g. 1s/10s); probes are detached the rest "
	  "of the time.  With perf-event uprobes (--perf-uprobes, or a kernel "
	  "without uprobe_multi links) each detach stalls an OSD thread for a few ms: there, "
	  "prefer a PERIOD of 10s or more.  Default: trace everything", 0 },
	{ "drain-timeout", OPT_DRAIN, "DURATION", 0,
	  "With --sample: a closed window keeps its probes while its ops keep "
	  "ending (until none has for 100 ms), at most this long (default 2s); "
	  "a drain cut short is counted in the health line", 0 },
	{ "perf-uprobes", OPT_PERF_UPROBES, NULL, 0,
	  "Attach perf-event uprobes instead of uprobe_multi links (what a "
	  "kernel without those links gets anyway); their detach stalls OSD "
	  "threads", 0 },
	{ "no-verify", OPT_NO_VERIFY, NULL, 0,
	  "Do not check osdhist's counts against each OSD's own perf counters "
	  "(perf dump over its admin socket; 8 OSDs a second at most)", 0 },

	{ NULL, 0, NULL, 0, "Output: what is printed on stdout and stderr", GRP_OUTPUT },
	{ "osd", OPT_OSD, "ID", 0, "Show only this OSD id (e.g. 3 for osd.3)", 0 },
	{ "json", 'j', NULL, 0, "One JSON object per line instead of text", 0 },
	{ "table", OPT_TABLE, NULL, 0,
	  "One row per OSD and class every interval, under the health line and "
	  "the self-check's state: ops, ops/s, mean, p50, p90, p99, p99.9, max, "
	  "failed, queue p99, the slowest op and its object.  The default when "
	  "stdout is a terminal and more than " STR(TABLE_AUTO_OSDS) " OSDs are "
	  "traced (not with --osd or -p)", 0 },
	{ "text", OPT_TEXT, NULL, 0,
	  "The text output (histograms, op types, slowest ops) even on a terminal "
	  "with more than " STR(TABLE_AUTO_OSDS) " OSDs", 0 },
	{ "sort", OPT_SORT, "KEY", 0,
	  "Order the table's rows by osd (the default), p99, ops or failed, the "
	  "largest first; implies --table (or with --top: its first order)", 0 },
	{ "top", OPT_TOP, NULL, 0,
	  "The table full screen, redrawn in place every INTERVAL, like top: s "
	  "cycles the sort, p sorts by p99, up/down select a row, Enter shows "
	  "that OSD's histograms, op types and slowest ops, Esc goes back, q "
	  "quits; h shows the selected row's latency heatmap (c cycles its "
	  "class).  Needs a terminal (else use --table)", 0 },
	{ "heatmap", OPT_HEATMAP, "CLASS", 0,
	  "With --osd ID: every INTERVAL, that OSD's latency heatmap of class "
	  "CLASS (read, write, rw, error, pg, subop): a column per interval, "
	  "the newest right, up to 109; a row per latency range, log scale; "
	  "each cell shaded by its ops, from . for one to @ for the fullest "
	  "cell's", 0 },
	{ "timestamp", 'T', NULL, 0, "Print a timestamp with each snapshot", 0 },
	{ "milliseconds", 'm', NULL, 0, "Text output in milliseconds, not microseconds "
	  "(the table gives each latency its unit)", 0 },
	{ "quiet", 'q', NULL, 0,
	  "Print no snapshot on stdout (with --prometheus or --textfile)", 0 },
	{ "verbose", 'v', NULL, 0, "Print libbpf and attach details on stderr "
	  "(with --inspect or --list: every derived offset and its witnesses)", 0 },

	{ NULL, 0, NULL, 0, "Prometheus: cumulative metrics, refreshed every INTERVAL",
	  GRP_PROM },
	{ "prometheus", OPT_PROMETHEUS, "[ADDR:]PORT", 0,
	  "Serve the histograms and health counters at http://ADDR:PORT/metrics "
	  "in Prometheus' text format (ADDR defaults to 127.0.0.1; PORT 0 "
	  "picks a free one).  Limits: "
	  STR(HTTP_PER_ADDR) " connections per client address (all of "
	  "loopback is one), " STR(HTTP_CONNECTIONS) " in all (when full, the "
	  "longest-idle one is closed for a new one), request line and headers "
	  "within " STR(HTTP_REQUEST_S) "s, closed after " STR(HTTP_IDLE_S)
	  "s idle; refusals are counted (osdhist_http_rejected_total).  A non-loopback "
	  "ADDR exposes the metrics, without TLS or authentication, to every "
	  "host that can reach it: firewall it", 0 },
	{ "textfile", OPT_TEXTFILE, "PATH", 0,
	  "Write the same metrics to PATH at every snapshot, atomically, for "
	  "node_exporter's textfile collector (name it *.prom)", 0 },
	{ "prom-buckets", OPT_PROM_BUCKETS, "LIST", 0,
	  "Exported bucket bounds in seconds, comma-separated, increasing, at "
	  "most 64 (default 25us to 10s: 0.000025,0.00005,0.0001,0.00025,...,10)", 0 },

	{ NULL, 0, NULL, 0, "Inspection: report on ceph-osd binaries, then exit",
	  GRP_INSPECT },
	{ "inspect", OPT_INSPECT, "PATH", 0,
	  "Read the ceph-osd binary PATH, print its build-id, Ceph version and "
	  "whether osdhist can trace it (the offsets derived from its code, or "
	  "why not), and exit: 0 traceable, 1 not", 0 },
	{ "list", OPT_LIST, NULL, 0,
	  "List every ceph-osd running on the host (containers too): OSD id, "
	  "pid, Ceph version, build-id, traceable or why not; then exit", 0 },

	/* group -1: argp's own place for these, last */
	{ "help", 'h', NULL, 0, "Show this help and exit", -1 },
	{ "usage", OPT_USAGE, NULL, 0, "Show a short usage message and exit", -1 },
	{ "version", 'V', NULL, 0, "Print the version and exit", -1 },
	{ 0 },
};

static bool reported;	/* our own message is out: argp's error path says nothing more */

static int bad(const char *what, const char *arg, const char *fix)
{
	reported = true;
	fprintf(stderr, "osdhist: invalid %s '%s': %s (see osdhist --help)\n",
		what, arg, fix);
	return EINVAL;
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

double cli_duration(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	if (!strcmp(end, "ms"))
		v /= 1000;
	else if (!strcmp(end, "m"))
		v *= 60;
	else if (*end && strcmp(end, "s"))
		return -1;
	return v;
}

static int parse_sample(const char *arg, struct options *o)
{
	char on[64];
	const char *slash = strchr(arg, '/');

	if (!slash || slash - arg >= (long)sizeof(on))
		return -EINVAL;
	memcpy(on, arg, slash - arg);
	on[slash - arg] = 0;
	o->sample_on = cli_duration(on);
	o->sample_period = cli_duration(slash + 1);
	if (o->sample_on < 0.01 || o->sample_period > 3600 ||
	    o->sample_on >= o->sample_period)
		return -EINVAL;
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct options *o = state->input;
	long v;
	char *end;

	switch (key) {
	case 'p':
		if (parse_long(arg, 1, INT_MAX, &v) < 0)
			return bad("PID", arg, "expected a process id");
		o->pid = v;
		break;
	case OPT_OSD:
		if (parse_long(arg, 0, INT_MAX, &v) < 0)
			return bad("OSD id", arg, "expected a number >= 0, as in osd.N");
		o->osd = v;
		break;
	case 'P': o->pool = true; break;
	case OPT_NO_SUBOPS: o->no_subops = true; break;
	case OPT_NO_OP_TYPES: o->no_op_types = true; break;
	case OPT_PHASES: o->phases = true; break;
	case OPT_SLOWEST:
		if (parse_long(arg, 0, SLOW_K_MAX, &v) < 0)
			return bad("--slowest", arg, "expected a number of ops from 0 "
				   "to " STR(SLOW_K_MAX));
		o->slowest = v;
		break;
	case OPT_SAMPLE:
		if (parse_sample(arg, o) < 0)
			return bad("--sample", arg, "expected ON/PERIOD with "
				   "10ms <= ON < PERIOD <= 1h, e.g. 1s/10s");
		break;
	case OPT_DRAIN:
		o->drain_timeout = cli_duration(arg);
		if (o->drain_timeout < 0.01 || o->drain_timeout > 600)
			return bad("--drain-timeout", arg,
				   "expected a duration from 10ms to 600s");
		break;
	case 'T': o->timestamp = true; break;
	case 'm': o->millis = true; break;
	case 'j': o->json = true; break;
	case OPT_TABLE: o->table = true; break;
	case OPT_TEXT: o->text = true; break;
	case OPT_SORT:
		o->sort = table_sort_parse(arg);
		if (o->sort < 0)
			return bad("--sort", arg, "expected osd, p99, ops or failed");
		o->sorted = true;
		break;
	case OPT_TOP: o->top = true; break;
	case OPT_HEATMAP:
		o->heatmap = -1;
		for (int c = 0; c < NR_CLASSES; c++)
			if (!strcmp(arg, class_name[c]))
				o->heatmap = c;
		if (o->heatmap < 0)
			return bad("--heatmap", arg, "expected a class: read, write, rw, "
				   "error, pg or subop");
		break;
	case 'v': o->verbose = true; break;
	case OPT_PERF_UPROBES: o->perf_uprobes = true; break;
	case OPT_PROMETHEUS:
		if (http_parse_listen(arg, o->prom_host, sizeof(o->prom_host),
				      &o->prom_port) < 0)
			return bad("--prometheus", arg, "expected [ADDR:]PORT, e.g. "
				   "9720, 0.0.0.0:9720 or [::1]:9720");
		o->prometheus = arg;
		break;
	case OPT_TEXTFILE:
		if (!*arg)
			return bad("--textfile", arg, "expected a file name");
		o->textfile = arg;
		break;
	case OPT_PROM_BUCKETS: {
		char why[128];

		if (prom_parse_buckets(arg, &o->buckets, why, sizeof(why)) < 0)
			return bad("--prom-buckets", arg, why);
		break;
	}
	case 'q': o->quiet = true; break;
	case OPT_NO_VERIFY: o->no_verify = true; break;
	case OPT_INSPECT:
		if (!*arg)
			return bad("--inspect", arg, "expected the path of a ceph-osd binary");
		o->inspect = arg;
		break;
	case OPT_LIST: o->list = true; break;
	case 'h':
		/* argp_state_help() is silent under ARGP_NO_ERRS */
		argp_help(state->root_argp, stdout, ARGP_HELP_STD_HELP, state->name);
		o->exit_now = true;
		break;
	case OPT_USAGE:
		argp_help(state->root_argp, stdout, ARGP_HELP_USAGE, state->name);
		o->exit_now = true;
		break;
	case 'V':
		printf("osdhist %s\n", OSDHIST_VERSION);
		o->exit_now = true;
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num == 0) {
			errno = 0;
			o->interval = strtod(arg, &end);
			if (errno || end == arg || *end || !isfinite(o->interval) ||
			    o->interval < 0.01 || o->interval > 86400)
				return bad("interval", arg,
					   "expected seconds between 0.01 and 86400");
		} else if (state->arg_num == 1) {
			if (parse_long(arg, 1, LONG_MAX, &o->count) < 0)
				return bad("count", arg, "expected a whole number >= 1");
		} else {
			reported = true;
			fprintf(stderr, "osdhist: unexpected argument '%s': at most "
				"INTERVAL and COUNT (see osdhist --help)\n", arg);
			return EINVAL;
		}
		break;
	case ARGP_KEY_ERROR:
		/* argp says nothing itself (ARGP_NO_ERRS); an unknown option is
		 * the only error that reaches here without our own message. */
		if (!reported && state->next > 0 && state->next <= state->argc &&
		    state->argv[state->next - 1][0] == '-')
			fprintf(stderr, "osdhist: unrecognized or incomplete option "
				"'%s' (see osdhist --help)\n",
				state->argv[state->next - 1]);
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct options *o)
{
	static const struct argp argp = { opts, parse_opt, args_doc, doc, 0, 0, 0 };
	int err;

	reported = false;
	memset(o, 0, sizeof(*o));
	o->interval = 5;
	o->osd = -1;
	o->drain_timeout = 2;
	o->slowest = SLOW_K_DEFAULT;
	o->sort = TABLE_BY_OSD;
	o->heatmap = -1;
	prom_default_buckets(&o->buckets);
	err = argp_parse(&argp, argc, argv,
			 ARGP_NO_ERRS | ARGP_NO_HELP | ARGP_IN_ORDER, NULL, o);
	if (!err && o->inspect && o->list) {
		fprintf(stderr, "osdhist: --inspect and --list are two different "
			"commands: give one\n");
		return -EINVAL;
	}
	if (!err && !o->exit_now && o->top && (o->json || o->table || o->text || o->quiet)) {
		fprintf(stderr, "osdhist: --top is a screen of its own: give it without "
			"--json, --table, --text or --quiet\n");
		return -EINVAL;
	}
	if (!err && !o->exit_now && o->heatmap >= 0 &&
	    (o->top || o->json || o->table || o->text || o->quiet || o->sorted)) {
		fprintf(stderr, "osdhist: --heatmap is an output of its own: give it without "
			"--top (whose h key shows it), --json, --table, --sort, --text or --quiet\n");
		return -EINVAL;
	}
	if (!err && !o->exit_now && o->heatmap >= 0 && o->osd < 0) {
		fprintf(stderr, "osdhist: --heatmap shows one OSD: give --osd ID too\n");
		return -EINVAL;
	}
	if (o->sorted && !o->top)
		o->table = true;
	if (!err && !o->exit_now && (o->json + o->table + o->text > 1 ||
				     (o->quiet && (o->table || o->text)))) {
		fprintf(stderr, "osdhist: %s are different outputs: give one\n",
			o->quiet ? "--quiet (none on stdout), --table and --text" :
			"--json, --table (or --sort) and --text");
		return -EINVAL;
	}
	if (!err && o->quiet && !o->prometheus && !o->textfile && !o->exit_now) {
		fprintf(stderr, "osdhist: --quiet needs --prometheus or --textfile "
			"(there would be no output at all)\n");
		return -EINVAL;
	}
	return -err;	/* argp_parse's errno: bad() or argp's own */
}
