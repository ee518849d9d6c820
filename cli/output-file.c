// SPDX-License-Identifier: GPL-2.0
/*
 * An output file that is either whole or not there: what flamegraph -o and
 * data convert --to-json write. What the path names decides how:
 *  - nothing, or a regular file: a temporary file beside it, renamed over
 *    it once complete, so a failure leaves the old file (or none) behind;
 *  - a symlink: followed; its target is written the same way (the
 *    temporary file beside the target, so the link stays a link, and the
 *    rename stays in one filesystem); a link to nothing is refused;
 *  - anything else (a device such as /dev/null, a FIFO): written in place,
 *    never replaced by a regular file, never removed;
 *  - "-" with OUTPUT_STDOUT: standard output.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "builtin.h"

static int fail(struct output_file *of, int err)
{
	error("cannot write '%s': %s", of->path, strerror(err));
	free(of->tmp);
	free(of->target);
	of->tmp = of->target = NULL;
	return 1;
}

static int open_in_place(struct output_file *of, const char *path)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return fail(of, errno);
	of->fp = fdopen(fd, "w");
	if (!of->fp) {
		close(fd);
		return fail(of, errno);
	}
	return 0;
}

int output_file__open(struct output_file *of, const char *path, unsigned int flags)
{
	struct stat st;
	mode_t mask;
	int fd;

	memset(of, 0, sizeof(*of));
	of->path = path;
	if ((flags & OUTPUT_STDOUT) && !strcmp(path, "-")) {
		of->fp = stdout;
		return 0;
	}
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return fail(of, errno);
	} else if (flags & OUTPUT_EXCL) {
		error("output file '%s' exists", path);
		hint("use --force to overwrite it");
		return 1;
	} else if (S_ISLNK(st.st_mode)) {
		of->target = realpath(path, NULL);
		if (!of->target || stat(of->target, &st))
			return fail(of, errno);
		if (!S_ISREG(st.st_mode))
			return open_in_place(of, of->target);
	} else if (!S_ISREG(st.st_mode)) {
		return open_in_place(of, path);
	}
	if (asprintf(&of->tmp, "%s.tmp.XXXXXX", of->target ? of->target : path) < 0) {
		of->tmp = NULL;
		return fail(of, ENOMEM);
	}
	fd = mkstemp(of->tmp);
	if (fd < 0)
		return fail(of, errno);
	/* mkstemp's 0600: the output is for sharing, as any file this umask makes */
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	of->fp = fdopen(fd, "w");
	if (!of->fp) {
		int err = errno;

		close(fd);
		unlink(of->tmp);
		return fail(of, err);
	}
	return 0;
}

void output_file__abort(struct output_file *of)
{
	if (of->fp && of->fp != stdout)
		fclose(of->fp);
	else if (of->fp)
		fflush(stdout);
	if (of->tmp)
		unlink(of->tmp);
	free(of->tmp);
	free(of->target);
	of->fp = NULL;
	of->tmp = of->target = NULL;
}

int output_file__close(struct output_file *of, int err)
{
	/* a failed write says why again when flushed (EFBIG, ENOSPC), not only EIO */
	errno = 0;
	if (fflush(of->fp) && (!err || err == -EIO))
		err = errno ? -errno : -EIO;
	if (of->fp != stdout && fclose(of->fp) && !err)
		err = errno ? -errno : -EIO;
	of->fp = NULL;
	if (!err && of->tmp && rename(of->tmp, of->target ? of->target : of->path))
		err = -errno;
	if (!err) {
		free(of->tmp);
		free(of->target);
		of->tmp = of->target = NULL;
		return 0;
	}
	if (of->tmp)
		unlink(of->tmp);
	return fail(of, -err);
}
