// SPDX-License-Identifier: GPL-2.0
/*
 * What osdhist needs from a ceph-osd binary, read with libelf: the build-id,
 * the Ceph version string, the file offsets of the probed functions (from
 * .dynsym: Debian's binaries are stripped but export their C++ symbols), and
 * the code of the functions derive.c reads the offsets from.
 *
 * The file is untrusted (a container's ceph-osd reaches a root process):
 * it is read with pread, never mapped (a truncation under us must not be a
 * SIGBUS); every size and offset it states is checked against the file's
 * size and against BINARY_MAX_* before it is used.
 */
#include <capstone/capstone.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "binary.h"

#define PROBE_FN(id, fn, prefer, need, call, attach) [id] = fn,
#define PROBE_PREFER(id, fn, prefer, need, call, attach) [id] = prefer,
#define PROBE_NEED(id, fn, prefer, need, call, attach) [id] = need,
const enum ceph_fn probe_fn[NR_PROBE_FNS] = { OSDHIST_PROBES(PROBE_FN) };
static const enum ceph_fn probe_prefer[NR_PROBE_FNS] = { OSDHIST_PROBES(PROBE_PREFER) };
static const enum osd_feature probe_need[NR_PROBE_FNS] = { OSDHIST_PROBES(PROBE_NEED) };
#undef PROBE_FN
#undef PROBE_PREFER
#undef PROBE_NEED

struct sym {
	uint64_t vaddr;
	uint64_t size;
};

struct elf_file {
	int fd;
	uint64_t size;
	Elf *elf;
};

static int find_build_id(Elf *elf, char *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	unsigned nscn = 0;

	while ((scn = elf_nextscn(elf, scn)) && nscn++ < BINARY_MAX_SECTIONS) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		/* libelf keeps each section it reads until elf_end: many
		 * headers over one big region would each cost its size */
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE ||
		    sh.sh_size > BINARY_MAX_NOTE_BYTES)
			continue;
		d = elf_getdata(scn, NULL);
		/* gelf_getnote checks name and desc against d_size */
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			const unsigned char *desc = (unsigned char *)d->d_buf + doff;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + noff, "GNU", 4) ||
			    !nh.n_descsz || nh.n_descsz > 20)
				continue;
			for (size_t i = 0; i < nh.n_descsz; i++)
				snprintf(out + 2 * i, 3, "%02x", desc[i]);
			return 0;
		}
	}
	return -ENOENT;
}

/* vaddr .. vaddr + len -> file offset, inside one PT_LOAD's file bytes that
 * lie inside the file.  exec: only an executable segment.  0, -ENOEXEC if
 * the program headers cannot be read, -ERANGE if no such segment holds the
 * range. */
static int vaddr_to_off(const struct elf_file *f, uint64_t vaddr, uint64_t len, bool exec,
			uint64_t *off)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(f->elf, &n) || n > 4096)
		return -ENOEXEC;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(f->elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (exec && !(ph.p_flags & PF_X))
			continue;
		if (ph.p_offset > f->size || ph.p_filesz > f->size - ph.p_offset)
			continue;	/* states bytes the file does not have */
		if (vaddr < ph.p_vaddr || vaddr - ph.p_vaddr >= ph.p_filesz ||
		    len > ph.p_filesz - (vaddr - ph.p_vaddr))
			continue;
		*off = vaddr - ph.p_vaddr + ph.p_offset;
		return 0;
	}
	return -ERANGE;
}

/*
 * The names of a symbol table: its string table, checked before a byte of
 * it is read.  libelf's elf_strptr() on a table whose last byte is not NUL
 * searches the rest of the table for a terminator at every call: 400 names
 * on a 256 MiB table took 8.9 s, and the 4 M symbol cap would take a day.
 * So the table must be a SHT_STRTAB inside the file, at most
 * BINARY_MAX_STRTAB bytes, ending in NUL (one pread, before libelf reads
 * it); then any name is a bounded string, and names are compared with
 * memcmp of the wanted name's length, never scanned.  NULL, and one line
 * in err, if the table is malformed.
 */
static const Elf_Data *names_of(const struct elf_file *f, const GElf_Shdr *symsh,
				const char *name, char *err, size_t errlen)
{
	const char *what = symsh->sh_type == SHT_DYNSYM ? ".dynsym" : ".symtab";
	Elf_Scn *scn = elf_getscn(f->elf, symsh->sh_link);
	Elf_Data *d;
	GElf_Shdr sh;
	char last = 1;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_STRTAB || !sh.sh_size ||
	    sh.sh_offset > f->size || sh.sh_size > f->size - sh.sh_offset) {
		snprintf(err, errlen, "%s: the string table of its %s (section %u) is "
			 "missing or lies outside the file: a malformed ELF, not read",
			 name, what, (unsigned)symsh->sh_link);
		return NULL;
	}
	if (sh.sh_size > BINARY_MAX_STRTAB) {
		snprintf(err, errlen, "%s: the string table of its %s is %llu MiB, more "
			 "than %u MiB (ceph-osd's: 3 MiB): not read", name, what,
			 (unsigned long long)(sh.sh_size >> 20), BINARY_MAX_STRTAB >> 20);
		return NULL;
	}
	if (pread(f->fd, &last, 1, (off_t)(sh.sh_offset + sh.sh_size - 1)) != 1 || last) {
		snprintf(err, errlen, "%s: the string table of its %s does not end in a "
			 "NUL byte: a malformed ELF, not read", name, what);
		return NULL;
	}
	d = elf_getdata(scn, NULL);
	/* what libelf read is what was checked */
	if (!d || !d->d_buf || d->d_size != sh.sh_size ||
	    ((const char *)d->d_buf)[d->d_size - 1]) {
		snprintf(err, errlen, "%s: the string table of its %s cannot be read: "
			 "not read", name, what);
		return NULL;
	}
	return d;
}

/* Fills syms from .dynsym and .symtab.  0, or one line in err and -EFBIG
 * for more than BINARY_MAX_SYMS symbols, -ENOEXEC for a string table
 * osdhist does not read (names_of). */
static int find_symbols(const struct elf_file *f, const char *name,
			struct sym syms[NR_CEPH_FNS], char *err, size_t errlen)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	unsigned nscn = 0;
	bool seen_dynsym = false, seen_symtab = false;
	size_t want_len[NR_CEPH_FNS];

	for (int s = 0; s < NR_CEPH_FNS; s++)
		want_len[s] = strlen(ceph_fn_symbol[s]);
	while ((scn = elf_nextscn(f->elf, scn)) && nscn++ < BINARY_MAX_SECTIONS) {
		const Elf_Data *d, *names;
		GElf_Sym sym;
		size_t count;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB) ||
		    sh.sh_entsize != sizeof(Elf64_Sym))
			continue;
		/* A linker writes one of each.  More would each be read (and
		 * kept by libelf until elf_end): 4000 headers over one 8 MiB
		 * table took > 5 min and 5 GB. */
		if (sh.sh_type == SHT_DYNSYM ? seen_dynsym : seen_symtab)
			continue;
		*(sh.sh_type == SHT_DYNSYM ? &seen_dynsym : &seen_symtab) = true;
		/* checked before libelf reads (and keeps) it */
		if (sh.sh_size > (uint64_t)BINARY_MAX_SYMS * sizeof(Elf64_Sym)) {
			snprintf(err, errlen, "%s: its %s claims more than %u symbols "
				 "(ceph-osd's: 32 K): not read", name,
				 sh.sh_type == SHT_DYNSYM ? ".dynsym" : ".symtab",
				 BINARY_MAX_SYMS);
			return -EFBIG;
		}
		names = names_of(f, &sh, name, err, errlen);
		if (!names)
			return -ENOEXEC;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf)
			continue;
		/* d_size is what libelf read, not what the header claims */
		count = d->d_size / sizeof(Elf64_Sym);
		for (size_t i = 0; i < count; i++) {
			const char *n;
			size_t left;

			if (!gelf_getsym((Elf_Data *)d, (int)i, &sym) || !sym.st_value ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_name >= names->d_size)
				continue;
			n = (const char *)names->d_buf + sym.st_name;
			left = names->d_size - sym.st_name;
			if (n[0] != '_')
				continue;
			for (int s = 0; s < NR_CEPH_FNS; s++)
				if (!syms[s].vaddr && want_len[s] < left &&
				    !memcmp(n, ceph_fn_symbol[s], want_len[s] + 1)) {
					syms[s].vaddr = sym.st_value;
					syms[s].size = sym.st_size;
				}
		}
	}
	return 0;
}

/* The function's bytes, at most BINARY_MAX_FN_BYTES; NULL if the symbol's
 * range is not in an executable segment of the file. */
static uint8_t *read_fn(const struct elf_file *f, const struct sym *s, size_t *len)
{
	uint64_t off, n = s->size;
	uint8_t *buf;

	if (!n)
		return NULL;
	if (n > BINARY_MAX_FN_BYTES)
		n = BINARY_MAX_FN_BYTES;
	if (vaddr_to_off(f, s->vaddr, n, true, &off) < 0)
		return NULL;
	buf = malloc(n);
	if (!buf)
		return NULL;
	if (pread(f->fd, buf, n, (off_t)off) != (ssize_t)n) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* Where a direct call or tail jump at vaddr `at` of buf[i..] goes, or 0:
 * x86-64 `call rel32` (e8) and `jmp rel32` (e9); AArch64 `bl` and `b`
 * (imm26 words, at 4-byte aligned addresses). */
static uint64_t branch_target(uint8_t arch, const uint8_t *p, uint64_t at)
{
	int32_t rel;
	uint32_t w;

	if (arch == ST_ARM64) {
		if (at & 3)
			return 0;
		memcpy(&w, p, 4);
		w = le32toh(w);
		if ((w & 0x7c000000u) != 0x14000000u)	/* b 000101, bl 100101 */
			return 0;
		/* sign-extend imm26, times 4 */
		return at + (uint64_t)((int64_t)((int32_t)(w << 6) >> 6) * 4);
	}
	if (p[0] != 0xe8 && p[0] != 0xe9)
		return 0;
	memcpy(&rel, p + 1, 4);
	return at + 5 + (uint64_t)(int64_t)rel;
}

/* Which of the n targets some direct call or tail jump (branch_target) in
 * the executable segments reaches: bit i of the result for target[i].  A
 * byte scan, not a disassembly: an e8 inside another x86 instruction can
 * only make a target look called, never hide a real call, so an inlined
 * function may pass (the self-check is the guard) but a called one is
 * never refused.  Reads the segments in chunks. */
static uint32_t direct_calls(const struct elf_file *f, uint8_t arch, const uint64_t *target,
			     int n)
{
	uint32_t found = 0, all = n >= 32 ? ~0u : (1u << n) - 1;
	uint8_t *buf = malloc(BINARY_SCAN_CHUNK + 4);
	uint64_t scanned = 0;	/* segments may overlap: bound the sum */
	size_t nph;
	GElf_Phdr ph;

	if (!buf || elf_getphdrnum(f->elf, &nph) || nph > BINARY_MAX_SECTIONS) {
		free(buf);
		return all;	/* cannot tell: refuse nothing */
	}
	for (size_t k = 0; k < nph && found != all; k++) {
		if (!gelf_getphdr(f->elf, k, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) || ph.p_offset > f->size ||
		    ph.p_filesz > f->size - ph.p_offset)
			continue;
		for (uint64_t at = 0; at < ph.p_filesz && found != all; at += BINARY_SCAN_CHUNK) {
			uint64_t want = ph.p_filesz - at;
			ssize_t got;

			/* 4 bytes past the chunk: a rel32 that straddles it */
			want = want > BINARY_SCAN_CHUNK + 4 ? BINARY_SCAN_CHUNK + 4 : want;
			if (scanned > BINARY_MAX_SCAN) {
				free(buf);
				return all;	/* cannot tell: refuse nothing */
			}
			got = pread(f->fd, buf, want, (off_t)(ph.p_offset + at));
			if (got < 5)
				break;
			scanned += (uint64_t)got;
			for (ssize_t i = 0; i + 5 <= got && i < BINARY_SCAN_CHUNK; i++) {
				uint64_t to = branch_target(arch, buf + i,
							    ph.p_vaddr + at + (uint64_t)i);

				if (!to)
					continue;
				for (int t = 0; t < n; t++)
					if (to == target[t])
						found |= 1u << t;
			}
		}
	}
	free(buf);
	return found;
}

/* A version string as Ceph prints it: digits.digits.digits then [-+~.\w]. */
static bool version_like(const char *s)
{
	int dots = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s; s++) {
		if (*s == '.')
			dots++;
		else if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
			   (*s >= 'A' && *s <= 'Z') || strchr("-+~_", *s)))
			return false;
	}
	return dots >= 2;
}

/* The address an instruction makes of a global, or 0: x86-64 `lea
 * disp(%rip), r`; AArch64 `add xd, xn, #lo12` after `adrp xn, page` (the
 * last adrp's register and page in *page_reg, *page). */
static uint64_t global_address(uint8_t arch, const cs_insn *in, unsigned *page_reg,
			       uint64_t *page)
{
	if (arch == ST_ARM64) {
		const cs_arm64 *a = &in->detail->arm64;

		if (in->id == ARM64_INS_ADRP && a->op_count == 2 &&
		    a->operands[0].type == ARM64_OP_REG && a->operands[1].type == ARM64_OP_IMM) {
			*page_reg = a->operands[0].reg;
			*page = (uint64_t)a->operands[1].imm;
			return 0;
		}
		if (in->id == ARM64_INS_ADD && a->op_count == 3 && *page_reg &&
		    a->operands[1].type == ARM64_OP_REG && a->operands[1].reg == *page_reg &&
		    a->operands[2].type == ARM64_OP_IMM && a->operands[2].shift.type == ARM64_SFT_INVALID)
			return *page + (uint64_t)a->operands[2].imm;
		return 0;
	}
	if (in->id != X86_INS_LEA || in->detail->x86.op_count != 2 ||
	    in->detail->x86.operands[1].type != X86_OP_MEM ||
	    in->detail->x86.operands[1].mem.base != X86_REG_RIP)
		return 0;
	return in->address + in->size + (uint64_t)in->detail->x86.operands[1].mem.disp;
}

/* ceph_version_to_str() returns getenv("CEPH_VER_OVERRIDE") or the build's
 * CEPH_GIT_NICE_VER: the string it makes the address of (global_address)
 * that looks like a version is the binary's own. */
static void find_version(const struct elf_file *f, uint8_t arch, const struct sym *s, char *out,
			 size_t outlen)
{
	unsigned page_reg = 0;
	uint64_t page = 0;
	size_t len = 0;
	uint8_t *code;
	const uint8_t *p;
	uint64_t addr;
	cs_insn *in;
	csh h;

	snprintf(out, outlen, "unknown");
	if (!s->vaddr || s->size > 256 || !(code = read_fn(f, s, &len)))
		return;
	if (cs_open(arch == ST_ARM64 ? CS_ARCH_ARM64 : CS_ARCH_X86,
		    arch == ST_ARM64 ? CS_MODE_ARM : CS_MODE_64, &h) != CS_ERR_OK) {
		free(code);
		return;
	}
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	in = cs_malloc(h);
	p = code;
	addr = s->vaddr;
	while (in && len && cs_disasm_iter(h, &p, &len, &addr, in)) {
		char buf[64];
		uint64_t target = global_address(arch, in, &page_reg, &page), off;
		ssize_t n;

		if (!target || vaddr_to_off(f, target, 1, false, &off) < 0)
			continue;
		n = pread(f->fd, buf, sizeof(buf) - 1, (off_t)off);
		if (n <= 0)
			continue;
		buf[n] = 0;
		if (strlen(buf) < (size_t)n && version_like(buf) && strlen(buf) < outlen) {
			snprintf(out, outlen, "%s", buf);
			break;
		}
	}
	if (in)
		cs_free(in, 1);
	cs_close(&h);
	free(code);
}

/* The header counts, checked before libelf sees the file: elf_begin()
 * allocates a descriptor per section header claimed (e_shnum, or section 0's
 * sh_size with extended numbering): a 1 GiB sparse file of zeros claiming
 * 16 M sections cost 4.4 GB.  0, or one line in err and -ENOEXEC (not an
 * x86-64 or AArch64 ELF) or -EFBIG (more headers than BINARY_MAX_SECTIONS). */
static int check_headers(const struct elf_file *f, const char *name, char *err, size_t errlen)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh0 = { 0 };
	uint64_t shnum, phnum;

	if (pread(f->fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG)) {
		snprintf(err, errlen, "%s is not an ELF binary", name);
		return -ENOEXEC;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64)) {
		snprintf(err, errlen, "%s is not an x86-64 or AArch64 ELF binary", name);
		return -ENOEXEC;
	}
	shnum = eh.e_shnum;
	phnum = eh.e_phnum;
	if ((shnum == 0 || phnum == PN_XNUM) && eh.e_shoff &&
	    pread(f->fd, &sh0, sizeof(sh0), (off_t)eh.e_shoff) == (ssize_t)sizeof(sh0)) {
		if (shnum == 0)
			shnum = sh0.sh_size;
		if (phnum == PN_XNUM)
			phnum = sh0.sh_info;
	}
	if (shnum > BINARY_MAX_SECTIONS || phnum > BINARY_MAX_SECTIONS) {
		snprintf(err, errlen, "%s claims %llu section and %llu program headers "
			 "(a ceph-osd has about 40; more than %u is not read)", name,
			 (unsigned long long)shnum, (unsigned long long)phnum,
			 BINARY_MAX_SECTIONS);
		return -EFBIG;
	}
	return 0;
}

/* The symbol probe p sits on: its prefer function where the binary has it
 * (20.x: ECSwitch dispatches to both EC backends), else its function. */
static const struct sym *probe_sym(const struct sym *syms, int p)
{
	if (probe_prefer[p] != CF_NONE && syms[probe_prefer[p]].vaddr)
		return &syms[probe_prefer[p]];
	return &syms[probe_fn[p]];
}

/* PROBES_DIRECT functions that nothing calls are inlined: absent (fn_off 0,
 * the bit in b->inlined); a required one refuses the build: -ENOTSUP and
 * one line in err. */
static int mark_inlined(const struct elf_file *f, const struct sym *syms,
			struct osd_binary *b, const char *name, char *err, size_t errlen)
{
	uint64_t target[NR_PROBE_FNS];
	int fn[NR_PROBE_FNS], n = 0;
	uint32_t called;

	for (int p = 0; p < NR_PROBE_FNS; p++)
		if ((PROBES_DIRECT & (1u << p)) && b->fn_off[p]) {
			fn[n] = p;
			target[n++] = probe_sym(syms, p)->vaddr;
		}
	called = direct_calls(f, b->arch, target, n);
	for (int i = 0; i < n; i++) {
		int p = fn[i];

		if (called & (1u << i))
			continue;
		b->inlined |= 1u << p;
		b->fn_off[p] = 0;
		if (PROBES_REQUIRED & (1u << p)) {
			snprintf(err, errlen, "ceph-osd %s (build-id %s): nothing in the "
				 "binary calls %s: it was inlined at every call site "
				 "(an LTO build?), so a probe on it would count nothing; "
				 "osdhist cannot trace this build", name, b->build_id,
				 ceph_fn_pretty[probe_fn[p]]);
			return -ENOTSUP;
		}
	}
	return 0;
}

/* binary_inspect of f, whose headers check_headers passed. */
static int inspect(struct elf_file *f, const char *name, struct osd_binary *b,
		   char *err, size_t errlen)
{
	struct sym syms[NR_CEPH_FNS];
	struct derive_in din;
	struct derive_out dout;
	uint8_t *code[NR_CEPH_FNS] = { 0 };
	GElf_Ehdr eh;
	int ret;

	if (!gelf_getehdr(f->elf, &eh) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    (eh.e_machine != EM_X86_64 && eh.e_machine != EM_AARCH64)) {
		snprintf(err, errlen, "%s is not an x86-64 or AArch64 ELF binary", name);
		return -ENOEXEC;
	}
	b->arch = eh.e_machine == EM_AARCH64 ? ST_ARM64 : ST_X86_64;
	if (find_build_id(f->elf, b->build_id) < 0)
		snprintf(b->build_id, sizeof(b->build_id), "none");
	memset(syms, 0, sizeof(syms));
	ret = find_symbols(f, name, syms, err, errlen);
	if (ret < 0)
		return ret;
	find_version(f, b->arch, &syms[CF_CEPH_VERSION], b->version, sizeof(b->version));

	for (int p = 0; p < NR_PROBE_FNS; p++) {
		const struct sym *s = probe_sym(syms, p);
		enum ceph_fn fn = probe_fn[p];

		if (s->vaddr && vaddr_to_off(f, s->vaddr, 1, true, &b->fn_off[p]) < 0) {
			snprintf(err, errlen, "ceph-osd %s (build-id %s): symbol %s is not "
				 "in an executable segment of the file", name, b->build_id,
				 ceph_fn_pretty[fn]);
			return -ENOEXEC;
		}
		if (!s->vaddr && (PROBES_REQUIRED & (1u << p))) {
			snprintf(err, errlen, "ceph-osd %s (build-id %s) lacks the symbol "
				 "%s (%s); osdhist cannot trace this build", name,
				 b->build_id, ceph_fn_symbol[fn], ceph_fn_pretty[fn]);
			return -ENOTSUP;
		}
	}

	ret = mark_inlined(f, syms, b, name, err, errlen);
	if (ret < 0)
		return ret;

	memset(&din, 0, sizeof(din));
	din.arch = b->arch;
	for (int d = 0; d < NR_CEPH_FNS; d++) {
		const struct sym *s = &syms[d];

		din.fn[d].vaddr = s->vaddr;
		if (!derive_reads_code(d) || !s->vaddr)
			continue;
		code[d] = read_fn(f, s, &din.fn[d].len);
		din.fn[d].code = code[d];
		if (!code[d])
			din.fn[d].vaddr = 0;	/* unreadable: as if absent */
	}
	ret = derive_offsets(&din, b->build_id, &dout, err, errlen);
	b->offs = dout.offs;
	b->have = dout.have;
	memcpy(b->why, dout.why, sizeof(b->why));
	if (ret < 0) {
		/* prefix which binary: err already names the build-id */
		char tmp[1024];

		snprintf(tmp, sizeof(tmp), "ceph-osd %s %s", name, err);
		snprintf(err, errlen, "%s", tmp);
	}
	for (int d = 0; d < NR_CEPH_FNS; d++)
		free(code[d]);
	return ret;
}

/* binary_inspect of the file open at fd (left open). */
static int inspect_fd(int fd, const char *name, struct osd_binary *b, char *err, size_t errlen)
{
	struct elf_file f = { .fd = fd };
	struct stat st;
	int ret;

	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -ENOTSUP;	/* this libelf does not read our ELF version */
	}
	if (fstat(f.fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s is not a regular file", name);
		return -EINVAL;
	}
	if ((uint64_t)st.st_size > BINARY_MAX_SIZE) {
		snprintf(err, errlen, "%s is larger than %llu MiB: not read", name,
			 (unsigned long long)(BINARY_MAX_SIZE >> 20));
		return -EFBIG;
	}
	f.size = (uint64_t)st.st_size;
	ret = check_headers(&f, name, err, errlen);
	if (ret < 0)
		return ret;
	/* ELF_C_READ: libelf preads what it needs, checked against the size */
	f.elf = elf_begin(f.fd, ELF_C_READ, NULL);
	if (!f.elf || elf_kind(f.elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s is not an ELF binary", name);
		ret = -ENOEXEC;
		goto out;
	}
	ret = inspect(&f, name, b, err, errlen);
out:
	if (f.elf)
		elf_end(f.elf);
	return ret;
}

int binary_inspect_exe(const char *exe, const char *name, struct osd_binary *b,
		       char *err, size_t errlen, int *fd)
{
	int e;

	memset(b, 0, sizeof(*b));
	b->arch = NR_ST_ARCHS;
	snprintf(b->build_id, sizeof(b->build_id), "none");
	snprintf(b->version, sizeof(b->version), "unknown");
	*fd = open(exe, O_RDONLY | O_CLOEXEC);
	if (*fd >= 0)
		return inspect_fd(*fd, name, b, err, errlen);
	e = errno;
	snprintf(err, errlen, "cannot open %s: %s", name, strerror(e));
	return e > 0 ? -e : -EIO;
}

int binary_inspect(const char *path, const char *name, struct osd_binary *b,
		   char *err, size_t errlen)
{
	int fd, ret = binary_inspect_exe(path, name, b, err, errlen, &fd);

	if (fd >= 0)
		close(fd);
	return ret;
}

enum st_arch binary_host_arch(void)
{
#if defined(__aarch64__)
	return ST_ARM64;
#elif defined(__x86_64__)
	return ST_X86_64;
#else
#error "osdhist traces x86-64 and arm64 hosts only"
#endif
}

const char *binary_arch_name(const struct osd_binary *b)
{
	return b->arch < NR_ST_ARCHS ? st_arch_name[b->arch] : NULL;
}

void binary_foreign(const struct osd_binary *b, const char *name, char *out, size_t len)
{
	if (b->arch == binary_host_arch()) {
		snprintf(out, len, "%s", "");
		return;
	}
	snprintf(out, len, "%s is an %s binary and this osdhist is built for %s: it cannot "
		 "trace it here; trace it with osdhist built for %s%s", name,
		 st_arch_name[b->arch], st_arch_name[binary_host_arch()], st_arch_name[b->arch],
		 b->arch == ST_ARM64 ? " (make static ARCH=arm64)" : " (make static)");
}

const char *const osd_feature_name[NR_FEATS] = {
	[FEAT_POOL] = "-P", [FEAT_PHASES] = "--phases", [FEAT_OPTYPES] = "op-type counts",
	[FEAT_CALLS] = "call class.method", [FEAT_SLOWOPS] = "slowest ops",
};

bool binary_lacks(const struct osd_binary *b, enum osd_feature f, char *why, size_t len)
{
	for (int p = 0; p < NR_PROBE_FNS; p++)
		if (probe_need[p] == f && !b->fn_off[p]) {
			snprintf(why, len, b->inlined & (1u << p) ? "%s is inlined at "
				 "every call site" : "the binary lacks %s",
				 ceph_fn_pretty[probe_fn[p]]);
			return true;
		}
	for (int o = 0; o < NR_OFFS; o++)
		if (osd_off_need[o] == f && !(b->have & OFF_BIT(o))) {
			snprintf(why, len, "%s: %s", osd_off_name[o], b->why[o]);
			return true;
		}
	return false;
}

void binary_fd_path(int fd, char out[BINARY_FD_PATH_MAX])
{
	snprintf(out, BINARY_FD_PATH_MAX, "/proc/self/fd/%d", fd);
}
