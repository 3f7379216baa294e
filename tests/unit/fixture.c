// SPDX-License-Identifier: GPL-2.0
/* Fake /proc trees for the unit tests (fixture.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "unit.h"
#include "fixture.h"

void fx_mkroot(char *root, const char *tag)
{
	snprintf(root, FX_ROOT_MAX, "/tmp/osdhist-%s-XXXXXX", tag);
	assert_non_null(mkdtemp(root));
}

int fx_remove(const char *root, const char *rel)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s%s%s'", root, rel ? "/" : "", rel ? rel : "");
	return system(cmd) ? -1 : 0;
}

void fx_put(const char *root, const char *rel, const void *data, size_t len)
{
	char path[PATH_MAX], d[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		snprintf(d, sizeof(d), "%.*s", (int)(p - path), path);
		mkdir(d, 0755);
	}
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

static void put_of(const char *root, int pid, const char *name, const char *data, size_t len)
{
	char rel[96];	/* a pid and a name of up to 63 bytes */

	snprintf(rel, sizeof(rel), "%d/%s", pid, name);
	fx_put(root, rel, data, len);
}

void fx_stat(const char *root, int pid, const char *comm, char state)
{
	char stat[128], rel[64];

	snprintf(stat, sizeof(stat), "%d (%s) %c 1 2 3", pid, comm, state);
	snprintf(rel, sizeof(rel), "task/%d/stat", pid);
	put_of(root, pid, rel, stat, strlen(stat));
}

void fx_proc(const char *root, int pid, const char *comm, const char *cmdline,
	     size_t len, char state, const char *exe)
{
	char path[PATH_MAX], line[64];

	snprintf(line, sizeof(line), "%s\n", comm);
	put_of(root, pid, "comm", line, strlen(line));
	put_of(root, pid, "cmdline", cmdline, len);
	fx_stat(root, pid, comm, state);
	snprintf(path, sizeof(path), "%s/%d/exe", root, pid);
	assert_int_equal(symlink(exe, path), 0);
}
