// SPDX-License-Identifier: GPL-2.0
/* --prometheus and --textfile: the exposition of prom.c, rendered once per
 * snapshot by the main loop and handed to the HTTP thread and/or a file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "export.h"
#include "http.h"
#include "prom.h"
#include "util/version.h"

static int textfile_err;	/* the last write's error, reported once */

int textfile_write(const char *path, const char *buf, size_t len)
{
	char tmp[PATH_MAX];
	int fd, err = 0;

	/* path.XXXXXX: same directory (rename is atomic only within a file
	 * system), and not *.prom, which node_exporter would read half-written */
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len && !err) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			buf += n, len -= n;
	}
	/* mkstemp makes it 0600; node_exporter often runs as another user */
	if (!err && (fchmod(fd, 0644) || fsync(fd)))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

/* At start-up: a file can be created beside path, and path is no directory.
 * 0, or -errno after one line on stderr. */
static int textfile_check(const char *path)
{
	char tmp[PATH_MAX];
	struct stat st;
	int fd, err = 0;

	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		err = EISDIR;
	else if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		err = ENAMETOOLONG;
	else if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		err = errno;
	else {
		close(fd);
		unlink(tmp);
	}
	if (err)
		fprintf(stderr, "osdhist: cannot write --textfile %s: %s\n", path,
			strerror(err));
	return -err;
}

int export_start(const struct export_config *c)
{
	int err;

	if (c->textfile && (err = textfile_check(c->textfile)) < 0)
		return err;
	if (c->prometheus && (err = http_start(c->prom_host, c->prom_port)) < 0)
		return err;
	return 0;
}

void export_snapshot(const struct export_config *c, const struct report *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	if (!c->prometheus && !c->textfile)
		return;
	f = open_memstream(&buf, &len);
	if (!f)
		return;
	render_prom(f, r, c->buckets, OSDHIST_VERSION);
	if (fclose(f)) {	/* out of memory: the outputs keep the last one */
		free(buf);
		return;
	}
	if (c->prometheus)
		http_publish(buf, len);
	if (c->textfile) {
		err = textfile_write(c->textfile, buf, len);
		if (err && err != textfile_err)
			fprintf(stderr, "osdhist: cannot write --textfile %s: %s "
				"(retried at every snapshot)\n", c->textfile, strerror(-err));
		else if (!err && textfile_err)
			fprintf(stderr, "osdhist: --textfile %s written again\n", c->textfile);
		textfile_err = err;
	}
	free(buf);
}

void export_health(const struct export_config *c, struct health_report *h)
{
	h->http = c->prometheus && http_rejected(h->http_rejected);
}

void export_stop(void)
{
	http_stop();
}
