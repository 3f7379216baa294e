/* SPDX-License-Identifier: GPL-2.0 */
#ifndef OSDHIST_ESCAPE_H
#define OSDHIST_ESCAPE_H

/*
 * Every string a process controls (its executable's path, its socket name,
 * the version and build-id read from its binary, its command line, an
 * error message that quotes any of these) goes through one of these before
 * it reaches a terminal, the journal, JSON or Prometheus: a ceph-osd run
 * from a directory named "x\nosd.7 ... traceable" must not print a line of
 * its own.
 *
 * Text (stdout, stderr, hence the journal) is printable ASCII: bytes 0x20 to
 * 0x7e stay, except the backslash (\\); newline, tab and carriage return
 * are \n, \t, \r; every other byte, control or >= 0x7f, is \xNN.  Not
 * "valid UTF-8 passes": valid UTF-8 still holds C1 controls (U+009B is CSI
 * to many terminals), NEL and U+2028 (line breaks to some log viewers) and
 * bidi overrides that reorder what a reader sees; an ASCII-only rule needs
 * no list of those, and is reversible (printf '%b').  A real ceph-osd path
 * is ASCII, so this costs nothing in practice.
 *
 * JSON is ASCII too: the usual short escapes, \u00XX for other controls,
 * \uXXXX (surrogate pairs above U+FFFF) for valid UTF-8, and U+FFFD for
 * each byte that is not part of a valid UTF-8 sequence (overlong forms,
 * UTF-16 surrogates, above U+10FFFF included): a JSON string must be
 * Unicode, so there is no lossless way to carry such a byte.
 *
 * A Prometheus label value holds the text form above, with \ and " escaped
 * as the exposition format wants: what a series shows is what --list
 * shows, it is valid UTF-8 (Prometheus rejects a scrape otherwise), and it
 * holds no line break.
 */
#include <stddef.h>
#include <stdio.h>

/* The longest text esc_text() writes, NUL included; a longer one is cut,
 * and ends in "..." (a PATH_MAX path of plain ASCII fits whole). */
#define ESC_MAX 4200

/* s escaped for text into out[size] (size >= 4), cut with "..." if it does
 * not fit.  NULL reads as "".  Returns out. */
const char *esc_text(const char *s, char *out, size_t size);

/* The one-line form for a message: fprintf(stderr, "... %s\n", ESC(path)).
 * The buffer lives until the end of the enclosing block. */
#define ESC(s) esc_text((s), (char[ESC_MAX]){ 0 }, ESC_MAX)

/* s as a JSON string, quotes included. */
void esc_json(FILE *f, const char *s);

/* s as the inside of a Prometheus label value (no quotes). */
void esc_prom(FILE *f, const char *s);

#endif
