// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for a ceph.conf as a process offers it: osdhist, as
 * root, reads the config file an OSD names (inside the OSD's root) and
 * takes admin_socket and run_dir from it, then expands the metavariables.
 * The bytes are the process's to choose, so asok_conf_parse() gets them
 * exactly as read (not NUL-terminated, any length), and asok_expand() gets
 * what the parser made of them.
 *
 * FUZZ_VERBOSE=1 prints what was found (tests/integration/test_fuzz_text.sh
 * uses it on inputs too large for the fuzzer to make).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceph/asok_find.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* out must be a string that fits, or the call must have failed. */
static void expand_checked(const char *in, const struct asok_osd_conf *c, size_t size)
{
	char out[PATH_MAX];
	int err = asok_expand(in, c, out, size);

	if (!err && strnlen(out, size) >= size) {
		fprintf(stderr, "fuzz_conf: asok_expand: result overruns its buffer\n");
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct asok_conf_vals v;
	static struct asok_osd_conf c;
	/* the id picks which [osd.N] section counts: let the input choose,
	 * from its first byte, among the ids a short input can spell */
	int id = size ? data[0] % 16 : 0;

	/* an exact-size copy: ASan then sees any read past the end */
	char *text = malloc(size ? size : 1);

	if (!text)
		abort();
	memcpy(text, data, size);
	asok_conf_parse(text, size, id, &v);
	free(text);
	if (strnlen(v.admin_socket, sizeof(v.admin_socket)) >= sizeof(v.admin_socket) ||
	    strnlen(v.run_dir, sizeof(v.run_dir)) >= sizeof(v.run_dir)) {
		fprintf(stderr, "fuzz_conf: asok_conf_parse: a value without its NUL\n");
		abort();
	}
	memset(&c, 0, sizeof(c));
	snprintf(c.cluster, sizeof(c.cluster), "ceph");
	c.id = id;
	c.pid = 4242;
	memcpy(c.run_dir, v.run_dir, sizeof(c.run_dir));
	/* $run_dir expands the config's own run_dir: both values, at full
	 * size and in a buffer too small for most */
	expand_checked(v.admin_socket, &c, PATH_MAX);
	expand_checked(v.admin_socket, &c, 24);
	expand_checked(v.run_dir, &c, PATH_MAX);
	if (getenv("FUZZ_VERBOSE"))
		printf("fuzz_conf: %zu bytes: admin_socket \"%.80s\", run_dir \"%.80s\"\n",
		       size, v.admin_socket, v.run_dir);
	return 0;
}
