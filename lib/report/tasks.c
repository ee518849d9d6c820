// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --tasks: the machine's threads as perf 6.1's tasks__print()
 * lists them, each under its parent (FORK's ppid), indented a column a
 * level. perf walks its threads table (256 trees by tid % 256, each by tid)
 * and hangs every thread under its parent, a thread without one (ppid -1)
 * at the top, in that walk's order.
 */
#include <errno.h>
#include <stdlib.h>
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

/* @byorder: the tasks in the order they were listed */
static void task_print(FILE *fp, struct task *const *byorder, size_t nr, const struct task *t,
		       int level)
{
	const struct pulse_thread *th = t->thread;

	fprintf(fp, "  %8d %8d %8d |%*s%s\n", th->pid, th->tid, th->ppid, level, "", th->comm);
	for (size_t i = 0; i < nr; i++)
		if (byorder[i]->parent == t)
			task_print(fp, byorder, nr, byorder[i], level + 1);
}

int pulse_report__fprintf_tasks(struct pulse_report *rep, FILE *fp)
{
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
	for (size_t i = 0; i < nr; i++)
		if (!byorder[i]->parent)
			task_print(fp, byorder, nr, byorder[i], 0);
	free(byorder);
	free(tasks);
	return ferror(fp) ? -EIO : 0;
}
