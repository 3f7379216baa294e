// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for an admin socket's answer: a process that listens
 * where osdhist looks answers whatever it likes, and asok_parse_perf()
 * (json-c) reads it as a perf dump.  The input is given as asok_request()
 * gives its reply: len bytes in a buffer with a NUL after them.
 *
 * FUZZ_VERBOSE=1 prints the outcome (tests/integration/test_fuzz_text.sh
 * uses it on inputs too large for the fuzzer to make).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceph/asok.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ceph_osd_counts c;
	char why[128] = "";
	char *json = malloc(size + 1);
	enum asok_err e;

	if (!json)
		abort();
	memcpy(json, data, size);
	json[size] = 0;
	e = asok_parse_perf(json, size, &c, why, sizeof(why));
	free(json);
	if (getenv("FUZZ_VERBOSE"))
		printf("fuzz_perf: %zu bytes: %s%s\n", size, e ? "refused: " : "accepted",
		       e ? why : "");
	/* a refusal explains itself, and only these two refusals exist */
	if (e != ASOK_OK && (!why[0] || (e != ASOK_GARBAGE && e != ASOK_IO))) {
		fprintf(stderr, "fuzz_perf: refused (%d) with reason \"%s\"\n", e, why);
		abort();
	}
	return 0;
}
