// SPDX-License-Identifier: GPL-2.0
/* Kernel feature probes: what this kernel's BPF can do, asked of the kernel
 * (kfeatures.h).  No release number is read anywhere. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "kfeatures.h"
#include "util/testhooks.h"

#define OSDHIST_KF_NAME(id, name, req, what) [id] = name,
const char *const kfeature_name[NR_KFEATURES] = { OSDHIST_KFEATURES(OSDHIST_KF_NAME) };
#undef OSDHIST_KF_NAME
#define OSDHIST_KF_WHAT(id, name, req, what) [id] = what,
const char *const kfeature_what[NR_KFEATURES] = { OSDHIST_KFEATURES(OSDHIST_KF_WHAT) };
#undef OSDHIST_KF_WHAT
#define OSDHIST_KF_REQ(id, name, req, what) [id] = req,
static const bool kfeature_required[NR_KFEATURES] = { OSDHIST_KFEATURES(OSDHIST_KF_REQ) };
#undef OSDHIST_KF_REQ

/* bpf/'s programs are uprobes, which the kernel types as kprobe programs:
 * a helper counts only if that program type may call it. */
static bool kprobe_helper(enum bpf_func_id id)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, id, NULL) == 1;
}

/*
 * uprobe_multi links.  There is no public libbpf probe, so this asks as
 * libbpf does internally: a kprobe-type program of expected attach type
 * BPF_TRACE_UPROBE_MULTI, linked to a directory ("/").  A kernel with these
 * links gets as far as opening the path as a binary and says EBADF; one
 * without them refuses the attach type first (EINVAL).  The first kernels
 * with the links filtered by thread, not by process (with -p osdhist would
 * see only the OSD's main thread); the fixed ones check pid before the
 * path, so pid -1 gets EINVAL there and EBADF on the unfixed ones.
 * 0 with the answer in *have, or -errno when the kernel lets us load no
 * program to ask with (EPERM, EACCES).
 */
static int uprobe_multi_links(bool *have)
{
	struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, lo,
		    .expected_attach_type = BPF_TRACE_UPROBE_MULTI);
	unsigned long off = 0;
	LIBBPF_OPTS(bpf_link_create_opts, co);
	int prog, link, e1, e2;

	prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "osdhist_probe", "GPL", ret0,
			     sizeof(ret0) / sizeof(ret0[0]), &lo);
	*have = false;
	if (prog < 0)
		return errno == EPERM || errno == EACCES ? -errno : 0;
	co.uprobe_multi.path = "/";
	co.uprobe_multi.offsets = &off;
	co.uprobe_multi.cnt = 1;
	link = bpf_link_create(prog, -1, BPF_TRACE_UPROBE_MULTI, &co);
	e1 = errno;
	if (link >= 0)
		close(link);
	co.uprobe_multi.pid = -1;
	link = bpf_link_create(prog, -1, BPF_TRACE_UPROBE_MULTI, &co);
	e2 = errno;
	if (link >= 0)
		close(link);
	close(prog);
	*have = e1 == EBADF && e2 == EINVAL;
	return 0;
}

void kfeatures_probe(struct kfeatures *kf)
{
	memset(kf, 0, sizeof(*kf));
	kf->have[KF_UPROBES] = !access("/sys/bus/event_source/devices/uprobe/type", F_OK);
	/* vmlinux.h marks every kernel struct preserve_access_index, so even
	 * bpf/'s reads of pt_regs are CO-RE relocations, which libbpf resolves
	 * against this file when it loads the programs: without it the load
	 * fails with ESRCH, which said nothing (a container without /sys). */
	kf->have[KF_BTF] = !access("/sys/kernel/btf/vmlinux", R_OK);
	kf->have[KF_COOKIE] = kprobe_helper(BPF_FUNC_get_attach_cookie);
	kf->have[KF_TAI] = kprobe_helper(BPF_FUNC_ktime_get_tai_ns);
	kf->have[KF_LOOP] = kprobe_helper(BPF_FUNC_loop);
	kf->probed = uprobe_multi_links(&kf->have[KF_MULTI]) >= 0;
	testhook_features(kf->have, kfeature_name, NR_KFEATURES);
}

int kfeatures_missing(const struct kfeatures *kf)
{
	for (int i = 0; i < NR_KFEATURES; i++)
		if (kfeature_required[i] && !kf->have[i])
			return i;
	return -1;
}

int kfeatures_require(struct kfeatures *kf)
{
	int m;

	kfeatures_probe(kf);
	m = kfeatures_missing(kf);
	/* Without the privilege to load a program the kernel answered none
	 * of the BPF probes: loading bpf/ then says what is missing.  The
	 * files (uprobes, btf) are answers whatever the privilege. */
	if (m < 0 || (m != KF_UPROBES && m != KF_BTF && !kf->probed))
		return 0;
	/* Before anything is loaded, so -v adds no libbpf output to it. */
	fprintf(stderr, "osdhist: this kernel lacks %s; osdhist cannot trace "
		"without it (feature probe '%s')\n", kfeature_what[m], kfeature_name[m]);
	return -ENOTSUP;
}

struct variant kfeatures_variant(const struct kfeatures *kf, bool perf_uprobes)
{
	return (struct variant){
		.clock = kf->have[KF_TAI] ? "tai" : "mono+offset",
		.scan = kf->have[KF_LOOP] ? "bpf_loop" : "loop",
		.uprobes = kf->have[KF_MULTI] && !perf_uprobes ? "multi" : "perf",
	};
}
