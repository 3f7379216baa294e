/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_TEXT_LINES_H
#define OSDHIST_TEXT_LINES_H

/* Lines the text output and the table (render.h) both print, word for
 * word, so that an operator greps one wording whichever view runs. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "report/report.h"
#include "report/verify_report.h"

/* The health line, newline included: "health: 4 osd, 1 binary, ...; no op
 * lost", "!! " first and the losses named when any op was not followed. */
void text_health(FILE *f, const struct health_report *h);

/* "!! VERIFY MISMATCH osd.13 class write: ..." for class k of verify.h's
 * classes of the OSD named name, newline included. */
void text_mismatch(FILE *f, const char *name, int k,
		   const struct verify_class_report *c);

/* -T: the local time t (unix seconds) as HH:MM:SS, on a line of its own. */
/* Local time t as HH:MM:SS, or (date) YYYY-MM-DD HH:MM:SS.mmm, in out
 * (32 bytes hold either). */
void text_clock(char *out, size_t size, double t, bool date);
void text_timestamp(FILE *f, double t);

#endif
