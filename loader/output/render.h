/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_RENDER_H
#define OSDHIST_RENDER_H

/* The report model (report/report.h) as text and as JSON lines on f: one
 * snapshot each call. */
#include <stdbool.h>
#include <stdio.h>
#include "report/report.h"

void render_text(FILE *f, const struct report *r, bool timestamp, bool millis);
void render_json(FILE *f, const struct report *r);

#endif
