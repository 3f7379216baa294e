// SPDX-License-Identifier: GPL-2.0
/*
 * What osdhist needs from a ceph-osd binary, read with libelf: the build-id,
 * the file offsets of the probed functions (from .dynsym: Debian's binary is
 * stripped but exports its C++ symbols), and the struct offsets the BPF
 * programs read.  Offsets come from a table keyed by build-id, and every one
 * is checked against an instruction of Ceph's own that uses it, so another
 * build gets a clear refusal, never garbage.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "binary.h"

const char *const probe_fn_symbol[NR_PROBE_FNS] = {
	[FN_LOG_OP_STATS] = "_ZN12PrimaryLogPG12log_op_statsERK9OpRequestmm",
	[FN_UNREGISTERED] = "_ZN9OpRequest13_unregisteredEv",
	[FN_REPOP_COMMIT] = "_ZN17ReplicatedBackend12repop_commitESt10shared_ptrINS_9RepModifyEE",
	[FN_ENQUEUE_OP] = "_ZN3OSD10enqueue_opE5spg_tON5boost13intrusive_ptrI9OpRequestEEj",
	[FN_DEQUEUE_OP] = "_ZN3OSD10dequeue_opEN5boost13intrusive_ptrI2PGEENS1_I9OpRequestEERN10ThreadPool8TPHandleE",
	[FN_REP_SUBMIT] = "_ZN17ReplicatedBackend18submit_transactionERK9hobject_tRK17object_stat_sum_tRK10eversion_tOSt10unique_ptrI13PGTransactionSt14default_deleteISA_EES8_S8_OSt6vectorI14pg_log_entry_tSaISG_EERSt8optionalI20pg_hit_set_history_tEP7Contextm11osd_reqid_tN5boost13intrusive_ptrI9OpRequestEE",
	[FN_EC_SUBMIT] = "_ZN9ECBackend18submit_transactionERK9hobject_tRK17object_stat_sum_tRK10eversion_tOSt10unique_ptrI13PGTransactionSt14default_deleteISA_EES8_S8_OSt6vectorI14pg_log_entry_tSaISG_EERSt8optionalI20pg_hit_set_history_tEP7Contextm11osd_reqid_tN5boost13intrusive_ptrI9OpRequestEE",
};

const char *const probe_fn_pretty[NR_PROBE_FNS] = {
	[FN_LOG_OP_STATS] = "PrimaryLogPG::log_op_stats",
	[FN_UNREGISTERED] = "OpRequest::_unregistered",
	[FN_REPOP_COMMIT] = "ReplicatedBackend::repop_commit",
	[FN_ENQUEUE_OP] = "OSD::enqueue_op",
	[FN_DEQUEUE_OP] = "OSD::dequeue_op",
	[FN_REP_SUBMIT] = "ReplicatedBackend::submit_transaction",
	[FN_EC_SUBMIT] = "ECBackend::submit_transaction",
};

/* An instruction of Ceph's that proves an offset: its bytes at a vaddr. */
struct insn_check {
	uint64_t vaddr;
	const char *hex;
	const char *proves;
};

struct build_entry {
	const char *build_id;
	const char *what;
	struct osd_offsets offs;
	struct insn_check checks[16];
};

static const struct build_entry builds[] = {
	{
		.build_id = "fb66b3cec5f264a2f863d96fa875eb4ae39bb0bf",
		.what = "Debian 12 ceph-osd 16.2.15+ds-0+deb12u2",
		.offs = { .op_request = 0xe0, .op_rmw = 0xc0, .msg_type = 0x28,
			  .msg_recv = 0xc8,
			  .op_dequeued = 0x150, .repmod_op = 0, .sp_spg = 8,
			  .sp_submit_op = 80 },
		.checks = {
			/* log_op_stats: mov 0xe0(%rsi),%r15 -- op.get_req() */
			{ 0x76da19, "4c8bbee0000000", "OpRequest::request at 0xe0" },
			/* log_op_stats: mov 0xcc(%r15),%esi; mov 0xc8(%r15),%edi
			 * -- now - m->get_recv_stamp(), r15 = op.get_req() */
			{ 0x76da57, "418bb7cc000000418bbfc8000000",
			  "Message::recv_stamp at 0xc8" },
			/* log_op_stats: lea 0xc0(%r12),%r14 -- &op.op_info for may_read() */
			{ 0x76dbaa, "4d8db424c0000000", "OpRequest::op_info at 0xc0" },
			/* enqueue_op: mov 0xe0(%rdi),%rax; mov 0x3d(%rax),%rcx;
			 * movzwl 0x28(%rax),%eax -- op->get_req()->get_source()
			 * and ->get_type(): the packed ceph_msg_header at 0x18 */
			{ 0x65689c, "488b87e0000000488b483d0fb74028",
			  "Message::header.type at 0x28" },
			/* OpInfo::check_rmw: mov (%rdi),%rax -- rmw_flags first */
			{ 0x1001b10, "488b07", "OpInfo::rmw_flags at 0" },
			/* dequeue_op: mov %eax,0x150(%rdx); mov %eax,%eax;
			 * mov %ecx,0x154(%rdx) -- op->set_dequeued_time(now) */
			{ 0x64a192, "89825001000089c0898a54010000",
			  "OpRequest::dequeued_time at 0x150" },
			/* repop_commit: mov (%rsi),%rax; mov (%rax),%rdi --
			 * rm->op->mark_commit_sent() */
			{ 0xa0934f, "488b06488b38", "RepModify::op at 0" },
			/* enqueue_op: 6 pushes, sub $0x98,%rsp, then
			 * mov 0xd0(%rsp),%rax: pgid.m_pool at entry %rsp + 8 */
			{ 0x6567b0, "415741564155415455534881ec98000000", "enqueue_op's frame" },
			{ 0x6567d2, "488b8424d0000000", "spg_t at entry %rsp + 8" },
			/* ReplicatedBackend::submit_transaction: push %rbp;
			 * mov %rsp,%rbp ... mov 0x58(%rbp),%rax: op at entry
			 * %rsp + 80 */
			{ 0xa05320, "554889e5", "submit_transaction's frame" },
			{ 0xa05371, "488b4558", "its OpRequestRef at entry %rsp + 80" },
			/* ECBackend::submit_transaction: 6 pushes, sub $0xb8,%rsp,
			 * mov 0x138(%rsp),%rax: op at entry %rsp + 80 too */
			{ 0xa55060, "41574989ff4989d24881c79801000041564155"
				    "4d89cd41544989cc554889f5534881ecb8000000",
			  "EC submit_transaction's frame" },
			{ 0xa550bd, "488b842438010000", "its OpRequestRef at entry %rsp + 80" },
		},
	},
};

static int hexbyte(const char *s)
{
	unsigned v;

	return sscanf(s, "%2x", &v) == 1 ? (int)v : -1;
}

static int find_build_id(Elf *elf, char *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		while (d && (off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			const unsigned char *desc = (unsigned char *)d->d_buf + doff;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + noff, "GNU", 4) || nh.n_descsz > 20)
				continue;
			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(out + 2 * i, "%02x", desc[i]);
			return 0;
		}
	}
	return -1;
}

/* vaddr -> file offset through the executable PT_LOAD that maps it. */
static int vaddr_to_off(Elf *elf, uint64_t vaddr, uint64_t *off)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n))
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*off = vaddr - ph.p_vaddr + ph.p_offset;
			return 0;
		}
	}
	return -1;
}

static void find_symbols(Elf *elf, uint64_t vaddr[NR_PROBE_FNS])
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		GElf_Sym sym;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *name;

			if (!gelf_getsym(d, i, &sym) || !sym.st_value ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			for (int f = 0; name && f < NR_PROBE_FNS; f++)
				if (!vaddr[f] && !strcmp(name, probe_fn_symbol[f]))
					vaddr[f] = sym.st_value;
		}
	}
}

static int check_insn(int fd, Elf *elf, const struct insn_check *c)
{
	unsigned char buf[64];
	size_t len = strlen(c->hex) / 2;
	uint64_t off;

	if (len > sizeof(buf) || vaddr_to_off(elf, c->vaddr, &off) ||
	    pread(fd, buf, len, off) != (ssize_t)len)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (hexbyte(c->hex + 2 * i) != buf[i])
			return -1;
	return 0;
}

static int verify(int fd, Elf *elf, struct osd_binary *b, char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(builds) / sizeof(builds[0]); i++) {
		const struct build_entry *e = &builds[i];

		if (strcmp(e->build_id, b->build_id))
			continue;
		for (size_t c = 0; c < sizeof(e->checks) / sizeof(e->checks[0]); c++) {
			if (!e->checks[c].hex)
				continue;
			if (check_insn(fd, elf, &e->checks[c])) {
				snprintf(err, errlen, "build-id %s: the instruction at 0x%lx "
					 "that proves %s does not match; the binary is not "
					 "the build osdhist knows (%s)", b->build_id,
					 (unsigned long)e->checks[c].vaddr,
					 e->checks[c].proves, e->what);
				return -1;
			}
		}
		b->offs = e->offs;
		b->have = HAVE_SP_SPG | HAVE_SP_SUBMIT;
		return 0;
	}
	snprintf(err, errlen, "build-id %s is not in osdhist's table of verified "
		 "Ceph offsets (known: Debian 12 ceph-osd 16.2.15); add it to "
		 "loader/binary.c after checking the offsets", b->build_id);
	return -1;
}

int binary_inspect(const char *path, const char *name, struct osd_binary *b,
		   char *err, size_t errlen)
{
	uint64_t vaddr[NR_PROBE_FNS] = { 0 };
	Elf *elf = NULL;
	int fd, ret = -1;

	memset(b, 0, sizeof(*b));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errlen, "libelf: %s", elf_errmsg(-1));
		return -1;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", name, strerror(errno));
		return -1;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s is not an ELF binary", name);
		goto out;
	}
	if (find_build_id(elf, b->build_id))
		strcpy(b->build_id, "none");
	find_symbols(elf, vaddr);
	for (int f = 0; f < NR_PROBE_FNS; f++) {
		if (!vaddr[f]) {
			snprintf(err, errlen, "ceph-osd %s (build-id %s) lacks the "
				 "symbol %s (%s); osdhist cannot trace this build",
				 name, b->build_id, probe_fn_symbol[f], probe_fn_pretty[f]);
			goto out;
		}
		if (vaddr_to_off(elf, vaddr[f], &b->fn_off[f])) {
			snprintf(err, errlen, "%s: symbol %s is not in a loaded segment",
				 name, probe_fn_pretty[f]);
			goto out;
		}
	}
	ret = verify(fd, elf, b, err, errlen);
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
