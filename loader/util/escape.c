// SPDX-License-Identifier: GPL-2.0
/* Escaping of process-controlled strings for each output (see escape.h). */
#include <string.h>

#include "escape.h"

/* One byte in the text form: "c", "\\n" or "\\xNN" (at most 4 chars + NUL). */
static size_t text_byte(unsigned char c, char out[5])
{
	static const char hex[] = "0123456789abcdef";

	if (c >= 0x20 && c < 0x7f && c != '\\') {
		out[0] = c;
		return 1;
	}
	out[0] = '\\';
	switch (c) {
	case '\\': out[1] = '\\'; return 2;
	case '\n': out[1] = 'n'; return 2;
	case '\t': out[1] = 't'; return 2;
	case '\r': out[1] = 'r'; return 2;
	}
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}

const char *esc_text(const char *s, char *out, size_t size)
{
	size_t o = 0, keep = 0;	/* keep: the last end that leaves room for "..." */
	char b[5];

	for (; s && *s; s++) {
		size_t n = text_byte((unsigned char)*s, b);

		if (o + n >= size) {
			memcpy(out + keep, "...", 3);
			o = keep + 3;
			break;
		}
		memcpy(out + o, b, n);
		o += n;
		if (o + 3 < size)
			keep = o;
	}
	out[o] = 0;
	return out;
}

/* The code point of the valid UTF-8 sequence at s, its length in *len;
 * -1 if s does not start one (RFC 3629: no overlong form, no surrogate,
 * nothing above U+10FFFF). */
static long utf8_at(const unsigned char *s, size_t *len)
{
	static const long min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	long cp;

	if (!n || s[0] > 0xf4)
		return -1;
	cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at the NUL */
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = n;
	return cp;
}

void esc_json(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		size_t n = 1;
		long cp = *s;

		if (*s >= 0x80 && (cp = utf8_at(s, &n)) < 0)
			cp = 0xfffd;
		s += n;
		if (cp == '"' || cp == '\\')
			fprintf(f, "\\%c", (int)cp);
		else if (cp == '\n')
			fputs("\\n", f);
		else if (cp == '\t')
			fputs("\\t", f);
		else if (cp == '\r')
			fputs("\\r", f);
		else if (cp >= 0x20 && cp < 0x7f)
			fputc((int)cp, f);
		else if (cp < 0x10000)
			fprintf(f, "\\u%04lx", cp);
		else			/* a UTF-16 surrogate pair */
			fprintf(f, "\\u%04lx\\u%04lx", 0xd800 + ((cp - 0x10000) >> 10),
				0xdc00 + ((cp - 0x10000) & 0x3ff));
	}
	fputc('"', f);
}

void esc_prom(FILE *f, const char *s)
{
	char b[5];

	for (; s && *s; s++) {
		size_t n = text_byte((unsigned char)*s, b);

		/* the exposition format's own escapes: \\ and \" (text_byte
		 * never leaves a raw newline, the third one) */
		for (size_t i = 0; i < n; i++) {
			if (b[i] == '\\' || b[i] == '"')
				fputc('\\', f);
			fputc(b[i], f);
		}
	}
}
