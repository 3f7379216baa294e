/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_UNIT_FIXTURE_H
#define OSDHIST_UNIT_FIXTURE_H

/*
 * Fake /proc trees, and process roots inside them, in a temp dir: for the
 * tests of what reads /proc (procs, the proc table, the done marks'
 * reaping, the admin socket's discovery).  A step that fails fails the
 * test (cmocka asserts).
 */
#include <stddef.h>

/* short: the paths built on a root fit PATH_MAX */
#define FX_ROOT_MAX 64

/* A fresh temp dir, /tmp/osdhist-TAG-XXXXXX, into root[FX_ROOT_MAX]. */
void fx_mkroot(char *root, const char *tag);

/* rm -rf ROOT, or ROOT/REL if rel is not NULL (a process that exits): 0,
 * or -1. */
int fx_remove(const char *root, const char *rel);

/* ROOT/REL holding len bytes of data, its directories made as needed. */
void fx_put(const char *root, const char *rel, const void *data, size_t len);

/* ROOT/PID/task/PID/stat (the leader's, which procs.c reads) as the
 * kernel writes it: "PID (COMM) STATE 1 2 3". */
void fx_stat(const char *root, int pid, const char *comm, char state);

/* A command line literal ("ceph-osd\0-i\0" "3") and its length with the
 * last NUL, as /proc/PID/cmdline has it: fx_proc's cmdline, len. */
#define CMD(s) s, sizeof(s)

/* A process: ROOT/PID/comm (comm and a newline, as the kernel writes it),
 * cmdline (len bytes, NUL-separated), stat, and exe, a symlink to exe. */
void fx_proc(const char *root, int pid, const char *comm, const char *cmdline,
	     size_t len, char state, const char *exe);

#endif
