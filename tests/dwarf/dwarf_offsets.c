// SPDX-License-Identifier: GPL-2.0
/*
 * The test oracle for osdhist's derived offsets: the same offsets read from
 * a ceph-osd's DWARF (Debian's ceph-osd-dbg), with libdw.
 *
 *   dwarf_offsets BINARY DEBUGFILE
 *
 * prints one line per offset, in the names of struct osd_offsets
 * (maps/osdhist.h) and in the format of `osdhist --inspect -v`:
 *
 *   op_request = 0x108  (DWARF: OpRequest.request)
 *
 * Struct offsets are from the object's start, members of base classes
 * included (DW_TAG_inheritance offsets are added).  The stack offsets sp_*
 * come from the DW_AT_location of the function's parameter at its entry
 * address: DW_OP_fbreg N with the frame base DW_OP_call_frame_cfa, and the
 * CFA at entry is %rsp + 8 (the return address), so the slot is at entry
 * %rsp + 8 + N.  An AArch64 BINARY (e_machine EM_AARCH64) is read the same
 * way with AAPCS64's facts: the CFA at entry is sp itself (slot sp + N),
 * x0..x7 carry the arguments, x8 a returned aggregate's address, and an
 * aggregate over 16 bytes travels as a pointer to a copy.  The function's address comes from BINARY's .dynsym, the
 * same symbol osdhist probes.  An offset DWARF cannot tell is printed as
 * "NAME = ?  (why)", and the exit status is then 1.
 *
 * DWARF checks the method; it is never the method (DESIGN.md).  This tool
 * is only built for the tests.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The types osdhist reads, by qualified name ("::" between scopes). */
enum { T_OPREQUEST, T_OPINFO, T_MESSAGE, T_MSGHDR, T_REPMODIFY, T_MOSDOP, T_OSDOP,
       T_BL, T_PTR_NODE, T_PTR, T_RAW, T_HOBJECT, NR_TYPES };
static const char *const type_name[NR_TYPES] = {
	[T_OPREQUEST] = "OpRequest",
	[T_OPINFO] = "OpInfo",
	[T_MESSAGE] = "Message",
	[T_MSGHDR] = "ceph_msg_header",
	[T_REPMODIFY] = "ReplicatedBackend::RepModify",
	[T_MOSDOP] = "_mosdop::MOSDOp<std::vector<OSDOp, std::allocator<OSDOp> > >",
	[T_OSDOP] = "OSDOp",
	[T_BL] = "ceph::buffer::v15_2_0::list",
	[T_PTR_NODE] = "ceph::buffer::v15_2_0::ptr_node",
	[T_PTR] = "ceph::buffer::v15_2_0::ptr",
	[T_RAW] = "ceph::buffer::v15_2_0::raw",
	[T_HOBJECT] = "hobject_t",
};

struct found {
	Dwarf_Die die;
	bool ok;
};
static struct found types[NR_TYPES];
static int nr_found;

/* Does the qualified name Q start with SCOPE::NAME's path?  PREFIX is the
 * path of the enclosing scopes walked so far ("" at CU level).  Returns 2 for
 * a full match, 1 when Q goes on inside this scope, 0 otherwise. */
static int match(const char *q, const char *prefix, const char *name)
{
	size_t pl = strlen(prefix), nl = strlen(name);

	if (pl) {
		if (strncmp(q, prefix, pl) || strncmp(q + pl, "::", 2))
			return 0;
		q += pl + 2;
	}
	if (strncmp(q, name, nl))
		return 0;
	if (!q[nl])
		return 2;
	return !strncmp(q + nl, "::", 2) ? 1 : 0;
}

/* Walks the scopes (namespaces, classes) under PARENT whose path leads to a
 * wanted type, and records each wanted type's first full definition. */
static void walk(Dwarf_Die *parent, const char *prefix, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(parent, &child))
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *name;
		char path[512];
		bool scope = false;

		if (tag != DW_TAG_namespace && tag != DW_TAG_class_type &&
		    tag != DW_TAG_structure_type)
			continue;
		name = dwarf_diename(&child);
		if (!name)
			continue;
		for (int t = 0; t < NR_TYPES; t++) {
			int m = match(type_name[t], prefix, name);

			if (m == 1)
				scope = true;
			else if (m == 2 && !types[t].ok && tag != DW_TAG_namespace &&
				 !dwarf_hasattr(&child, DW_AT_declaration) &&
				 dwarf_hasattr(&child, DW_AT_byte_size)) {
				types[t].die = child;
				types[t].ok = true;
				nr_found++;
			}
		}
		if (scope) {
			snprintf(path, sizeof(path), "%s%s%s", prefix, *prefix ? "::" : "", name);
			walk(&child, path, depth + 1);
		}
	} while (nr_found < NR_TYPES && dwarf_siblingof(&child, &child) == 0);
}

static void find_types(Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	size_t hsize;

	while (nr_found < NR_TYPES &&
	       dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(dw, off + hsize, &cu))
			walk(&cu, "", 0);
		off = next;
	}
}

/* Offset of member NAME in the struct DIE, searching base classes too. */
static int member_offset(Dwarf_Die *st, const char *name, Dwarf_Word *out, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(st, &child))
		return -1;
	do {
		Dwarf_Attribute a;
		Dwarf_Word off = 0;
		int tag = dwarf_tag(&child);
		const char *n = dwarf_diename(&child);

		if (tag == DW_TAG_member && n && !strcmp(n, name)) {
			if (!dwarf_attr(&child, DW_AT_data_member_location, &a) ||
			    dwarf_formudata(&a, &off))
				return -1;	/* a static member, or an expression */
			*out = off;
			return 0;
		}
		if (tag == DW_TAG_inheritance) {
			Dwarf_Die base;
			Dwarf_Word inner;

			if (!dwarf_attr(&child, DW_AT_data_member_location, &a) ||
			    dwarf_formudata(&a, &off) ||
			    !dwarf_attr(&child, DW_AT_type, &a) || !dwarf_formref_die(&a, &base))
				continue;
			if (member_offset(&base, name, &inner, depth + 1) == 0) {
				*out = off + inner;
				return 0;
			}
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return -1;
}

static int failures;

static void print_member(const char *field, int t, const char *member, int t2,
			 const char *member2)
{
	Dwarf_Word a, b = 0;

	if (!types[t].ok || member_offset(&types[t].die, member, &a, 0) ||
	    (member2 && (!types[t2].ok || member_offset(&types[t2].die, member2, &b, 0)))) {
		printf("%s = ?  (DWARF: no %s.%s%s%s)\n", field, type_name[t], member,
		       member2 ? "." : "", member2 ? member2 : "");
		failures++;
		return;
	}
	printf("%s = 0x%" PRIx64 "  (DWARF: %s.%s%s%s)\n", field, (uint64_t)(a + b),
	       type_name[t], member, member2 ? "." : "", member2 ? member2 : "");
}

/* --- paths of members, through anonymous unions and base classes ---------- */

static int strip(Dwarf_Die *t);

/* The direct member NAME of ST ("" for an unnamed one, an anonymous union),
 * or its base class of that name: its offset and its type.  A union's
 * members may have no location: they are at 0. */
static int direct(Dwarf_Die *st, const char *name, Dwarf_Word *off, Dwarf_Die *type)
{
	bool in_union = dwarf_tag(st) == DW_TAG_union_type;
	Dwarf_Die child;

	if (dwarf_child(st, &child))
		return -1;
	do {
		int tag = dwarf_tag(&child);
		const char *n = dwarf_diename(&child);
		Dwarf_Attribute a;

		if (tag == DW_TAG_inheritance) {
			if (!dwarf_attr(&child, DW_AT_type, &a) || !dwarf_formref_die(&a, type) ||
			    strip(type) < 0 || !(n = dwarf_diename(type)) || strcmp(n, name))
				continue;
		} else if (tag != DW_TAG_member || (*name ? !n || strcmp(n, name) : n != NULL)) {
			continue;
		}
		*off = 0;
		if (dwarf_attr(&child, DW_AT_data_member_location, &a)) {
			if (dwarf_formudata(&a, off))
				return -1;
		} else if (!in_union) {
			return -1;
		}
		if (!dwarf_attr_integrate(&child, DW_AT_type, &a) || !dwarf_formref_die(&a, type) ||
		    strip(type) < 0)
			return -1;
		return 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	return -1;
}

/* FIELD = the offset of the member path (NULL-terminated, "." joined in
 * the message) from type T. */
static void print_path(const char *field, int t, const char *const *path)
{
	Dwarf_Die cur = types[t].die, next;
	Dwarf_Word total = 0, off;
	char shown[256] = "";
	size_t o = 0;
	int ok = types[t].ok;

	for (int i = 0; path[i]; i++) {
		o += (size_t)snprintf(shown + o, o < sizeof(shown) ? sizeof(shown) - o : 0, ".%s",
				      *path[i] ? path[i] : "(union)");
		if (ok && direct(&cur, path[i], &off, &next) == 0) {
			total += off;
			cur = next;
		} else {
			ok = 0;
		}
	}
	if (!ok) {
		printf("%s = ?  (DWARF: no %s%s)\n", field, type_name[t], shown);
		failures++;
		return;
	}
	printf("%s = 0x%" PRIx64 "  (DWARF: %s%s)\n", field, (uint64_t)total, type_name[t], shown);
}

/* --- stack offsets of parameters at function entry ------------------------ */

/* Every defined symbol of BINARY's .dynsym whose name starts with PREFIX. */
struct sym { char *name; Dwarf_Addr addr; };

/* BINARY is AArch64 code (AAPCS64) rather than x86-64 (SysV). */
static bool arm64;

/* The CFA at entry minus the entry stack pointer: the return address on
 * x86-64, nothing on AArch64 (it is in x30). */
#define CFA_AT_ENTRY	(arm64 ? 0 : 8)
/* The stack pointer as the architecture's assembly names it. */
#define SP_NAME		(arm64 ? "sp" : "%rsp")

static int symbols(const char *bin, const char *prefix, struct sym *out, int max)
{
	int fd = open(bin, O_RDONLY | O_CLOEXEC), n = 0;
	Elf *elf;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return 0;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	{
		GElf_Ehdr eh;

		if (elf && gelf_getehdr(elf, &eh))
			arm64 = eh.e_machine == EM_AARCH64;
	}
	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && n < max && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, i, &s) || !s.st_value ||
			    GELF_ST_TYPE(s.st_info) != STT_FUNC)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && !strncmp(name, prefix, strlen(prefix))) {
				out[n].name = strdup(name);
				out[n++].addr = s.st_value;
			}
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return n;
}

/* The name of a parameter's type with typedefs and cv-qualifiers removed. */
static const char *param_type(Dwarf_Die *param)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	if (!dwarf_attr_integrate(param, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
		return NULL;
	for (int i = 0; i < 8; i++) {
		int tag = dwarf_tag(&t);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type)
			return dwarf_diename(&t);
		if (!dwarf_attr_integrate(&t, DW_AT_type, &a) || !dwarf_formref_die(&a, &t))
			return NULL;
	}
	return NULL;
}

/* Does the subprogram's code start at ADDR?  DW_AT_low_pc, or one of its
 * DW_AT_ranges when GCC split it into hot and cold parts. */
static bool starts_at(Dwarf_Die *die, Dwarf_Addr addr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	if (dwarf_lowpc(die, &start) == 0)
		return start == addr;
	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (start == addr)
			return true;
	return false;
}

/* The subprogram DIE whose code starts at ADDR, anywhere under PARENT. */
static int find_subprogram(Dwarf_Die *parent, Dwarf_Addr addr, Dwarf_Die *out, int depth)
{
	Dwarf_Die child;

	if (depth > 8 || dwarf_child(parent, &child))
		return -1;
	do {
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_subprogram && dwarf_haspc(&child, addr) > 0 &&
		    starts_at(&child, addr)) {
			*out = child;
			return 0;
		}
		if ((tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
		     tag == DW_TAG_structure_type) &&
		    find_subprogram(&child, addr, out, depth + 1) == 0)
			return 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	return -1;
}

/* --- the same slot from the SysV x86-64 calling convention ----------------
 * When GCC describes a parameter only after the prologue has loaded it into
 * registers (18.2.7's enqueue_op: spg_t pg has no location at entry), its
 * entry slot follows from the parameters' DWARF types: INTEGER arguments take
 * %rdi..%r9, MEMORY ones (trivially copyable aggregates over 16 bytes) go on
 * the stack from entry %rsp + 8 in order, and a class that is not trivially
 * copyable travels as a pointer to a copy (invisible reference). */

static int strip(Dwarf_Die *t)
{
	Dwarf_Attribute a;

	for (int i = 0; i < 16; i++) {
		int tag = dwarf_tag(t);

		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type)
			return tag;
		if (!dwarf_attr_integrate(t, DW_AT_type, &a) || !dwarf_formref_die(&a, t))
			return -1;
	}
	return -1;
}

/* Not trivially copyable: a user-provided destructor or copy constructor
 * (declared, not artificial, not defaulted in the class), or a base or
 * member that is not. */
static bool nontrivial(Dwarf_Die *cls, int depth)
{
	Dwarf_Die c;
	const char *cname = dwarf_diename(cls);
	size_t cl = cname ? strcspn(cname, "<") : 0;

	if (depth > 8 || dwarf_child(cls, &c))
		return false;
	do {
		int tag = dwarf_tag(&c);
		Dwarf_Attribute a;
		Dwarf_Die t;

		if (tag == DW_TAG_subprogram) {
			const char *n = dwarf_diename(&c);
			Dwarf_Word dflt = 0;

			if (!n || dwarf_hasattr(&c, DW_AT_artificial))
				continue;
			if (dwarf_attr(&c, DW_AT_defaulted, &a))
				dwarf_formudata(&a, &dflt);
			if (dflt == DW_DEFAULTED_in_class)
				continue;
			if (n[0] == '~')
				return true;
			if (cl && !strncmp(n, cname, cl) && !n[cl]) {
				/* a constructor: a copy one takes (this, const X&) */
				Dwarf_Die p;
				int np = 0;
				bool copy = false;

				if (dwarf_child(&c, &p))
					continue;
				do {
					if (dwarf_tag(&p) != DW_TAG_formal_parameter)
						continue;
					np++;
					if (np == 2 && dwarf_attr(&p, DW_AT_type, &a) &&
					    dwarf_formref_die(&a, &t) &&
					    dwarf_tag(&t) == DW_TAG_reference_type &&
					    dwarf_attr(&t, DW_AT_type, &a) &&
					    dwarf_formref_die(&a, &t) && strip(&t) >= 0 &&
					    dwarf_diename(&t) && !strcmp(dwarf_diename(&t), cname))
						copy = true;
				} while (dwarf_siblingof(&p, &p) == 0);
				if (copy && np == 2)
					return true;
			}
			continue;
		}
		if ((tag == DW_TAG_inheritance ||
		     (tag == DW_TAG_member && !dwarf_hasattr(&c, DW_AT_external) &&
		      !dwarf_hasattr(&c, DW_AT_declaration))) &&
		    dwarf_attr(&c, DW_AT_type, &a) && dwarf_formref_die(&a, &t)) {
			int tt = strip(&t);

			if ((tt == DW_TAG_class_type || tt == DW_TAG_structure_type ||
			     tt == DW_TAG_union_type) && nontrivial(&t, depth + 1))
				return true;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* Does the aggregate hold a floating-point scalar (SSE class)? */
static bool has_float(Dwarf_Die *t, int depth)
{
	Dwarf_Die c;
	Dwarf_Attribute a;
	Dwarf_Word enc;
	int tag = strip(t);

	if (tag == DW_TAG_base_type)
		return dwarf_attr(t, DW_AT_encoding, &a) && !dwarf_formudata(&a, &enc) &&
		       (enc == DW_ATE_float || enc == DW_ATE_complex_float);
	if (tag == DW_TAG_array_type) {
		Dwarf_Die e;
		return dwarf_attr(t, DW_AT_type, &a) && dwarf_formref_die(&a, &e) &&
		       has_float(&e, depth + 1);
	}
	if ((tag != DW_TAG_class_type && tag != DW_TAG_structure_type &&
	     tag != DW_TAG_union_type) || depth > 8 || dwarf_child(t, &c))
		return false;
	do {
		Dwarf_Die mt;
		int ct = dwarf_tag(&c);

		if ((ct == DW_TAG_member || ct == DW_TAG_inheritance) &&
		    !dwarf_hasattr(&c, DW_AT_external) &&
		    dwarf_attr(&c, DW_AT_type, &a) && dwarf_formref_die(&a, &mt) &&
		    has_float(&mt, depth + 1))
			return true;
	} while (dwarf_siblingof(&c, &c) == 0);
	return false;
}

/* Offset of pgid.m_pool in the spg_t DIE st: where the pool is in the
 * copy AAPCS64 passes a pointer to. */
static int pool_offset(Dwarf_Die *st, int64_t *out)
{
	Dwarf_Die child, t;
	Dwarf_Attribute a;
	Dwarf_Word o1, o2;

	if (member_offset(st, "pgid", &o1, 0) || dwarf_child(st, &child))
		return -1;
	do {
		const char *n = dwarf_diename(&child);

		if (dwarf_tag(&child) != DW_TAG_member || !n || strcmp(n, "pgid"))
			continue;
		if (!dwarf_attr_integrate(&child, DW_AT_type, &a) || !dwarf_formref_die(&a, &t) ||
		    strip(&t) < 0 || member_offset(&t, "m_pool", &o2, 0))
			return -1;
		*out = (int64_t)(o1 + o2);
		return 0;
	} while (dwarf_siblingof(&child, &child) == 0);
	return -1;
}

/* The parameter's entry stack slot (0), or (1, AAPCS64) the register x*reg
 * holding a pointer to its copy, *slot then the pool's offset in it (the
 * only by-reference parameter osdhist reads is the spg_t). */
static int abi_slot(Dwarf_Die *sp, const char *type, int64_t *slot, const char **why,
		    int *reg)
{
	Dwarf_Die c, t;
	Dwarf_Attribute a;
	int regs = 0, nregs = arm64 ? 8 : 6;
	int64_t stack = CFA_AT_ENTRY;

	/* a returned aggregate in memory takes %rdi for its address (AArch64:
	 * x8, no argument register) */
	if (!arm64 && dwarf_attr_integrate(sp, DW_AT_type, &a) && dwarf_formref_die(&a, &t)) {
		int tag = strip(&t);
		Dwarf_Word sz = 0;

		if ((tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
		     tag == DW_TAG_union_type) &&
		    (nontrivial(&t, 0) || (dwarf_aggregate_size(&t, &sz) == 0 && sz > 16)))
			regs = 1;
	}
	if (dwarf_child(sp, &c)) {
		*why = "no parameters";
		return -1;
	}
	do {
		const char *tn;
		Dwarf_Word sz = 0;
		int tag, need;

		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		if (!dwarf_attr_integrate(&c, DW_AT_type, &a) || !dwarf_formref_die(&a, &t) ||
		    (tag = strip(&t)) < 0) {
			*why = "a parameter has no type";
			return -1;
		}
		tn = dwarf_diename(&t);
		if (tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
		    tag == DW_TAG_union_type) {
			if (nontrivial(&t, 0)) {
				need = 1;		/* invisible reference */
			} else if (dwarf_aggregate_size(&t, &sz) || has_float(&t, 0)) {
				*why = "an aggregate with floating point before it";
				return -1;
			} else if (sz > 16 && arm64) {
				need = 1;		/* a pointer to a copy */
				if (tn && !strcmp(tn, type) && regs + need <= nregs) {
					if (pool_offset(&t, slot)) {
						*why = "AAPCS64 passes it by reference, and it has no pgid.m_pool";
						return -1;
					}
					*reg = regs;
					return 1;
				}
			} else if (sz > 16) {
				if (tn && !strcmp(tn, type)) {
					*slot = stack;
					return 0;
				}
				stack += (int64_t)((sz + 7) & ~7ULL);
				continue;
			} else {
				need = (int)((sz + 7) / 8);
			}
		} else if (tag == DW_TAG_base_type && has_float(&t, 0)) {
			continue;			/* SSE: no integer register */
		} else {
			need = 1;
		}
		if (regs + need <= nregs) {
			regs += need;
			if (tn && !strcmp(tn, type)) {
				*why = "the parameter travels in registers";
				return -1;
			}
		} else {
			if (arm64)
				regs = nregs;	/* C.13: no later argument in x0..x7 */
			if (tn && !strcmp(tn, type)) {
				*slot = stack;
				return 0;
			}
			stack += 8 * need;
		}
	} while (dwarf_siblingof(&c, &c) == 0);
	*why = "no parameter of that type";
	return -1;
}

/* The entry %rsp offset of the parameter of type TYPE of the function at
 * ADDR, from its location at entry (DW_OP_fbreg) and from the calling
 * convention; both when DWARF tells both, and they must agree.  0 and a
 * line on stdout, or -1 with the reason in *why. */
static int param_slot(Dwarf *dw, Dwarf_Addr addr, const char *type, const char *field,
		      const char *fn, const char **why)
{
	Dwarf_Die cu, sp, child;
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;
	const char *pname = "?", *loc_why = "no parameter of that type", *abi_why;
	int64_t loc = -1, abi = -1;
	int reg = -1;
	bool deref = false;

	if (!dwarf_addrdie(dw, addr, &cu) || find_subprogram(&cu, addr, &sp, 0)) {
		*why = "no subprogram at the symbol's address";
		return -1;
	}
	/* The frame base must be the CFA for fbreg to mean "entry %rsp + 8". */
	if (!dwarf_attr(&sp, DW_AT_frame_base, &a) || dwarf_getlocation(&a, &ops, &nops) ||
	    nops != 1 || ops[0].atom != DW_OP_call_frame_cfa) {
		loc_why = "the frame base is not DW_OP_call_frame_cfa";
	} else if (dwarf_child(&sp, &child) == 0) {
		do {
			const char *t;

			if (dwarf_tag(&child) != DW_TAG_formal_parameter)
				continue;
			t = param_type(&child);
			if (!t || strcmp(t, type))
				continue;
			pname = dwarf_diename(&child);	/* follows abstract_origin */
			if (!dwarf_attr_integrate(&child, DW_AT_location, &a) ||
			    dwarf_getlocation_addr(&a, addr, &ops, &nops, 1) != 1 || nops < 1)
				loc_why = "no location at entry";
			else if (ops[0].atom != DW_OP_fbreg)
				loc_why = "not DW_OP_fbreg at entry";
			else {
				loc = CFA_AT_ENTRY + (int64_t)ops[0].number;
				deref = nops > 1 && ops[1].atom == DW_OP_deref;
			}
			break;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	switch (abi_slot(&sp, type, &abi, &abi_why, &reg)) {
	case 0:
		break;
	case 1:
		/* by reference: the pool past the pointer, where bpf/ reads it
		 * (bpf/arch.bpf.h).  Its location lists are var-tracking's, not
		 * the entry's (16.2.15's name x21, set after the prologue) */
		printf("%s = 0x%" PRIx64 "  (DWARF: %s's %s %s by reference in x%d (AAPCS64), "
		       "pgid.m_pool at +%" PRId64 " of the copy)\n",
		       field, (uint64_t)abi, fn, type, pname ? pname : "?", reg, abi);
		return 0;
	default:
		abi = -1;
	}
	if (loc < 0 && abi < 0) {
		static char buf[256];

		snprintf(buf, sizeof(buf), "location: %s; calling convention: %s", loc_why, abi_why);
		*why = buf;
		return -1;
	}
	if (loc >= 0 && abi >= 0 && loc != abi) {
		static char buf[256];

		snprintf(buf, sizeof(buf), "location at entry says %s + %" PRId64
			 ", the calling convention %s + %" PRId64, SP_NAME, loc, SP_NAME, abi);
		*why = buf;
		return -1;
	}
	printf("%s = 0x%" PRIx64 "  (DWARF: %s's %s %s at entry %s + %" PRId64 ": ",
	       field, (uint64_t)(loc >= 0 ? loc : abi), fn, type, pname ? pname : "?",
	       SP_NAME, loc >= 0 ? loc : abi);
	if (loc >= 0)
		printf("DW_OP_fbreg %" PRId64 "%s", loc - CFA_AT_ENTRY, deref ? " deref" : "");
	else
		printf("location: %s", loc_why);
	if (abi >= 0)
		printf("; %s calling convention from the parameter types: %s + %" PRId64,
		       arm64 ? "AAPCS64" : "SysV", SP_NAME, abi);
	else
		printf("; calling convention: %s", abi_why);
	printf(")\n");
	return 0;
}

/* One line per function of BINARY whose mangled name starts with PREFIX;
 * none, and no failure, when an optional function is absent. */
static void print_param(Dwarf *dw, const char *bin, const char *field, const char *fn,
			const char *prefix, const char *type, bool optional)
{
	struct sym syms[8];
	int n = symbols(bin, prefix, syms, 8);
	const char *why = "the function is not in the binary's .dynsym";

	for (int i = 0; i < n; i++) {
		if (param_slot(dw, syms[i].addr, type, field, fn, &why)) {
			printf("%s = ?  (DWARF: %s at 0x%" PRIx64 ", parameter %s: %s)\n", field,
			       fn, (uint64_t)syms[i].addr, type, why);
			failures++;
		}
		free(syms[i].name);
	}
	if (!n && !optional) {
		printf("%s = ?  (DWARF: %s: %s)\n", field, fn, why);
		failures++;
	}
}

int main(int argc, char **argv)
{
	Dwarf_Word sz;
	Dwarf *dw;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: dwarf_offsets BINARY DEBUGFILE\n");
		return 2;
	}
	elf_version(EV_CURRENT);
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "dwarf_offsets: cannot open %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	dw = dwarf_begin(fd, DWARF_C_READ);
	if (!dw) {
		fprintf(stderr, "dwarf_offsets: %s has no DWARF: %s\n", argv[2], dwarf_errmsg(-1));
		return 1;
	}
	find_types(dw);
	print_member("op_request", T_OPREQUEST, "request", 0, NULL);
	print_member("op_rmw", T_OPREQUEST, "op_info", T_OPINFO, "rmw_flags");
	print_member("op_dequeued", T_OPREQUEST, "dequeued_time", 0, NULL);
	print_member("msg_type", T_MESSAGE, "header", T_MSGHDR, "type");
	print_member("msg_recv", T_MESSAGE, "recv_stamp", 0, NULL);
	print_member("repmod_op", T_REPMODIFY, "op", 0, NULL);
	print_param(dw, argv[1], "sp_spg", "OSD::enqueue_op",
		    "_ZN3OSD10enqueue_opE5spg_t", "spg_t", false);
	print_param(dw, argv[1], "sp_submit_op", "ReplicatedBackend::submit_transaction",
		    "_ZN17ReplicatedBackend18submit_transactionE", "intrusive_ptr<OpRequest>", false);
	print_param(dw, argv[1], "sp_submit_op", "ECBackend::submit_transaction",
		    "_ZN9ECBackend18submit_transactionE", "intrusive_ptr<OpRequest>", false);
	/* 20.x: erasure-coded writes may go through these instead */
	print_param(dw, argv[1], "sp_submit_op", "ECLegacy::ECBackendL::submit_transaction",
		    "_ZN8ECLegacy10ECBackendL18submit_transactionE", "intrusive_ptr<OpRequest>",
		    true);
	print_param(dw, argv[1], "sp_submit_op", "ECSwitch::submit_transaction",
		    "_ZN8ECSwitch18submit_transactionE", "intrusive_ptr<OpRequest>", true);
	print_member("mosdop_ops", T_MOSDOP, "ops", 0, NULL);
	if (types[T_OSDOP].ok && dwarf_aggregate_size(&types[T_OSDOP].die, &sz) == 0) {
		printf("osdop_size = 0x%" PRIx64 "  (DWARF: sizeof(OSDOp))\n", (uint64_t)sz);
	} else {
		printf("osdop_size = ?  (DWARF: no OSDOp)\n");
		failures++;
	}
	print_member("osdop_rval", T_OSDOP, "rval", 0, NULL);
	print_member("osdop_indata", T_OSDOP, "indata", 0, NULL);
	print_path("osdop_cls", T_OSDOP, (const char *[]){ "op", "", "cls", "class_len", NULL });
	print_path("bl_first", T_BL, (const char *[]){ "_buffers", "_root", "next", NULL });
	print_path("node_ptr", T_PTR_NODE, (const char *[]){ "ptr", NULL });
	print_member("ptr_raw", T_PTR, "_raw", 0, NULL);
	print_member("ptr_off", T_PTR, "_off", 0, NULL);
	print_member("ptr_len", T_PTR, "_len", 0, NULL);
	print_member("raw_data", T_RAW, "data", 0, NULL);
	print_member("op_reqid", T_OPREQUEST, "reqid", 0, NULL);
	print_path("mosdop_oid", T_MOSDOP, (const char *[]){ "hobj", "oid", "name", NULL });
	print_member("mosdop_pgid", T_MOSDOP, "pgid", 0, NULL);
	/* relative to the hobject_t (MOSDOp::hobj, at mosdop_oid) */
	print_member("hobj_snap", T_HOBJECT, "snap", 0, NULL);
	print_member("hobj_revhash", T_HOBJECT, "hash_reverse_bits", 0, NULL);
	print_member("hobj_pool", T_HOBJECT, "pool", 0, NULL);
	print_member("hobj_nspace", T_HOBJECT, "nspace", 0, NULL);
	print_member("hobj_key", T_HOBJECT, "key", 0, NULL);
	dwarf_end(dw);
	close(fd);
	return failures ? 1 : 0;
}
