// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints as tracefs lays them out: <tracefs>/events/<system>/<event>/id
 * holds the number perf_event_open() wants in attr.config. A "sys:event"
 * spec may glob either part; the matches are returned sorted (system, then
 * event) so that an evlist built from "sched:*" is the same on every run.
 * The tracefs mount itself is found, or mounted, by libtracefs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tracefs.h>

#include "core/internal.h"
#include "event/parse-internal.h"

/**
 * pulse_tracefs_dir - where tracefs is mounted
 * @opts: opts->tracefs, when set, is returned as is (tests use a fake tree)
 *
 * libtracefs looks for the mount and, when there is none and we may, mounts
 * tracefs at /sys/kernel/tracing.
 *
 * Return: the directory holding events/, or NULL with errno set.
 */
const char *pulse_tracefs_dir(const struct pulse_parse_opts *opts)
{
	const char *dir;

	if (opts && (!opts->sz || opts->sz > offsetof(struct pulse_parse_opts, tracefs)) &&
	    opts->tracefs)
		return opts->tracefs;
	errno = 0;
	dir = tracefs_tracing_dir();
	if (!dir && !errno)
		errno = ENODEV;
	return dir;
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static bool valid_part(const char *s)
{
	return *s && strcmp(s, ".") && strcmp(s, "..") && !strchr(s, '/');
}

static int read_id(const char *path, __u64 *id)
{
	char buf[32], *end;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	errno = 0;
	*id = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The subdirectories of @path, sorted, NULL-terminated. Files such as
 * events/enable or events/sched/filter are not systems or events.
 */
static int list_dirs(const char *path, char ***out)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;
	DIR *d;
	int ret = 0;

	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char **nv;

		if (de->d_name[0] == '.')
			continue;
		if (de->d_type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, 0) || !S_ISDIR(st.st_mode))
				continue;
		} else if (de->d_type != DT_DIR) {
			continue;
		}
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv) {
			ret = -ENOMEM;
			break;
		}
		v = nv;
		v[n] = strdup(de->d_name);
		if (!v[n]) {
			ret = -ENOMEM;
			break;
		}
		v[++n] = NULL;
	}
	closedir(d);
	if (ret) {
		pulse_strv_free(v);
		return ret;
	}
	if (!v && !(v = calloc(1, sizeof(*v))))
		return -ENOMEM;
	qsort(v, n, sizeof(*v), cmp_strp);
	*out = v;
	return 0;
}

/* strcmp() of "sys:name" strings without building them: perf list's order. */
static int cmp_tp_names(const char *sa, const char *na, const char *sb, const char *nb)
{
	const char *a = sa, *b = sb;
	bool a2 = false, b2 = false;

	for (;;) {
		unsigned char ca, cb;

		if (!*a && !a2) {
			ca = ':';
			a = na;
			a2 = true;
		} else {
			ca = *a++;
		}
		if (!*b && !b2) {
			cb = ':';
			b = nb;
			b2 = true;
		} else {
			cb = *b++;
		}
		if (ca != cb || !ca)
			return ca - cb;
	}
}

static int cmp_tp(const void *x, const void *y)
{
	const struct pulse_tp *a = x, *b = y;

	return cmp_tp_names(a->sys, a->name, b->sys, b->name);
}

static int unreadable(struct pulse_parse_error *err, int ret, const char *path)
{
	if (ret == -EACCES || ret == -EPERM)
		return pulse_parse_err(err, -EACCES, path,
				       "tracepoint ids come from tracefs: run as root or let this user read it",
				       "cannot read '%s': %s", path, strerror(-ret));
	return pulse_parse_err(err, ret, path, NULL, "cannot read '%s': %s", path, strerror(-ret));
}

static int add_tp(struct pulse_tp **tps, int *nr, const char *sys, const char *name, __u64 id)
{
	struct pulse_tp *t = realloc(*tps, (*nr + 1) * sizeof(*t));

	if (!t)
		return -ENOMEM;
	*tps = t;
	t = &t[*nr];
	t->sys = strdup(sys);
	t->name = strdup(name);
	t->id = id;
	if (!t->sys || !t->name) {
		free(t->sys);
		free(t->name);
		return -ENOMEM;
	}
	(*nr)++;
	return 0;
}

/**
 * pulse_tp__resolve - the tracepoints a "sys:name" spec stands for
 * @tracefs: the tracefs mount
 * @sys, @name: the two halves, each possibly a glob
 * @tps: the matches, sorted; free with pulse_tp__free()
 * @err: filled in for errors other than "nothing matched"
 *
 * Return: the number of matches, -ENOENT for none (the caller names the
 * event), -EACCES when tracefs cannot be read, other -errno.
 */
int pulse_tp__resolve(const char *tracefs, const char *sys, const char *name,
		      struct pulse_tp **tps, struct pulse_parse_error *err)
{
	char path[4096], **systems = NULL;
	int nr = 0, ret = 0;
	__u64 id;

	*tps = NULL;
	if (!valid_part(sys) || !valid_part(name))
		return -ENOENT;
	if (!has_glob(sys) && !has_glob(name)) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, name);
		ret = read_id(path, &id);
		if (ret == -ENOENT || ret == -ENOTDIR)
			return -ENOENT;
		if (ret)
			return unreadable(err, ret, path);
		ret = add_tp(tps, &nr, sys, name, id);
		return ret ? ret : nr;
	}
	snprintf(path, sizeof(path), "%s/events", tracefs);
	ret = list_dirs(path, &systems);
	if (ret)
		return ret == -ENOENT ? -ENOENT : unreadable(err, ret, path);
	for (char **s = systems; !ret && *s; s++) {
		char **events = NULL;

		if (fnmatch(sys, *s, 0))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, *s);
		ret = list_dirs(path, &events);
		if (ret) {
			ret = unreadable(err, ret, path);
			break;
		}
		for (char **e = events; !ret && *e; e++) {
			if (fnmatch(name, *e, 0))
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, *s, *e);
			ret = read_id(path, &id);
			if (ret == -ENOENT) {
				ret = 0;	/* a directory that is not an event */
				continue;
			}
			if (ret)
				ret = unreadable(err, ret, path);
			else
				ret = add_tp(tps, &nr, *s, *e, id);
		}
		pulse_strv_free(events);
	}
	pulse_strv_free(systems);
	if (ret) {
		pulse_tp__free(*tps, nr);
		*tps = NULL;
		return ret;
	}
	if (nr)
		qsort(*tps, nr, sizeof(**tps), cmp_tp);
	return nr ? nr : -ENOENT;
}

void pulse_tp__free(struct pulse_tp *tps, int nr)
{
	for (int i = 0; i < nr; i++) {
		free(tps[i].sys);
		free(tps[i].name);
	}
	free(tps);
}

/**
 * pulse_tp__for_each - call @cb for every tracepoint of @tracefs
 *
 * In strcmp() order of "sys:name", as perf list prints them ("fib6:..."
 * before "fib:...").
 *
 * Return: 0, the callback's non-zero return, or -errno when events/ cannot
 * be read. Unreadable systems are skipped.
 */
int pulse_tp__for_each(const char *tracefs, pulse_tp_cb cb, void *arg)
{
	char path[4096], **systems;
	struct pulse_tp *tps = NULL;
	int nr = 0, ret;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	ret = list_dirs(path, &systems);
	if (ret)
		return ret;
	for (char **s = systems; !ret && *s; s++) {
		char **events;

		snprintf(path, sizeof(path), "%s/events/%s", tracefs, *s);
		if (list_dirs(path, &events)) {
			pr_debug("tracefs: cannot list %s\n", path);
			continue;
		}
		for (char **e = events; !ret && *e; e++) {
			snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, *s, *e);
			if (!access(path, F_OK))
				ret = add_tp(&tps, &nr, *s, *e, 0);
		}
		pulse_strv_free(events);
	}
	pulse_strv_free(systems);
	if (!ret && nr)
		qsort(tps, nr, sizeof(*tps), cmp_tp);
	for (int i = 0; !ret && i < nr; i++)
		ret = cb(tps[i].sys, tps[i].name, arg);
	pulse_tp__free(tps, nr);
	return ret;
}
