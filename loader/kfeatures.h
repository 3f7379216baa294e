/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_KFEATURES_H
#define OSDHIST_KFEATURES_H

#include <stdbool.h>
#include "report/report.h"	/* struct variant */

/*
 * What the running kernel can do for bpf/, asked of the kernel itself at
 * start-up, never read off `uname -r`: Red Hat's 5.14 kernels carry BPF
 * rebased to 6.x, so a release number says nothing.
 *
 * One row per feature, X(id, name, required, what):
 *   name      the word the test build's OSDHIST_TEST_NO_FEATURES takes and
 *             the refusal names
 *   required  without it osdhist cannot trace at all (one line, exit 1);
 *             the others have a fallback (struct variant)
 *   what      how the refusal and docs describe it
 */
#define OSDHIST_KFEATURES(X)						\
	X(KF_UPROBES, "uprobes", true,					\
	  "uprobe events (/sys/bus/event_source/devices/uprobe, "	\
	  "CONFIG_UPROBE_EVENTS)")					\
	X(KF_BTF, "btf", true,						\
	  "kernel BTF (/sys/kernel/btf/vmlinux, CONFIG_DEBUG_INFO_BTF; "	\
	  "in a container, /sys mounted)")				\
	X(KF_COOKIE, "bpf_cookie", true,				\
	  "BPF cookies (the bpf_get_attach_cookie helper of kprobe "	\
	  "programs)")					\
	X(KF_TAI, "tai_helper", false,					\
	  "the bpf_ktime_get_tai_ns helper")				\
	X(KF_LOOP, "bpf_loop", false, "the bpf_loop helper")		\
	X(KF_MULTI, "uprobe_multi", false,				\
	  "uprobe_multi links with process filtering")

#define OSDHIST_KF_ENUM(id, name, req, what) id,
enum kfeature { OSDHIST_KFEATURES(OSDHIST_KF_ENUM) NR_KFEATURES };
#undef OSDHIST_KF_ENUM

extern const char *const kfeature_name[NR_KFEATURES];
extern const char *const kfeature_what[NR_KFEATURES];

struct kfeatures {
	bool have[NR_KFEATURES];
	bool probed;	/* false: the bpf() syscall was refused (no privilege) */
};

/* Asks the kernel (the test build may then take features away:
 * OSDHIST_TEST_NO_FEATURES).  Prints nothing. */
void kfeatures_probe(struct kfeatures *kf);

/* The first required feature the kernel lacks, or -1. */
int kfeatures_missing(const struct kfeatures *kf);

/* Probes, and refuses a kernel that lacks a required feature with one line
 * on stderr naming it.  0 or -ENOTSUP. */
int kfeatures_require(struct kfeatures *kf);

/* The variant that fits kf; perf_uprobes: the user asked for them. */
struct variant kfeatures_variant(const struct kfeatures *kf, bool perf_uprobes);

#endif
