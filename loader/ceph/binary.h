/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_BINARY_H
#define OSDHIST_BINARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cephfns.h"
#include "derive.h"
#include "symtrace.h"

struct osd_binary {
	uint8_t arch;			/* enum st_arch (symtrace.h) of its code;
					 * NR_ST_ARCHS until its ELF header is read */
	char build_id[41];		/* hex, or "none" */
	char version[64];		/* the binary's own Ceph version, e.g.
					 * "16.2.15"; "unknown" if not found */
	uint64_t fn_off[NR_PROBE_FNS];	/* file offsets for uprobes, 0 = absent */
	uint32_t inlined;		/* 1 << enum probe_fn: the symbol is there
					 * but nothing calls it (PROBES_DIRECT) */
	struct osd_offsets offs;	/* valid where `have` says so */
	uint32_t have;			/* OFF_BIT(enum osd_off) of derived ones */
	/* per offset: its witnesses ("Fn1, Fn2") or why it is unknown */
	char why[NR_OFFS][256];
};

/* Reads PATH (an x86-64 or AArch64 ELF ceph-osd, whatever the host's
 * architecture: b->arch says which; NAME is how messages call it): its
 * build-id, version, the probed symbols, and every offset of struct
 * osd_offsets derived from its code (derive.h).  0 when it can be traced:
 * the required symbols and OFFS_REQUIRED are all there (optional offsets
 * may still be missing: see `have` and `why`).  Otherwise a negative errno
 * naming the cause, err holds one line, and *b is filled as far as it got
 * (build_id, version, why): -ENOEXEC not an x86-64 or AArch64 ELF, or a
 * malformed one,
 * -ENOTSUP a build osdhist cannot trace (a required symbol or offset
 * missing, a probed function inlined) or a libelf that cannot, -EFBIG past a BINARY_MAX_* bound,
 * -EINVAL not a regular file, -ENOMEM; the open's -errno (e.g. -ENOENT). */
int binary_inspect(const char *path, const char *name, struct osd_binary *b,
		   char *err, size_t errlen);

/* The same of a process's binary, exe its PROC/PID/exe (the binary as the
 * process sees it, through its own mount namespace), opened once: *fd is
 * the descriptor the inspection read (it pins the inode; the caller closes
 * it).  As binary_inspect; *fd -1 tells that exe could not be opened
 * (-ENOENT, -ESRCH: the process is gone), from a refusal of what it read. */
int binary_inspect_exe(const char *exe, const char *name, struct osd_binary *b,
		       char *err, size_t errlen, int *fd);

/* A path naming the binary binary_inspect_exe opened as fd, for what takes
 * a path (a uprobe's attach): the inode read, whatever its path names by
 * then.  Our own /proc, not a process's. */
#define BINARY_FD_PATH_MAX	32
void binary_fd_path(int fd, char out[BINARY_FD_PATH_MAX]);

/* The architecture osdhist itself was built for: the only one whose
 * binaries it can attach to (its BPF object reads that one's registers). */
enum st_arch binary_host_arch(void);

/* "x86-64" or "arm64": the architecture of b's code; NULL if its ELF
 * header was not read (not an ELF, not opened, not inspected). */
const char *binary_arch_name(const struct osd_binary *b);

/* One line for an inspected binary b of another architecture than
 * binary_host_arch(): that it cannot be traced here and which osdhist to
 * use.  "" if b's is the host's. */
void binary_foreign(const struct osd_binary *b, const char *name, char *out, size_t len);

/* enum osd_feature: cephfns.h */
extern const char *const osd_feature_name[NR_FEATS];

/* Does b lack what feature f needs?  Then why holds a phrase naming what
 * is missing (e.g. "sp_spg: witnesses disagree: ..."). */
bool binary_lacks(const struct osd_binary *b, enum osd_feature f, char *why, size_t len);

/*
 * Bounds on what is read of an untrusted binary.  Together they bound an
 * inspection whatever the file, with no deadline needed: in memory, libelf
 * keeps at most one .dynsym and one .symtab (BINARY_MAX_SYMS entries each),
 * their string tables (BINARY_MAX_STRTAB each, checked before they are
 * read), note sections of BINARY_MAX_NOTE_BYTES and the headers; osdhist
 * adds one scan chunk and the code of the few functions derive.c reads.  In
 * time, every loop runs over one of these: at most BINARY_MAX_SECTIONS
 * headers, 2 x BINARY_MAX_SYMS symbols each compared with memcmp against
 * the few names wanted (a string table must end in NUL, so no name is ever
 * searched for its end), BINARY_MAX_SCAN bytes of code scanned for calls,
 * and ST_MAX_INSNS instructions per function (symtrace.h).
 */
#define BINARY_MAX_SIZE		(1ull << 30)	/* whole file */
#define BINARY_MAX_SYMS		(1u << 20)	/* symbols per table (ceph-osd's
						 * .dynsym: 32 K; 20.2's .symtab,
						 * in -dbg: 65 K) */
#define BINARY_MAX_SECTIONS	4096		/* section / program headers a
						 * file may claim (ceph-osd: ~40) */
#define BINARY_MAX_NOTE_BYTES	4096		/* a note section read for the
						 * build-id */
#define BINARY_MAX_FN_BYTES	(64u << 10)	/* code read per function */
#define BINARY_SCAN_CHUNK	(1u << 20)	/* code read at a time when looking
						 * for direct calls (the whole
						 * executable segments: 25 MB) */
#define BINARY_MAX_SCAN		(256ull << 20)	/* ... and in all (4096 segments
						 * may each claim the whole file):
						 * past it, nothing is taken for
						 * inlined */
#define BINARY_MAX_STRTAB	(32u << 20)	/* a symbol table's string table
						 * (ceph-osd's .dynstr: 3 MiB, a -dbg
						 * .strtab: 6 MiB) */

#endif
