// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for a process's command line: anything named ceph-osd
 * chooses its own, and osdhist takes the OSD id from it (procs_osd_id) and
 * the admin socket, config, cluster and run dir (asok_cmdline_parse).
 *
 * The two have different contracts, and each gets exactly its own:
 * asok_cmdline_parse takes len bytes with no NUL promised after them (an
 * exact-size copy, so ASan sees any read past the end); procs_osd_id is
 * given what procs_inspect() gives it, the bytes read and a NUL after them.
 *
 * FUZZ_VERBOSE=1 prints what was found (tests/integration/test_fuzz_text.sh
 * uses it on inputs too large for the fuzzer to make).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ceph/asok_find.h"
#include "ceph/procs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_str(const char *s, size_t size, const char *what)
{
	if (strnlen(s, size) >= size) {
		fprintf(stderr, "fuzz_cmdline: %s without its NUL\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct asok_osd_conf c;
	char *cmd = malloc(size + 1);
	int id;

	if (!cmd)
		abort();
	memcpy(cmd, data, size);
	cmd[size] = 0;
	id = procs_osd_id(cmd, size);
	if (id < -1 || id > 1000000) {
		fprintf(stderr, "fuzz_cmdline: procs_osd_id gave %d\n", id);
		abort();
	}
	free(cmd);

	cmd = malloc(size ? size : 1);
	if (!cmd)
		abort();
	memcpy(cmd, data, size);
	memset(&c, 0, sizeof(c));
	asok_cmdline_parse(cmd, size, &c);
	free(cmd);
	check_str(c.admin_socket, sizeof(c.admin_socket), "admin_socket");
	check_str(c.conf, sizeof(c.conf), "conf");
	check_str(c.cluster, sizeof(c.cluster), "cluster");
	check_str(c.run_dir, sizeof(c.run_dir), "run_dir");
	if (getenv("FUZZ_VERBOSE"))
		printf("fuzz_cmdline: %zu bytes: id %d, admin_socket \"%.80s\", conf \"%.80s\"\n",
		       size, id, c.admin_socket, c.conf);
	return 0;
}
