// SPDX-License-Identifier: GPL-2.0
/*
 * A directory input, what `perf record --threads` writes: DIR/data is a
 * perf.data file (header, attrs, features and the records written before
 * the threads started, its DIR_FORMAT feature saying version 1), and each
 * DIR/data.N holds one thread's records, bare, with no header of their own.
 *
 * perf 6.1 (util/data.c perf_data__open_dir(), util/session.c
 * __perf_session__process_dir_events()) reads the header file's data
 * section first, then the data.* files in the order readdir gives them,
 * empty ones skipped; no FINISHED_ROUND is written in this mode, so the
 * time ordering sorts everything at the end. The records of each file are
 * walked exactly as a file's data section is.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/reader-internal.h"

#define PULSE_DIR_VERSION 1

static int add_file(struct pulse_data *d, const char *path, size_t len)
{
	struct dir_file *f = realloc(d->dir, (d->nr_dir + 1) * sizeof(*f));
	void *map;
	int fd, err = 0;

	if (!f)
		return -ENOMEM;
	d->dir = f;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		err = -errno;
	close(fd);
	if (err)
		return err;
	f = &d->dir[d->nr_dir];
	f->path = strdup(path);
	if (!f->path) {
		munmap(map, len);
		return -ENOMEM;
	}
	f->map = map;
	f->len = len;
	d->nr_dir++;
	return 0;
}

int pulse_data__open_dir(struct pulse_data *d, const char *path)
{
	size_t vlen;
	const void *v = pulse_data__feat(d, PULSE_FEAT_DIR_FORMAT, &vlen);
	struct dirent *de;
	DIR *dir;
	int err = 0;

	d->walk_path = d->hdr_path;
	if (!v || vlen < 8) {
		pr_warn("perf.data: '%s' is a directory without a DIR_FORMAT feature\n", path);
		return -EOPNOTSUPP;
	}
	memcpy(&d->dir_version, v, 8);
	if (d->dir_version != PULSE_DIR_VERSION) {
		pr_warn("perf.data: directory data version %llu is not known\n",
			(unsigned long long)d->dir_version);
		return -EOPNOTSUPP;
	}
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((de = readdir(dir)) != NULL) {
		char file[4096];
		struct stat st;

		if (strncmp(de->d_name, "data.", 5))
			continue;
		if (snprintf(file, sizeof(file), "%s/%s", path, de->d_name) >= (int)sizeof(file))
			continue;
		if (stat(file, &st) || !S_ISREG(st.st_mode) || !st.st_size)
			continue;
		err = add_file(d, file, st.st_size);
		if (err)
			break;
	}
	closedir(dir);
	return err;
}

/*
 * Walk each data.N file after the header file's data section: the walk's
 * source becomes the file's mapping, then is put back, so that the
 * accessors and a later walk see the header file again.
 */
int pulse_data__walk_dir(struct pulse_data *d, pulse_data_record_fn cb, void *arg)
{
	const unsigned char *mem = d->mem;
	size_t mem_len = d->mem_len;
	void *map = d->map;
	__u64 declared_end = d->declared_end, walk_end = d->walk_end;
	int err = 0;

	d->map = NULL;		/* no dropping behind in another file's pages */
	for (size_t i = 0; i < d->nr_dir && !d->stop && !err; i++) {
		d->walk_path = d->dir[i].path;
		d->mem = d->dir[i].map;
		d->mem_len = d->dir[i].len;
		d->pos = 0;
		d->lim = d->declared_end = d->dir[i].len;
		/* each thread compressed its own stream */
		d->zlen = 0;
		if (d->zctx)
			ZSTD_DCtx_reset(d->zctx, ZSTD_reset_session_only);
		err = pulse_data__walk(d, cb, arg);
	}
	d->walk_path = d->hdr_path;
	d->mem = mem;
	d->mem_len = mem_len;
	d->map = map;
	d->declared_end = declared_end;
	d->walk_end = walk_end;
	return err;
}

void pulse_data__close_dir(struct pulse_data *d)
{
	for (size_t i = 0; i < d->nr_dir; i++) {
		munmap(d->dir[i].map, d->dir[i].len);
		free(d->dir[i].path);
	}
	free(d->dir);
	free(d->hdr_path);
}

bool pulse_data__is_dir(const struct pulse_data *d)
{
	return d->hdr_path != NULL;
}

const char *pulse_data__walk_path(const struct pulse_data *d)
{
	return d->walk_path;
}

uint64_t pulse_data__dir_version(const struct pulse_data *d)
{
	return d->hdr_path ? d->dir_version : 0;
}

bool pulse_data__record_stays(const struct pulse_data *d, const void *rec, size_t size)
{
	const unsigned char *p = rec, *map = d->map;

	/* d->map is NULL while a directory's other files are walked */
	return map && !d->stream && p >= map && size <= d->map_len &&
	       (size_t)(p - map) <= d->map_len - size;
}

const char *pulse_data__unreadable_path(const struct pulse_data *d)
{
	return d->unreadable ? d->unreadable_path : NULL;
}
