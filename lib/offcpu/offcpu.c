// SPDX-License-Identifier: GPL-2.0
/*
 * Off-CPU accounting (include/pulse/offcpu.h): a table of tasks (tid ->
 * the interval it has open), a table of distinct callchains, and the
 * totals per (pid, tid, stack, state) that become perf 6.1's offcpu-time
 * samples at the end, as perf's BPF map becomes them in off_cpu_write().
 *
 * Records are queued as they come and accounted a pass at a time, sorted
 * by time: a task's switch-out and its switch-in may sit in two rings
 * (it left on one CPU and came back on another) and be read in either
 * order within a pass.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "offcpu/internal.h"
#include "core/hash.h"

int oc_reserve(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}


static void ix_exit(struct oc_index *ix)
{
	free(ix->slots);
	free(ix->hashes);
}

static int ix_grow(struct oc_index *ix)
{
	size_t cap = ix->cap ? ix->cap * 2 : 64;
	__u32 *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t e = 0; e < ix->nr; e++) {
		size_t s = ix->hashes[e] & (cap - 1);

		while (slots[s])
			s = (s + 1) & (cap - 1);
		slots[s] = e + 1;
	}
	free(ix->slots);
	ix->slots = slots;
	ix->cap = cap;
	return 0;
}

/*
 * The slot for @hash: the first whose entry @eq accepts, or the empty one
 * where it would go (after growing, so that one stays free for an insert).
 */
typedef bool (*oc_eq_fn)(const struct pulse_offcpu *oc, __u32 entry, const void *key);

static __u32 *ix_find(struct pulse_offcpu *oc, struct oc_index *ix, __u64 hash, oc_eq_fn eq,
		      const void *key)
{
	size_t s;

	if ((ix->nr + 1) * 2 > ix->cap && ix_grow(ix))
		return NULL;
	for (s = hash & (ix->cap - 1); ix->slots[s]; s = (s + 1) & (ix->cap - 1))
		if (ix->hashes[ix->slots[s] - 1] == hash && eq(oc, ix->slots[s] - 1, key))
			break;
	return &ix->slots[s];
}

/* Index entry number ix->nr under @hash in the empty @slot ix_find() gave. */
static int ix_insert(struct oc_index *ix, __u32 *slot, __u64 hash)
{
	if (oc_reserve((void **)&ix->hashes, &ix->hashes_cap, ix->nr + 1, sizeof(__u64)))
		return -ENOMEM;
	ix->hashes[ix->nr] = hash;
	*slot = ++ix->nr;
	return 0;
}

int pulse_offcpu__new(struct pulse_offcpu **out, const struct pulse_offcpu_opts *opts)
{
	struct pulse_offcpu *oc;
	unsigned int sz;

	*out = NULL;
	if (!opts || opts->sz < sizeof(*opts) || !opts->attr)
		return -EINVAL;
	sz = opts->state_size;
	if (sz != 1 && sz != 2 && sz != 4 && sz != 8)
		return -EINVAL;
	/* without TID and TIME no interval can be told */
	if ((opts->attr->sample_type & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME)) !=
	    (PERF_SAMPLE_TID | PERF_SAMPLE_TIME))
		return -EINVAL;
	oc = calloc(1, sizeof(*oc));
	if (!oc)
		return -ENOMEM;
	oc->attr = *opts->attr;
	oc->state_offset = opts->state_offset;
	oc->state_size = sz;
	oc->states = opts->states ? opts->states : PULSE_OFFCPU_STATE_S | PULSE_OFFCPU_STATE_D;
	oc->exclude_pid = opts->exclude_pid;
	*out = oc;
	return 0;
}

void pulse_offcpu__delete(struct pulse_offcpu *oc)
{
	if (!oc)
		return;
	ix_exit(&oc->task_ix);
	ix_exit(&oc->stack_ix);
	ix_exit(&oc->entry_ix);
	free(oc->tasks);
	free(oc->stacks);
	free(oc->pool);
	free(oc->entries);
	free(oc->queue);
	free(oc);
}

/* ---- the tables ---------------------------------------------------------- */

static bool task_eq(const struct pulse_offcpu *oc, __u32 e, const void *key)
{
	return oc->tasks[e].tid == *(const __u32 *)key;
}

static struct oc_task *task_get(struct pulse_offcpu *oc, __u32 pid, __u32 tid)
{
	__u64 h = pulse_mix64(tid);
	__u32 *slot = ix_find(oc, &oc->task_ix, h, task_eq, &tid);
	struct oc_task *t;

	if (!slot)
		return NULL;
	if (*slot)
		return &oc->tasks[*slot - 1];
	if (oc_reserve((void **)&oc->tasks, &oc->tasks_cap, oc->nr_tasks + 1, sizeof(*t)) ||
	    ix_insert(&oc->task_ix, slot, h))
		return NULL;
	t = &oc->tasks[oc->nr_tasks++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	return t;
}

struct stack_key {
	const __u64 *ips;
	__u64 nr;
};

static bool stack_eq(const struct pulse_offcpu *oc, __u32 e, const void *key)
{
	const struct stack_key *k = key;
	const struct oc_stack *s = &oc->stacks[e];

	return s->nr == k->nr && (!k->nr || !memcmp(oc->pool + s->off, k->ips, k->nr * sizeof(__u64)));
}

/* The stack number of @ips[@nr] (unaligned is fine), added when new; -ENOMEM. */
static int stack_intern(struct pulse_offcpu *oc, const __u64 *ips, __u64 nr, __u32 *id)
{
	struct stack_key k = { ips, nr };
	__u64 h = pulse_mix64(nr), v;
	__u32 *slot;
	struct oc_stack *s;

	for (__u64 i = 0; i < nr; i++) {
		memcpy(&v, &ips[i], sizeof(v));
		h = pulse_mix64(h ^ v);
	}
	slot = ix_find(oc, &oc->stack_ix, h, stack_eq, &k);
	if (!slot)
		return -ENOMEM;
	if (*slot) {
		*id = *slot - 1;
		return 0;
	}
	if (oc_reserve((void **)&oc->stacks, &oc->stacks_cap, oc->nr_stacks + 1, sizeof(*s)) ||
	    /* (+1: the pool exists even when every stack is empty) */
	    oc_reserve((void **)&oc->pool, &oc->pool_cap, oc->pool_len + nr + 1, sizeof(__u64)) ||
	    ix_insert(&oc->stack_ix, slot, h))
		return -ENOMEM;
	s = &oc->stacks[oc->nr_stacks];
	s->off = oc->pool_len;
	s->nr = nr;
	if (nr)
		memcpy(oc->pool + oc->pool_len, ips, nr * sizeof(__u64));
	oc->pool_len += nr;
	*id = oc->nr_stacks++;
	oc->st.stacks = oc->nr_stacks;
	return 0;
}

static bool entry_eq(const struct pulse_offcpu *oc, __u32 e, const void *key)
{
	const struct oc_entry *a = &oc->entries[e], *b = key;

	return a->pid == b->pid && a->tid == b->tid && a->stack == b->stack && a->state == b->state;
}

static int entry_add(struct pulse_offcpu *oc, const struct oc_task *t, __u64 ns)
{
	struct oc_entry k = { .pid = t->pid, .tid = t->tid, .stack = t->stack, .state = t->state };
	__u64 h = pulse_mix64(pulse_mix64(pulse_mix64(((__u64)t->pid << 32 | t->tid) ^ t->stack) ^ t->state));
	__u32 *slot = ix_find(oc, &oc->entry_ix, h, entry_eq, &k);

	if (!slot)
		return -ENOMEM;
	if (!*slot) {
		if (oc_reserve((void **)&oc->entries, &oc->entries_cap, oc->nr_entries + 1,
			       sizeof(k)) ||
		    ix_insert(&oc->entry_ix, slot, h))
			return -ENOMEM;
		oc->entries[oc->nr_entries++] = k;
		oc->st.entries = oc->nr_entries;
	}
	oc->entries[*slot - 1].total += ns;
	oc->st.intervals++;
	oc->st.total_ns += ns;
	return 0;
}

/* ---- the queue ----------------------------------------------------------- */

static struct oc_event *queue_add(struct pulse_offcpu *oc)
{
	struct oc_event *e;

	if (oc_reserve((void **)&oc->queue, &oc->queue_cap, oc->nr_queue + 1, sizeof(*e)))
		return NULL;
	e = &oc->queue[oc->nr_queue++];
	memset(e, 0, sizeof(*e));
	e->seq = oc->seq++;
	return e;
}

int pulse_offcpu__switch_out(struct pulse_offcpu *oc, __u32 pid, __u32 tid, __u64 time,
			     __u64 state, const __u64 *ips, __u64 nr)
{
	struct oc_event *e;
	__u32 stack = 0;
	int ret;

	if (oc->exclude_pid && pid == oc->exclude_pid)
		return 0;
	oc->st.switch_out++;
	/* a stack is kept only for a state that counts: a preemption needs none */
	if (state & oc->states) {
		ret = stack_intern(oc, ips, nr, &stack);
		if (ret)
			return ret;
	}
	e = queue_add(oc);
	if (!e)
		return -ENOMEM;
	e->out = true;
	e->pid = pid;
	e->tid = tid;
	e->time = time;
	e->state = state;
	e->stack = stack;
	return 0;
}

int pulse_offcpu__switch_in(struct pulse_offcpu *oc, __u32 pid, __u32 tid, __u64 time)
{
	struct oc_event *e;

	if (oc->exclude_pid && pid == oc->exclude_pid)
		return 0;
	e = queue_add(oc);
	if (!e)
		return -ENOMEM;
	oc->st.switch_in++;
	e->pid = pid;
	e->tid = tid;
	e->time = time;
	return 0;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct oc_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int account(struct pulse_offcpu *oc, const struct oc_event *e)
{
	struct oc_task *t = task_get(oc, e->pid, e->tid);

	if (!t)
		return -ENOMEM;
	if (!e->out) {
		if (t->pending && e->time >= t->t_out) {
			t->pending = false;
			return entry_add(oc, t, e->time - t->t_out);
		}
		t->early_in = e->time;
		return 0;
	}
	/* the pid a tid belongs to changes only by exec from another thread: keep the newest */
	t->pid = e->pid;
	t->pending = false;
	if (!(e->state & oc->states)) {
		/* running (preempted), stopped or dead: not blocked */
		t->early_in = 0;
		return 0;
	}
	t->state = e->state;
	t->stack = e->stack;
	t->t_out = e->time;
	if (t->early_in > e->time) {
		/* its switch-in was read first */
		__u64 ns = t->early_in - e->time;

		t->early_in = 0;
		return entry_add(oc, t, ns);
	}
	t->early_in = 0;
	t->pending = true;
	return 0;
}

int pulse_offcpu__flush(struct pulse_offcpu *oc)
{
	int ret = 0;

	if (oc->nr_queue)
		qsort(oc->queue, oc->nr_queue, sizeof(*oc->queue), ev_cmp);
	for (size_t i = 0; i < oc->nr_queue && !ret; i++)
		ret = account(oc, &oc->queue[i]);
	oc->nr_queue = 0;
	return ret;
}

void pulse_offcpu__stats(const struct pulse_offcpu *oc, struct pulse_offcpu_stats *st)
{
	*st = oc->st;
}

/* ---- the samples --------------------------------------------------------- */

/* perf's OFF_CPU_TIMESTAMP: "we don't need actual timestamp, just want to put the samples at last" */
#define OFFCPU_TIME_BASE (~0ULL << 32)

/* The first ip of a callchain and its cpumode, from the context marker before it. */
static __u64 first_ip(const __u64 *ips, __u32 nr, __u16 *misc)
{
	*misc = PERF_RECORD_MISC_USER;
	for (__u32 i = 0; i < nr; i++) {
		if (ips[i] >= (__u64)PERF_CONTEXT_MAX) {
			if (ips[i] == (__u64)PERF_CONTEXT_KERNEL)
				*misc = PERF_RECORD_MISC_KERNEL;
			else if (ips[i] == (__u64)PERF_CONTEXT_USER)
				*misc = PERF_RECORD_MISC_USER;
			continue;
		}
		return ips[i];
	}
	return 0;
}

void pulse_offcpu__event_attr(struct perf_event_attr *attr)
{
	/* perf 6.1's off_cpu_config(): never fires; the recorder writes its samples */
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_BPF_OUTPUT;
	attr->freq = 1;
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_CALLCHAIN;
}

int pulse_offcpu__write(struct pulse_offcpu *oc, const struct perf_event_attr *attr, __u64 id,
			int (*emit)(void *arg, const void *rec, size_t size), void *arg)
{
	__u64 type = attr->sample_type;
	__u64 *buf = NULL;
	size_t cap = 0;
	int ret = 0;

	if (type & ~(__u64)PULSE_OFFCPU_SAMPLE_TYPES)
		return -EINVAL;
	for (size_t i = 0; i < oc->nr_entries && !ret; i++) {
		const struct oc_entry *e = &oc->entries[i];
		const struct oc_stack *s = &oc->stacks[e->stack];
		const __u64 *ips = oc->pool + s->off;
		struct perf_event_header h = { .type = PERF_RECORD_SAMPLE };
		size_t n = 1;

		/* header, 8 fields at most, the callchain */
		if (oc_reserve((void **)&buf, &cap, 10 + s->nr, sizeof(__u64))) {
			ret = -ENOMEM;
			break;
		}
		if (type & PERF_SAMPLE_IDENTIFIER)
			buf[n++] = id;
		if (type & PERF_SAMPLE_IP)
			buf[n++] = first_ip(ips, s->nr, &h.misc);
		else
			first_ip(ips, s->nr, &h.misc);
		if (type & PERF_SAMPLE_TID)
			buf[n++] = (__u64)e->tid << 32 | e->pid;
		if (type & PERF_SAMPLE_TIME)
			buf[n++] = OFFCPU_TIME_BASE + i;
		if (type & PERF_SAMPLE_ID)
			buf[n++] = id;
		if (type & PERF_SAMPLE_CPU)
			buf[n++] = 0;
		if (type & PERF_SAMPLE_PERIOD)
			buf[n++] = e->total;
		if (type & PERF_SAMPLE_CALLCHAIN) {
			buf[n++] = s->nr;
			if (s->nr)
				memcpy(&buf[n], ips, s->nr * sizeof(__u64));
			n += s->nr;
		}
		if (type & PERF_SAMPLE_CGROUP)
			buf[n++] = 0;
		/* (a ring's record held the callchain, so it fits one; said for the reader) */
		if (n * sizeof(__u64) > 0xffff)
			continue;
		h.size = n * sizeof(__u64);
		memcpy(buf, &h, sizeof(h));
		ret = emit(arg, buf, n * sizeof(__u64));
	}
	free(buf);
	return ret;
}
