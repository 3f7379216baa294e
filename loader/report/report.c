// SPDX-License-Identifier: GPL-2.0
/* The key maps' names, the loss counters, and --osd's view of a report. */
#include <stdio.h>
#include <stdlib.h>

#include "clusters.h"
#include "report.h"
#include "slowops.h"
#include "verify_report.h"

const char *const keymap_name[NR_KEYMAPS] = {
	[KM_HISTS] = "hists", [KM_PHASE_HISTS] = "phase_hists",
	[KM_OPCOUNTS] = "opcounts", [KM_CALLS] = "calls", [KM_SLOWOPS] = "slowops",
};

bool health_is_loss(int h)
{
#define HEALTH_LOSS(id, name, loss) [id] = loss,
	static const bool loss[NR_HEALTH] = { OSDHIST_HEALTH(HEALTH_LOSS) };
#undef HEALTH_LOSS
	return h >= 0 && h < NR_HEALTH && loss[h];
}

void health_loader_losses(const struct health_report *h,
			  struct loader_loss out[NR_LOADER_LOSSES])
{
	out[0] = (struct loader_loss){ "reaped_dead_proc", h->reaped };
	out[1] = (struct loader_loss){ "drain_timeout", h->drain_timeouts };
	out[2] = (struct loader_loss){ "unknown_proc_ops", h->unknown_ops };
	out[3] = (struct loader_loss){ "evicted", h->evicted };
}

__u64 health_losses(const struct health_report *h)
{
	struct loader_loss ll[NR_LOADER_LOSSES];
	__u64 n = 0;

	health_loader_losses(h, ll);
	for (int i = 0; i < NR_LOADER_LOSSES; i++)
		n += ll[i].value;

	for (int i = 0; i < NR_HEALTH; i++)
		if (health_is_loss(i))
			n += h->bpf[i];
	return n;
}

void *report_keep_osd(struct report *r, int osd)
{
	size_t ns = r->n * sizeof(*r->s), no = r->nopc * sizeof(*r->opc);
	size_t nw = r->nslow * sizeof(*r->slow);
	char *buf = malloc(nw + ns + no + r->nverify * sizeof(*r->verify) + 1);
	struct slow_entry *w = (void *)buf;
	struct series_delta *s = (void *)(buf + nw);
	struct opcode_delta *opc = (void *)(buf + nw + ns);
	struct verify_report *v = (void *)(buf + nw + ns + no);
	int n = 0, nopc = 0, nv = 0, nslow = 0;
	bool all = osd == REPORT_EVERY_OSD;

	if (!buf)
		return NULL;
	for (int i = 0; i < r->n; i++)
		if (all || osd_id_of(r->s[i].osd) == osd)
			s[n++] = r->s[i];
	for (int i = 0; i < r->nopc; i++)
		if (all || osd_id_of(r->opc[i].osd) == osd)
			opc[nopc++] = r->opc[i];
	for (int i = 0; i < r->nverify; i++)
		if (all || osd_id_of(r->verify[i].osd) == osd)
			v[nv++] = r->verify[i];
	for (int i = 0; i < r->nslow; i++)
		if (all || osd_id_of(r->slow[i].osd) == osd)
			w[nslow++] = r->slow[i];
	r->slow = w, r->nslow = nslow;
	r->s = s, r->n = n;
	r->opc = opc, r->nopc = nopc;
	/* NULL stays NULL: the outputs say "self-check off" for it */
	r->verify = r->verify ? v : NULL, r->nverify = nv;
	return buf;
}

void osd_label(char out[OSD_LABEL_MAX], int osd)
{
	const char *fsid = cluster_fsid(osd_cluster_of(osd));

	if (osd < 0)
		snprintf(out, OSD_LABEL_MAX, "osd.%s", osd == OSD_DUPLICATE ? "dup" : "?");
	else if (clusters_several() && fsid[0])
		snprintf(out, OSD_LABEL_MAX, "osd.%d@%.8s", osd_id_of(osd), fsid);
	else
		snprintf(out, OSD_LABEL_MAX, "osd.%d", osd_id_of(osd));
}
