// SPDX-License-Identifier: GPL-2.0
/* A report as each output prints it, for the tests that look at all three. */
#include <stdio.h>
#include "unit.h"
#include "output/prom.h"
#include "report/report.h"
#include "output/render.h"

char *unit_render(int kind, const struct report *r)
{
	static char *buf;	/* static: open_memstream keeps its address */
	static size_t len;
	struct prom_buckets b;
	FILE *f;

	buf = NULL;
	f = open_memstream(&buf, &len);
	if (kind == 't' || kind == 'T')
		render_text(f, r, kind == 'T', kind == 'T');
	else if (kind == 'j')
		render_json(f, r);
	else if (kind == 'b')
		render_table(f, r, &(struct table_opts){ TABLE_BY_OSD, TABLE_WIDTH, false });
	else {
		prom_default_buckets(&b);
		render_prom(f, r, &b, "9.9");
	}
	fclose(f);
	return buf;
}
