// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --tasks: the machine's threads as perf 6.1's tasks__print()
 * lists them, each under its parent (FORK's ppid), indented a column a
 * level. perf walks its threads table (256 trees by tid % 256, each by tid)
 * and hangs every thread under its parent, a thread without one (ppid -1)
 * at the top, in that walk's order. With --mmaps each thread's maps follow
 * its line (perf's maps__fprintf_task()), by address, under the comm: the
 * prot and MAP_SHARED bits, the pgoff as recorded, and the DSO's inode,
 * which perf keeps per DSO: a map recorded without one (an MMAP record)
 * shows the one another map of its DSO brought; a vdso has none.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <pulse/report.h>

#define PERF_THREADS_TABLE_SIZE 256	/* THREADS__TABLE_SIZE: 1 << 8 */

struct task {
	struct pulse_thread *thread;
	struct task *parent;		/* NULL: a top task */
	bool listed;			/* in its parent's children or the top list */
	size_t order;			/* when it was listed */
};

static int task_walk_cmp(const void *a, const void *b)
{
	const struct task *l = a, *r = b;
	uint32_t bl = (uint32_t)l->thread->tid % PERF_THREADS_TABLE_SIZE;
	uint32_t br = (uint32_t)r->thread->tid % PERF_THREADS_TABLE_SIZE;

	if (bl != br)
		return bl < br ? -1 : 1;
	return l->thread->tid < r->thread->tid ? -1 : l->thread->tid > r->thread->tid;
}

static struct task *task_find(struct task *tasks, size_t nr, int32_t tid)
{
	for (size_t i = 0; i < nr; i++)
		if (tasks[i].thread->tid == tid)
			return &tasks[i];
	return NULL;
}

/* perf's dso->id.ino: the map's, else the first another map of its DSO has */
static uint64_t map_ino(const struct pulse_machine *m, const struct pulse_map *map)
{
	if (map->dso->kind == PULSE_DSO_VDSO)
		return 0;
	if (map->ino)
		return map->ino;
	for (size_t i = 0; i < m->nr_buckets; i++)
		for (const struct pulse_thread *t = m->threads[i]; t; t = t->next)
			for (size_t j = 0; t->maps && j < t->maps->nr; j++)
				if (t->maps->maps[j].dso == map->dso && t->maps->maps[j].ino)
					return t->maps->maps[j].ino;
	return 0;
}

static void maps_print(FILE *fp, const struct pulse_machine *m, const struct pulse_maps *maps,
		       int indent)
{
	for (size_t i = 0; maps && i < maps->nr; i++) {
		const struct pulse_map *map = &maps->maps[i];

		fprintf(fp, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
			indent, "", map->start, map->end, map->prot & PROT_READ ? 'r' : '-',
			map->prot & PROT_WRITE ? 'w' : '-', map->prot & PROT_EXEC ? 'x' : '-',
			map->flags & MAP_SHARED ? 's' : 'p', map->pgoff, map_ino(m, map),
			map->dso->long_name);
	}
}

struct tasks_print {
	FILE *fp;
	const struct pulse_machine *m;	/* with @mmaps: whose maps */
	bool mmaps;			/* --mmaps */
	struct task *const *byorder;	/* the tasks in the order they were listed */
	size_t nr;			/* tasks */
};

static void task_print(const struct tasks_print *tp, const struct task *t, int level)
{
	const struct pulse_thread *th = t->thread;
	int indent = fprintf(tp->fp, "  %8d %8d %8d |%*s", th->pid, th->tid, th->ppid, level, "");

	fprintf(tp->fp, "%s\n", th->comm);
	if (tp->mmaps)
		maps_print(tp->fp, tp->m, th->maps, indent);
	for (size_t i = 0; i < tp->nr; i++)
		if (tp->byorder[i]->parent == t)
			task_print(tp, tp->byorder[i], level + 1);
}

int pulse_report__fprintf_tasks(struct pulse_report *rep, FILE *fp, bool mmaps)
{
	struct tasks_print tp = { .fp = fp, .m = rep->machine, .mmaps = mmaps };
	const struct pulse_machine *m = rep->machine;
	size_t nr = 0, n = 0, order = 0;
	struct task *tasks, **byorder;

	/*
	 * A sample taken while its task exits says tid -1 (the kernel's
	 * perf_event_tid() of a dead task): perf 6.1's --tasks lists no such
	 * thread (a system-wide recording of t2019 had one)
	 */
	for (size_t i = 0; i < m->nr_buckets; i++)
		for (struct pulse_thread *t = m->threads[i]; t; t = t->next)
			nr += t->tid != -1;
	tasks = calloc(nr ? nr : 1, sizeof(*tasks));
	if (!tasks)
		return -ENOMEM;
	for (size_t i = 0; i < m->nr_buckets; i++)
		for (struct pulse_thread *t = m->threads[i]; t; t = t->next)
			if (t->tid != -1)
				tasks[n++].thread = t;
	qsort(tasks, nr, sizeof(*tasks), task_walk_cmp);
	/* perf's tasks_list(): up the parents until one listed or a top one */
	for (size_t i = 0; i < nr; i++) {
		struct task *t = &tasks[i];

		while (!t->listed) {
			struct task *p;

			t->order = order++;
			t->listed = true;
			if (t->thread->ppid == -1)
				break;
			p = task_find(tasks, nr, t->thread->ppid);
			if (!p) {
				free(tasks);
				return -ENOENT;
			}
			t->parent = p;
			t = p;
		}
	}
	byorder = calloc(nr ? nr : 1, sizeof(*byorder));
	if (!byorder) {
		free(tasks);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr; i++)
		byorder[tasks[i].order] = &tasks[i];
	fprintf(fp, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	tp.byorder = byorder;
	tp.nr = nr;
	for (size_t i = 0; i < nr; i++)
		if (!byorder[i]->parent)
			task_print(&tp, byorder[i], 0);
	free(byorder);
	free(tasks);
	return ferror(fp) ? -EIO : 0;
}
