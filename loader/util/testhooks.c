// SPDX-License-Identifier: GPL-2.0
/* Test-only faults (see testhooks.h).  The normal build compiles this file
 * to an empty function: no environment variable can change what it does. */
#include "testhooks.h"

#ifdef OSDHIST_TEST_HOOKS
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* every field of struct osd_offsets (maps/osdhist.h's rows) */
#define F(id, name, need) { #name, offsetof(struct osd_offsets, name) },
static const struct {
	const char *name;
	size_t off;
} fields[] = { OSDHIST_OFFSETS(F) };
#undef F

void testhook_offsets(struct osd_offsets *o)
{
	const char *spec = getenv("OSDHIST_TEST_OFFSETS");
	size_t n;
	char *end;
	long d;

	if (!spec || !*spec)
		return;
	n = strcspn(spec, "+-");
	d = strtol(spec + n, &end, 0);
	if (!spec[n] || *end || end == spec + n + 1) {
		fprintf(stderr, "osdhist: TEST HOOK: OSDHIST_TEST_OFFSETS='%s' is not "
			"FIELD+N or FIELD-N; ignored\n", spec);
		return;
	}
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		__u32 *f = (__u32 *)((char *)o + fields[i].off);

		if (strlen(fields[i].name) != n || strncmp(spec, fields[i].name, n))
			continue;
		fprintf(stderr, "osdhist: TEST HOOK: offset %s moved from %#x to %#lx "
			"(OSDHIST_TEST_OFFSETS)\n", fields[i].name, *f, *f + d);
		*f += d;
		return;
	}
	fprintf(stderr, "osdhist: TEST HOOK: no offset named '%.*s' in struct "
		"osd_offsets; ignored\n", (int)n, spec);
}

void testhook_features(bool *have, const char *const *names, int n)
{
	const char *spec = getenv("OSDHIST_TEST_NO_FEATURES");

	while (spec && *spec) {
		size_t len = strcspn(spec, ",");
		int i;

		for (i = 0; i < n; i++)
			if (strlen(names[i]) == len && !strncmp(spec, names[i], len))
				break;
		if (i < n)
			have[i] = false;
		else if (len)
			fprintf(stderr, "osdhist: TEST HOOK: no kernel feature named "
				"'%.*s' (OSDHIST_TEST_NO_FEATURES); ignored\n",
				(int)len, spec);
		spec += len + !!spec[len];
	}
}

const char *testhook_kernel_release(const char *real)
{
	const char *fake = getenv("OSDHIST_TEST_KERNEL");

	return fake && *fake ? fake : real;
}

/* A count in environment variable name, lo to hi: true and *n, or false
 * (unset; or out of range, said if say). */
static bool env_count(const char *name, unsigned long lo, unsigned long hi, bool say,
		      unsigned long *n)
{
	const char *spec = getenv(name);
	char *end;

	if (!spec || !*spec)
		return false;
	*n = strtoul(spec, &end, 10);
	if (!*end && *n >= lo && *n <= hi)
		return true;
	if (say)
		fprintf(stderr, "osdhist: TEST HOOK: %s='%s' is not %lu..%lu; ignored\n",
			name, spec, lo, hi);
	return false;
}

__u32 testhook_mark_ways(__u32 real)
{
	unsigned long n;

	if (!env_count("OSDHIST_TEST_MARK_WAYS", 0, real, true, &n))
		return real;
	fprintf(stderr, "osdhist: TEST HOOK: %lu of %u ways of each mark set "
		"(OSDHIST_TEST_MARK_WAYS)\n", n, real);
	return n;
}

int testhook_pid_errno(int real)
{
	static const struct { const char *name; int err; } errs[] = {
		{ "EACCES", EACCES }, { "EPERM", EPERM }, { "EIO", EIO },
		{ "EAGAIN", EAGAIN },
	};
	static unsigned long calls;
	const char *spec = getenv("OSDHIST_TEST_PID_ERRNO");
	const char *colon = spec ? strchr(spec, ':') : NULL;

	calls++;
	if (!colon || calls < strtoul(colon + 1, NULL, 10))
		return real;
	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (strlen(errs[i].name) == (size_t)(colon - spec) &&
		    !strncmp(spec, errs[i].name, colon - spec))
			return -errs[i].err;
	return real;
}

size_t testhook_dead_keys(size_t real)
{
	unsigned long n;

	return env_count("OSDHIST_TEST_DEAD_KEYS", 0, real, false, &n) ? n : real;
}

__u32 testhook_front_rows(__u32 real)
{
	unsigned long n;

	if (!env_count("OSDHIST_TEST_FRONT_ROWS", 1, real, true, &n))
		return real;
	fprintf(stderr, "osdhist: TEST HOOK: %lu front rows (OSDHIST_TEST_FRONT_ROWS)\n", n);
	return n;
}

bool testhook_no_proc_events(void)
{
	const char *v = getenv("OSDHIST_TEST_NO_PROC_EVENTS");

	if (!v || strcmp(v, "1"))
		return false;
	fprintf(stderr, "osdhist: TEST HOOK: no process events, every rescan "
		"walks /proc (OSDHIST_TEST_NO_PROC_EVENTS)\n");
	return true;
}

double testhook_proc_walk_s(double real)
{
	unsigned long n;

	if (!env_count("OSDHIST_TEST_PROC_WALK_S", 1, 86400, true, &n))
		return real;
	fprintf(stderr, "osdhist: TEST HOOK: /proc walked at least every %lu s "
		"(OSDHIST_TEST_PROC_WALK_S)\n", n);
	return n;
}
#else
void testhook_offsets(struct osd_offsets *o)
{
	(void)o;
}

void testhook_features(bool *have, const char *const *names, int n)
{
	(void)have;
	(void)names;
	(void)n;
}

const char *testhook_kernel_release(const char *real)
{
	return real;
}

__u32 testhook_mark_ways(__u32 real)
{
	return real;
}

int testhook_pid_errno(int real)
{
	return real;
}

size_t testhook_dead_keys(size_t real)
{
	return real;
}

__u32 testhook_front_rows(__u32 real)
{
	return real;
}
bool testhook_no_proc_events(void)
{
	return false;
}

double testhook_proc_walk_s(double real)
{
	return real;
}
#endif
