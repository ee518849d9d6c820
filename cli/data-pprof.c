// SPDX-License-Identifier: GPL-2.0
/*
 * `pulse data convert --to-pprof OUT [-i IN] [--force]`: the conversion
 * behind cmd-data.c's option parsing. The profile is written to a
 * temporary file beside OUT and renamed over it only once complete, so a
 * failed conversion leaves nothing behind (perf data convert leaves a
 * partial or empty output). As perf's --to-json: an existing OUT is kept
 * unless --force, which also lets a file of another user be read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/convert-pprof.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "builtin.h"

/* A temporary file in OUT's directory, so that rename() cannot cross filesystems. */
static FILE *open_temp(const char *output, char **tmp)
{
	mode_t mask = umask(0);
	FILE *f = NULL;
	int fd;

	umask(mask);
	if (asprintf(tmp, "%s.XXXXXX", output) < 0) {
		*tmp = NULL;
		errno = ENOMEM;
		return NULL;
	}
	fd = mkstemp(*tmp);
	if (fd < 0)
		goto out_free;
	/* mkstemp() makes it 0600: give it what a new file gets */
	if (fchmod(fd, 0666 & ~mask) || !(f = fdopen(fd, "w"))) {
		int err = errno;

		close(fd);
		unlink(*tmp);
		errno = err;
		goto out_free;
	}
	return f;
out_free:
	free(*tmp);
	*tmp = NULL;
	return NULL;
}

static int64_t file_mtime_ns(const char *path)
{
	struct stat st;

	if (!path || !strcmp(path, "-") || stat(path, &st))
		return 0;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

static int convert(struct pulse_session *s, const char *input, const char *output)
{
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts) };
	struct pulse_pprof_opts opts = { .sz = sizeof(opts) };
	struct pulse_pprof_stats st;
	char *tmp;
	FILE *f;
	int err, werr;

	err = pulse_session__init_machine(s, &sym_opts);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		return 1;
	}
	f = open_temp(output, &tmp);
	if (!f) {
		error("cannot create '%s': %s", output, strerror(errno));
		return 1;
	}
	opts.end_time_nanos = file_mtime_ns(input);
	err = pulse_pprof__convert(s, f, &opts, &st);
	werr = errno;
	if (fclose(f) && !err) {
		err = -EIO;
		werr = errno;
	}
	if (!err && rename(tmp, output)) {
		err = -EIO;
		werr = errno;
	}
	if (err) {
		unlink(tmp);
		free(tmp);
		if (err == -ENODATA)
			error("'%s' has no events, nothing to convert", input);
		else if (err == -EIO || err == -ENOSPC)
			error("cannot write '%s': %s", output, strerror(werr ? werr : EIO));
		else if (err == -ENOMEM)
			error("out of memory");
		else
			data_error("read", input, err);
		return 1;
	}
	free(tmp);
	data_warn_damage(pulse_session__data(s));
	/* perf data convert's two lines, with pulse's name */
	fprintf(stderr, "[ pulse data convert: Converted '%s' into pprof data '%s' ]\n", input,
		output);
	fprintf(stderr, "[ pulse data convert: Converted and wrote %.3f MB (%llu samples) ]\n",
		st.bytes / 1048576.0, (unsigned long long)st.nr_samples);
	return 0;
}

int data_convert_pprof(const char *input, const char *output, bool force)
{
	struct pulse_session *s;
	struct stat st;
	int err, ret;

	if (!input)
		input = "perf.data";
	if (!force && !stat(output, &st)) {
		error("'%s' exists", output);
		hint("use --force to overwrite it");
		return 1;
	}
	if (data_check_owner(input, force))
		return 1;
	err = pulse_session__new(&s, input, NULL);
	if (err == -ENODATA) {
		error("'%s' is empty, nothing to convert", input);
		return 1;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	ret = convert(s, input, output);
	pulse_session__delete(s);
	return ret;
}
