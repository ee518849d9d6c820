// SPDX-License-Identifier: GPL-2.0
/*
 * The call stacks perf 6.1 keeps per thread while walking a trace
 * (util/thread-stack.c, as intel-pt.c uses it with --itrace=g): a call
 * pushes its return address (zero-length calls excepted), a return pops to
 * the entry of its target, a trace start pops what cannot be returned to,
 * a new trace number (a discontinuous trace) empties it; a sample's
 * synthesized callchain is its ip then the return addresses, innermost
 * first, with a context marker where user and kernel change. With
 * --itrace=l each stack also keeps its thread's last branches (perf's
 * br_stack_rb), newest first in a sample's branch stack.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "aux/pt-q.h"

#define IPF_CALL (1U << 1)
#define IPF_TX_ABORT (1U << 7)
#define IPF_IN_TX (1U << 10)
#define IPF_RETURN (1U << 2)
#define IPF_TRACE_BEGIN (1U << 8)
#define IPF_TRACE_END (1U << 9)

#define CONTEXT_KERNEL ((uint64_t)-128)
#define CONTEXT_USER ((uint64_t)-512)

static struct pt_tstack *find(struct pulse_pt *pt, int32_t tid, bool create)
{
	struct pt_tstacks *ts = &pt->stacks;

	for (size_t i = 0; i < ts->n; i++)
		if (ts->v[i].tid == tid)
			return &ts->v[i];
	if (!create)
		return NULL;
	if (ts->n == ts->alloc) {
		size_t n = ts->alloc ? ts->alloc * 2 : 8;
		struct pt_tstack *v = realloc(ts->v, n * sizeof(*v));

		if (!v)
			return NULL;
		ts->v = v;
		ts->alloc = n;
	}
	memset(&ts->v[ts->n], 0, sizeof(ts->v[0]));
	ts->v[ts->n].tid = tid;
	return &ts->v[ts->n++];
}

void pt_stacks__exit(struct pulse_pt *pt)
{
	for (size_t i = 0; i < pt->stacks.n; i++) {
		free(pt->stacks.v[i].e);
		free(pt->stacks.v[i].br);
	}
	free(pt->stacks.v);
	memset(&pt->stacks, 0, sizeof(pt->stacks));
}

static int push(struct pt_tstack *s, uint64_t ret, bool trace_end)
{
	if (s->cnt == s->alloc) {
		size_t n = s->alloc ? s->alloc * 2 : 32;
		struct pt_tstack_entry *e = realloc(s->e, n * sizeof(*e));

		if (!e)
			return -ENOMEM;
		s->e = e;
		s->alloc = n;
	}
	s->e[s->cnt].ret = ret;
	s->e[s->cnt].trace_end = trace_end;
	s->cnt++;
	return 0;
}

static void pop(struct pt_tstack *s, uint64_t ret)
{
	for (size_t i = s->cnt; i;) {
		if (s->e[--i].ret == ret) {
			s->cnt = i;
			return;
		}
	}
}

static void pop_trace_end(struct pt_tstack *s)
{
	for (size_t i = s->cnt; i;) {
		if (!s->e[--i].trace_end)
			return;
		s->cnt = i;
	}
}

/* perf's thread_stack__update_br_stack(): no mispredict bits (mispred-all off) */
static int update_br_stack(struct pulse_pt *pt, struct pt_tstack *s, uint32_t flags,
			   uint64_t from, uint64_t to)
{
	struct pt_br *be;

	if (!s->br) {
		s->br = calloc(pt->br_stack_sz, sizeof(*s->br));
		if (!s->br)
			return -ENOMEM;
	}
	if (!s->br_pos)
		s->br_pos = pt->br_stack_sz;
	be = &s->br[--s->br_pos];
	be->from = from;
	be->to = to;
	be->flags = (flags & IPF_IN_TX ? 1U << 2 : 0) | (flags & IPF_TX_ABORT ? 1U << 3 : 0);
	if (s->br_nr < pt->br_stack_sz)
		s->br_nr++;
	return 0;
}

/* perf's thread_stack__br_sample(): the last @sz branches, newest first */
size_t pt_stack__br_sample(struct pulse_pt *pt, int32_t tid, struct pt_br *dst, unsigned int sz)
{
	struct pt_tstack *s = tid == -1 ? NULL : find(pt, tid, false);
	unsigned int nr, n;

	if (!s || !s->br_nr)
		return 0;
	nr = s->br_nr < sz ? s->br_nr : sz;
	n = pt->br_stack_sz - s->br_pos < nr ? pt->br_stack_sz - s->br_pos : nr;
	memcpy(dst, &s->br[s->br_pos], n * sizeof(*dst));
	if (n < nr)
		memcpy(dst + n, s->br, (nr - n) * sizeof(*dst));
	return nr;
}

/* perf's thread_stack__event() (call stack mode) */
int pt_stack__event(struct pulse_pt *pt, int32_t tid, uint32_t flags, uint64_t from,
		    uint64_t to, int insn_len, int trace_nr)
{
	struct pt_tstack *s;

	if (tid == -1)
		return -EINVAL;
	s = find(pt, tid, true);
	if (!s)
		return -ENOMEM;
	if (trace_nr != s->trace_nr) {
		s->cnt = 0;
		s->br_pos = 0;
		s->br_nr = 0;
		s->trace_nr = trace_nr;
	}
	if (pt->br_stack_sz) {
		int err = update_br_stack(pt, s, flags, from, to);

		if (err)
			return err;
	}
	if (!pt->callstack)
		return 0;
	if (flags & IPF_CALL) {
		uint64_t ret = from + insn_len;

		if (!to || ret == to)
			return 0;
		return push(s, ret, flags & IPF_TRACE_END);
	}
	if (flags & IPF_TRACE_BEGIN) {
		pop(s, to);
		pop_trace_end(s);
	} else if ((flags & IPF_RETURN) && from) {
		pop(s, to);
	}
	return 0;
}

/* perf's thread_stack__sample(): the chain of a sample at @ip; its length */
size_t pt_stack__sample(struct pulse_pt *pt, int32_t tid, uint64_t *ips, size_t sz, uint64_t ip)
{
	struct pt_tstack *s = tid == -1 ? NULL : find(pt, tid, false);
	uint64_t context = ip < pt->kernel_start ? CONTEXT_USER : CONTEXT_KERNEL, last;
	size_t i, j;

	if (sz < 2)
		return 0;
	ips[0] = context;
	ips[1] = ip;
	if (!s)
		return 2;
	last = context;
	for (i = 2, j = 1; i < sz && j <= s->cnt; i++, j++) {
		ip = s->e[s->cnt - j].ret;
		context = ip < pt->kernel_start ? CONTEXT_USER : CONTEXT_KERNEL;
		if (context != last) {
			if (i >= sz - 1)
				break;
			ips[i++] = context;
			last = context;
		}
		ips[i] = ip;
	}
	return i;
}

/*
 * perf's thread_stack__sample_late(): the chain of a sample taken while
 * the trace ran (--itrace=G), from the thread stack as decoded up to it;
 * kernel return addresses above the first user one are left out, they
 * came after the sample.
 */
size_t pt_stack__sample_late(struct pulse_pt *pt, int32_t tid, uint64_t *ips, size_t sz,
			     uint64_t sample_ip)
{
	struct pt_tstack *s = tid == -1 ? NULL : find(pt, tid, false);
	uint64_t sample_context = sample_ip < pt->kernel_start ? CONTEXT_USER : CONTEXT_KERNEL;
	uint64_t last, context, ip;
	size_t nr = 0, j;

	if (sz < 2)
		return 0;
	if (s) {
		for (j = 1; j <= s->cnt; j++) {
			ip = s->e[s->cnt - j].ret;
			context = ip < pt->kernel_start ? CONTEXT_USER : CONTEXT_KERNEL;
			if (context == CONTEXT_USER ||
			    (context == sample_context && ip == sample_ip))
				break;
		}
		last = sample_ip;	/* not a context: the first address gets one */
		for (; nr < sz && j <= s->cnt; nr++, j++) {
			ip = s->e[s->cnt - j].ret;
			context = ip < pt->kernel_start ? CONTEXT_USER : CONTEXT_KERNEL;
			if (context != last) {
				if (nr >= sz - 1)
					break;
				ips[nr++] = context;
				last = context;
			}
			ips[nr] = ip;
		}
	}
	if (nr)
		return nr;
	ips[0] = sample_context;
	ips[1] = sample_ip;
	return 2;
}
