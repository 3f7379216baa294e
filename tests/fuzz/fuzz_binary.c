// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the path a tenant's file takes in osdhist: a
 * container's "ceph-osd" is opened by root and read by binary_inspect()
 * (libelf, then the offset derivation and its disassembler).  Each input is
 * written to a memfd and inspected through /proc/self/fd/N, exactly as a
 * path under /proc/PID/root would be.
 *
 * FUZZ_VERBOSE=1 in the environment prints the outcome of every input (the
 * test uses it to prove that the seeds pass the whole derivation).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ceph/binary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The outcome, in a form that does not depend on where in the file the code
 * lies: a seed must give the same lines as the binary it was cut from. */
static void print_outcome(size_t size, int ret, const struct osd_binary *b,
			  const char *err)
{
	printf("fuzz_binary: input of %zu bytes\n", size);
	printf("fuzz_binary: %s%s\n", ret ? "refused: " : "accepted", ret ? err : "");
	printf("fuzz_binary: build-id %s, version %s\n", b->build_id, b->version);
	for (int p = 0; p < NR_PROBE_FNS; p++)
		printf("fuzz_binary: probe %s %s\n", ceph_fn_pretty[probe_fn[p]],
		       b->fn_off[p] ? "found" : "absent");
	for (int o = 0; o < NR_OFFS; o++) {
		if (b->have & OFF_BIT(o))
			printf("fuzz_binary: %s = 0x%x  (%s)\n", osd_off_name[o],
			       osd_off_get(&b->offs, o), b->why[o]);
		else
			printf("fuzz_binary: %s unknown: %s\n", osd_off_name[o], b->why[o]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* One memfd for the whole run: a fresh one per input would only add
	 * syscalls.  Its size is set to the input's each time. */
	static int fd = -1;
	static int verbose = -1;
	struct osd_binary b;
	char path[64], err[512] = "";
	size_t done = 0;
	int ret;

	if (fd < 0) {
		fd = memfd_create("fuzz-ceph-osd", MFD_CLOEXEC);
		if (fd < 0) {
			perror("fuzz_binary: memfd_create");
			abort();
		}
		verbose = getenv("FUZZ_VERBOSE") != NULL;
		setvbuf(stdout, NULL, _IOLBF, 0);
	}
	if (ftruncate(fd, 0) || ftruncate(fd, (off_t)size)) {
		perror("fuzz_binary: ftruncate");
		abort();
	}
	while (done < size) {
		ssize_t n = pwrite(fd, data + done, size - done, (off_t)done);

		if (n <= 0) {
			perror("fuzz_binary: pwrite");
			abort();
		}
		done += (size_t)n;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ret = binary_inspect(path, "fuzz-input", &b, err, sizeof(err));
	/* Every refusal must say why: an empty reason is a bug too. */
	if (ret && !err[0]) {
		fprintf(stderr, "fuzz_binary: binary_inspect refused with no reason\n");
		abort();
	}
	if (verbose)
		print_outcome(size, ret, &b, err);
	return 0;
}
