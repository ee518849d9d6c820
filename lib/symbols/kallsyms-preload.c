// SPDX-License-Identifier: GPL-2.0
/*
 * The running kernel's kallsyms, read on a helper thread while the
 * session walks. A report of a 540 MB --call-graph dwarf file spent an
 * eighth of its time reading /proc/kallsyms (the kernel formats 200,000
 * lines) at the first kernel sample, with the walk and the aggregation
 * threads standing still. pulse_dsos__preload_kernel() starts the read
 * when the session opens, into a table of its own; the kernel DSO's load
 * (dso.c) takes that table, waiting for the thread only if it has not
 * finished, when it would read the same file; a table nobody takes is
 * dropped at pulse_dsos__exit(), the thread told to stop first. The table
 * is the one pulse_symtab__load_kallsyms() makes: the same function reads
 * it, with the DSO's demangling flags.
 *
 * On the 540 MB python3 --call-graph dwarf file of bench/mkdata-dwarf.sh
 * it took some 70 ms of CPU off the walking thread of `pulse report
 * --stdio` (with prefetch.c's helper: 250 -> 180 ms, median of 5,
 * cpu-clock samples of that thread), the total the same.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "symtab-int.h"

struct pulse_kallsyms_preload {
	pthread_t tid;
	char *path;
	struct pulse_symtab st;
	int ret;		/* the load's: symbols read or -errno */
	_Atomic bool stop;
	_Atomic bool done;	/* @ret and @st are ready */
};

static void *preload__run(void *arg)
{
	struct pulse_kallsyms_preload *p = arg;

	p->ret = pulse_kallsyms__load_stoppable(&p->st, p->path, &p->stop);
	atomic_store_explicit(&p->done, true, memory_order_release);
	return NULL;
}

int pulse_dsos__preload_kernel(struct pulse_dsos *dsos)
{
	const struct pulse_symbol_opts *o = &dsos->opts;
	struct pulse_kallsyms_preload *p;
	int err;

	/* only where dso__load_kernel() may read @o->kallsyms */
	if (dsos->preload || !o->kallsyms || o->vmlinux || o->no_symbols ||
	    (o->symfs && !o->kallsyms_given))
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->path = strdup(o->kallsyms);
	pulse_symtab__init(&p->st);
	p->st.no_demangle = o->no_demangle;
	p->st.demangle_full = o->demangle_full;
	err = p->path ? pthread_create(&p->tid, NULL, preload__run, p) : ENOMEM;
	if (err) {
		free(p->path);
		free(p);
		return -err;
	}
	dsos->preload = p;
	return 0;
}

static void preload__free(struct pulse_kallsyms_preload *p)
{
	pulse_symtab__exit(&p->st);
	free(p->path);
	free(p);
}

int pulse_dsos__take_kallsyms(struct pulse_dsos *dsos, struct pulse_symtab *st, const char *path)
{
	struct pulse_kallsyms_preload *p = dsos->preload;
	int ret;

	if (!p || strcmp(p->path, path) || st->nr)
		return pulse_symtab__load_kallsyms(st, path);
	/* what the walk would do after, done while the read goes on */
	while (dsos->idle && !atomic_load_explicit(&p->done, memory_order_acquire))
		if (dsos->idle(dsos->idle_arg) <= 0)
			dsos->idle = NULL;
	dsos->preload = NULL;
	pthread_join(p->tid, NULL);
	ret = p->ret;
	/* what the same load into @st would have left there, a failed one too */
	pulse_symtab__exit(st);
	*st = p->st;
	pulse_symtab__init(&p->st);
	preload__free(p);
	pr_debug("symbols: %s read ahead on a helper thread: %d symbols\n", path, ret);
	return ret;
}

void pulse_dsos__set_idle(struct pulse_dsos *dsos, int (*fn)(void *arg), void *arg)
{
	dsos->idle = fn;
	dsos->idle_arg = arg;
}

void pulse_dsos__drop_preload(struct pulse_dsos *dsos)
{
	struct pulse_kallsyms_preload *p = dsos->preload;

	if (!p)
		return;
	dsos->preload = NULL;
	atomic_store(&p->stop, true);
	pthread_join(p->tid, NULL);
	preload__free(p);
}
