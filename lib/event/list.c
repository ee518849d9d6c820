// SPDX-License-Identifier: GPL-2.0
/*
 * The walk over every event of this machine for `pulse list`: perf's
 * symbolic hardware and software names, the hardware cache events, each
 * PMU's sysfs aliases, then every tracepoint, in perf list's order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "event/parse-internal.h"

struct list_sym {
	char name[96];
	const char *desc;
};

static int cmp_list_sym(const void *a, const void *b)
{
	return strcmp(((const struct list_sym *)a)->name, ((const struct list_sym *)b)->name);
}

static int list_symbols(__u32 type, enum pulse_event_kind kind, pulse_list_cb cb, void *arg)
{
	struct list_sym syms[64];
	size_t n = 0;
	int ret = 0;

	for (size_t i = 0; i < pulse_nr_event_symbols && n < ARRAY_SIZE(syms); i++) {
		const struct pulse_event_symbol *s = &pulse_event_symbols[i];

		if (s->type != type)
			continue;
		if (s->alias)
			snprintf(syms[n].name, sizeof(syms[n].name), "%s OR %s", s->name, s->alias);
		else
			snprintf(syms[n].name, sizeof(syms[n].name), "%s", s->name);
		syms[n++].desc = s->desc;
	}
	qsort(syms, n, sizeof(syms[0]), cmp_list_sym);
	for (size_t i = 0; i < n && !ret; i++)
		ret = cb(kind, syms[i].name, syms[i].desc, arg);
	return ret;
}

struct list_arg {
	pulse_list_cb cb;
	void *arg;
	int stopped;			/* the callback's non-zero return */
};

static int list_cache(const char *name, __u64 config, void *arg)
{
	struct list_arg *la = arg;

	return la->cb(PULSE_EV_HW_CACHE, name, NULL, la->arg);
}

static int list_tp(const char *sys, const char *name, void *arg)
{
	struct list_arg *la = arg;
	char buf[512];

	snprintf(buf, sizeof(buf), "%s:%s", sys, name);
	la->stopped = la->cb(PULSE_EV_TRACEPOINT, buf, NULL, la->arg);
	return la->stopped;
}

static int list_pmus(const char *sysfs, pulse_list_cb cb, void *arg)
{
	char **names = pulse_pmu__names(sysfs);
	int ret = 0;

	if (!names)
		return -ENOMEM;
	for (char **n = names; !ret && *n; n++) {
		struct pulse_pmu *pmu;

		if (pulse_pmu__new(&pmu, sysfs, *n, NULL)) {
			pr_debug("pulse list: skipping PMU %s\n", *n);
			continue;
		}
		for (int i = 0; !ret && i < pmu->nr_aliases; i++) {
			char buf[512];

			snprintf(buf, sizeof(buf), "%s/%s/", pmu->name, pmu->aliases[i].name);
			ret = cb(PULSE_EV_PMU, buf, pmu->aliases[i].terms, arg);
		}
		pulse_pmu__delete(pmu);
	}
	pulse_strv_free(names);
	return ret;
}

/**
 * pulse_list_events - every event of this machine, in perf list's order
 * @opts: where sysfs and tracefs are (may be NULL)
 * @cb: called for each event; a non-zero return stops the walk
 * @arg: passed to @cb
 *
 * Hardware, software and hardware cache events, then each PMU's sysfs
 * aliases as "pmu/alias/", then every tracepoint as "sys:event". Without
 * a readable tracefs the tracepoints are left out.
 *
 * Return: 0, the callback's non-zero return, or -errno.
 */
int pulse_list_events(const struct pulse_parse_opts *opts, pulse_list_cb cb, void *arg)
{
	struct list_arg la = { cb, arg, 0 };
	const char *tracefs;
	int ret;

	ret = list_symbols(PERF_TYPE_HARDWARE, PULSE_EV_HARDWARE, cb, arg);
	if (!ret)
		ret = list_symbols(PERF_TYPE_SOFTWARE, PULSE_EV_SOFTWARE, cb, arg);
	if (!ret)
		ret = pulse_hw_cache__for_each(list_cache, &la);
	if (!ret)
		ret = list_pmus(pulse_sysfs_dir(opts), cb, arg);
	if (ret)
		return ret;
	tracefs = pulse_tracefs_dir(opts);
	if (!tracefs) {
		pr_debug("pulse list: no tracefs: %s\n", strerror(errno));
		return 0;
	}
	ret = pulse_tp__for_each(tracefs, list_tp, &la);
	if (la.stopped)
		return la.stopped;
	if (ret < 0 && ret != -ENOMEM) {
		pr_debug("pulse list: cannot read %s/events: %s\n", tracefs, strerror(-ret));
		return 0;
	}
	return ret;
}
