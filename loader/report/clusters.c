// SPDX-License-Identifier: GPL-2.0
/* The clusters osdhist has met, by fsid (clusters.h). */
#include <stdio.h>
#include <string.h>

#include "ceph/asok_find.h"
#include "clusters.h"

static char fsids[CLUSTERS_MAX][ASOK_FSID_LEN + 1];
static int n = 1;	/* index 0: unknown */

int cluster_index(const char *fsid)
{
	if (!fsid || !fsid[0])
		return 0;
	for (int i = 1; i < n; i++)
		if (!strcmp(fsids[i], fsid))
			return i;
	if (n == CLUSTERS_MAX)
		return 0;
	snprintf(fsids[n], sizeof(fsids[n]), "%s", fsid);
	return n++;
}

const char *cluster_fsid(int i)
{
	return i > 0 && i < n ? fsids[i] : "";
}

bool clusters_several(void)
{
	return n > 2;
}

void clusters_reset(void)
{
	n = 1;
}
