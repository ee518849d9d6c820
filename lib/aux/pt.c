// SPDX-License-Identifier: GPL-2.0
/*
 * Intel PT in a session, as perf 6.1's intel-pt.c runs it: AUXTRACE
 * buffers queued per AUX area (a file's from the start, as perf's index
 * gives them; a pipe's as they come), a decoder per queue, and before each
 * record with a time every queue decoded up to that time, the queue that
 * is furthest behind first (perf's heap). The current thread of each CPU
 * comes from ITRACE_START and the context switches; the code comes from the
 * binaries the machine's maps name (pt-code.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/machine.h>
#include <pulse/perf-abi.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "aux/pt-q.h"

#define MAX_TIMESTAMP (~0ULL)

/* ---- the current thread of each CPU ---------------------------------------- */

static int set_current_tid(struct pulse_pt *pt, int cpu, int32_t pid, int32_t tid)
{
	if (cpu < 0)
		return 0;
	if ((size_t)cpu >= pt->nr_cur_tid) {
		size_t n = cpu + 1;
		struct pt_cur_tid *c = realloc(pt->cur_tid, n * sizeof(*c));

		if (!c)
			return -ENOMEM;
		for (size_t i = pt->nr_cur_tid; i < n; i++)
			c[i] = (struct pt_cur_tid){ -1, -1 };
		pt->cur_tid = c;
		pt->nr_cur_tid = n;
	}
	pt->cur_tid[cpu] = (struct pt_cur_tid){ pid, tid };
	return 0;
}

/* perf's intel_pt_set_pid_tid_cpu() */
static void set_pid_tid(struct pulse_pt *pt, struct pt_queue *q)
{
	struct pulse_thread *t;

	if (q->buf_tid == -1 || pt->have_sched_switch) {
		q->tid = q->cpu >= 0 && (size_t)q->cpu < pt->nr_cur_tid ? pt->cur_tid[q->cpu].tid : -1;
		if (q->tid == -1)
			q->pid = -1;
	}
	if (q->tid != -1 && (t = pulse_machine__find_thread(pt->m, q->tid)) && t->pid != -1)
		q->pid = t->pid;
}

/* ---- the code walk ---------------------------------------------------------- */

/*
 * perf's intel_pt_walk_next_insn(): instructions from *@ip to the next
 * branch, @to_ip or @max_insn_cnt. -EINVAL: no map, or code that cannot
 * be read (an error event); -ENOENT: the binary is known to be unreadable
 * and has been reported (silent).
 */
static int walk_next_insn(struct pt_insn_info *insn, uint64_t *insn_cnt_ptr, uint64_t *ip,
			  uint64_t to_ip, uint64_t max_insn_cnt, void *data)
{
	struct pt_queue *q = data;
	struct pulse_pt *pt = q->pt;
	const struct pulse_maps *maps;
	uint64_t insn_cnt = 0, start_off = 0, start_cnt = 0, start_ip = 0;
	bool kernel = *ip >= pt->kernel_start, cacheable = false;

	insn->length = 0;
	if (to_ip && *ip == to_ip)
		goto out;
	if (kernel) {
		maps = &pt->m->kmaps;
	} else {
		struct pulse_thread *t = q->tid != -1 ? pulse_machine__find_thread(pt->m, q->tid) : NULL;

		if (!t || !t->maps)
			return -EINVAL;
		maps = t->maps;
	}
	for (;;) {
		const struct pulse_map *map = pulse_maps__find(maps, *ip);
		struct pt_code *code;
		uint64_t off;

		if (!map || !map->dso)
			return -EINVAL;
		if (map->dso == pt->last_dso) {
			code = pt->last_code;
		} else {
			code = pt_codes__get(&pt->codes, map->dso->long_name, map->dso,
					     &pt->m->dsos.opts);
			if (!code)
				return -ENOMEM;
			pt->last_dso = map->dso;
			pt->last_code = code;
		}
		if (code->error && pt_code__seen(code))
			return -ENOENT;
		off = pulse_map__map_ip(map, *ip);
		/* perf's intel_pt_cache: a walk from here to its branch, done before */
		if (!to_ip && code->map) {
			struct pt_walk_cache *c = &pt->wcache[(((uintptr_t)code >> 4) ^ off ^
							      (off >> 16)) & (PT_WCACHE - 1)];

			if (c->code == code && c->off == off &&
			    (!max_insn_cnt || c->insn_cnt <= max_insn_cnt)) {
				*ip += c->byte_cnt;
				*insn = c->insn;
				insn_cnt += c->insn_cnt;
				goto out;
			}
			start_off = off;
			start_cnt = insn_cnt;
			start_ip = *ip;
			cacheable = true;
		}
		for (;;) {
			size_t left;

			if (!code->map || off >= code->map_len) {
				code->error = true;
				return -EINVAL;
			}
			left = code->map_len - off;
			if (pt_insn__decode((const uint8_t *)code->map + off, left < 16 ? left : 16,
					    code->is64, insn))
				return -EINVAL;
			insn_cnt += 1;
			if (insn->branch != PT_BR_NO_BRANCH) {
				if (cacheable) {
					struct pt_walk_cache *c = &pt->wcache[
						(((uintptr_t)code >> 4) ^ start_off ^ (start_off >> 16)) &
						(PT_WCACHE - 1)];

					*c = (struct pt_walk_cache){ code, start_off, *ip - start_ip,
								     insn_cnt - start_cnt, *insn };
				}
				goto out;
			}
			if (max_insn_cnt && insn_cnt >= max_insn_cnt)
				goto out;
			*ip += insn->length;
			if (to_ip && *ip == to_ip) {
				insn->length = 0;
				goto out;
			}
			if (*ip >= map->end)
				break;
			off += insn->length;
		}
	}
out:
	*insn_cnt_ptr = insn_cnt;
	return 0;
}

/*
 * perf 6.1 looks at the first binaries mapped into an address space before
 * the trace is walked (to choose an unwinder, unwind__prepare_access()):
 * each unreadable one is then already known as such, and its first failed
 * walk is its only error event, where another binary gets two. Those it
 * looks at: the kernel, and the maps of a process from its start (or exec)
 * up to the first one whose file opens (the vDSO always does).
 */
static bool probed(struct pulse_pt *pt, int32_t pid)
{
	for (size_t i = 0; i < pt->nr_probed; i++)
		if (pt->probed_pids[i] == pid)
			return true;
	return false;
}

static void set_probed(struct pulse_pt *pt, int32_t pid, bool on)
{
	for (size_t i = 0; i < pt->nr_probed; i++) {
		if (pt->probed_pids[i] == pid) {
			if (!on)
				pt->probed_pids[i] = pt->probed_pids[--pt->nr_probed];
			return;
		}
	}
	if (!on)
		return;
	if (pt->nr_probed == pt->alloc_probed) {
		size_t n = pt->alloc_probed ? pt->alloc_probed * 2 : 16;
		int32_t *p = realloc(pt->probed_pids, n * sizeof(*p));

		if (!p)
			return;
		pt->probed_pids = p;
		pt->alloc_probed = n;
	}
	pt->probed_pids[pt->nr_probed++] = pid;
}

static void probe_map(struct pulse_pt *pt, const struct perf_event_header *rec)
{
	const char *name;
	struct pt_code *code;
	int32_t pid;

	if (rec->size < sizeof(*rec) + (rec->type == PERF_RECORD_MMAP ? 33 : 65))
		return;
	pid = ((const int32_t *)(rec + 1))[0];
	name = (const char *)(rec + 1) + (rec->type == PERF_RECORD_MMAP ? 32 : 64);
	if (pid == -1 || (rec->misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
		if (pt->kernel_probed)
			return;
		pt->kernel_probed = true;
		name = "[kernel.kallsyms]";
	} else if (probed(pt, pid)) {
		return;
	}
	code = pt_codes__get(&pt->codes, name, pulse_dsos__find(&pt->m->dsos, name),
			     &pt->m->dsos.opts);
	if (!code)
		return;
	if (!strcmp(name, "[vdso]") || pt_code__readable(code)) {
		if (pid != -1)
			set_probed(pt, pid, true);
		return;
	}
	code->error = true;
}

/* ---- queues ---------------------------------------------------------------- */

static int get_trace(struct pt_buffer *b, void *data)
{
	struct pt_queue *q = data;
	struct pt_buf *buf = q->next_buf;

	if (!buf) {
		b->len = 0;
		return 0;
	}
	q->next_buf = buf->next;
	b->buf = buf->data;
	b->len = buf->len;
	b->ref_timestamp = buf->reference;
	b->offset = buf->offset;
	b->consecutive = buf != q->head;
	if (!b->consecutive)
		b->trace_nr = ++q->trace_nr;
	return 0;
}

static struct pt_queue *queue_of(struct pulse_pt *pt, unsigned int idx, int cpu, int tid)
{
	struct pt_queue *q;

	if (idx >= pt->nr_queues) {
		struct pt_queue **v = realloc(pt->queues, (idx + 1) * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + pt->nr_queues, 0, (idx + 1 - pt->nr_queues) * sizeof(*v));
		pt->queues = v;
		pt->nr_queues = idx + 1;
	}
	q = pt->queues[idx];
	if (!q) {
		q = calloc(1, sizeof(*q));
		if (!q)
			return NULL;
		q->pt = pt;
		q->idx = idx;
		q->cpu = cpu;
		q->buf_tid = tid;
		q->tid = tid;
		q->pid = -1;
		q->cbr_seen = ~0U;
		pt->queues[idx] = q;
	}
	return q;
}

/* an AUXTRACE record and its data (@copy: the data does not stay) */
static int add_buffer(struct pulse_pt *pt, const struct perf_event_header *rec, const void *data,
		      uint64_t len, bool copy)
{
	const uint64_t *w = (const void *)(rec + 1);	/* size, offset, reference */
	const uint32_t *u = (const void *)(w + 3);	/* idx, tid, cpu */
	struct pt_queue *q;
	struct pt_buf *b;

	if (rec->size < sizeof(*rec) + 40 || !data)
		return 0;
	q = queue_of(pt, u[0], (int32_t)u[2], (int32_t)u[1]);
	if (!q)
		return -ENOMEM;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	if (copy) {
		b->owned = malloc(len ? len : 1);
		if (!b->owned) {
			free(b);
			return -ENOMEM;
		}
		memcpy(b->owned, data, len);
		data = b->owned;
	}
	b->data = data;
	b->len = len;
	b->offset = w[1];
	b->reference = w[2];
	if (q->tail)
		q->tail->next = b;
	else
		q->head = b;
	q->tail = b;
	if (!q->next_buf)
		q->next_buf = b;
	pt->new_data = true;
	return 0;
}

static int alloc_decoder(struct pulse_pt *pt, struct pt_queue *q)
{
	const uint64_t *p = pt->info.priv;
	uint64_t cfg = pt->pt_attr.config;
	struct pt_params params = {
		.get_trace = get_trace,
		.walk_insn = walk_next_insn,
		.data = q,
		.return_compression = !(p[PULSE_PT_NORETCOMP_BIT] &&
					(cfg & p[PULSE_PT_NORETCOMP_BIT])),
		.branch_enable = true,
		.max_non_turbo_ratio = pt->max_non_turbo_ratio,
		.tsc_ctc_ratio_n = p[PULSE_PT_TSC_CTC_N],
		.tsc_ctc_ratio_d = p[PULSE_PT_TSC_CTC_D],
	};
	uint64_t bits = p[PULSE_PT_MTC_FREQ_BITS];

	/* perf's intel_pt_branch_enable(): BranchEn is bit 13 of the config */
	if (pt->have_pt_attr && !(cfg & (1ULL << 13)))
		params.branch_enable = false;
	if (bits) {
		int shift = __builtin_ctzll(bits);

		params.mtc_period = (cfg & bits) >> shift;
	}
	if (pt->synth.instructions) {
		if (pt->synth.period) {
			switch (pt->synth.period_type) {
			case PULSE_ITRACE_PERIOD_INSTRUCTIONS:
				params.period_type = PT_PERIOD_INSTRUCTIONS;
				params.period = pt->synth.period;
				break;
			case PULSE_ITRACE_PERIOD_TICKS:
				params.period_type = PT_PERIOD_TICKS;
				params.period = pt->synth.period;
				break;
			case PULSE_ITRACE_PERIOD_NANOSECS:
				params.period_type = PT_PERIOD_TICKS;
				params.period = pt_perf_time_to_tsc(pt, pt->tc_zero + pt->synth.period);
				break;
			}
		}
		if (!params.period) {
			params.period_type = PT_PERIOD_INSTRUCTIONS;
			params.period = 1;
		}
	}
	q->dec = pt_decoder__new(&params);
	return q->dec ? 0 : -ENOMEM;
}

/* perf's intel_pt_setup_queue(): decode to the first timestamp */
static int setup_queue(struct pulse_pt *pt, struct pt_queue *q)
{
	const struct pt_state *st;
	int err;

	if (!q->head)
		return 0;
	if (!q->dec) {
		err = alloc_decoder(pt, q);
		if (err)
			return err;
	}
	if (q->on_heap || q->set_up)
		return 0;
	for (;;) {
		st = pt_decoder__decode(q->dec);
		if (st->err) {
			if (st->err == PT_ERR_NODATA)
				return 0;
			continue;
		}
		if (st->timestamp)
			break;
	}
	q->set_up = true;
	q->timestamp = st->timestamp;
	q->state = st;
	q->have_sample = true;
	q->ordinal = q->timestamp;
	q->on_heap = true;
	return 0;
}

static int update_queues(struct pulse_pt *pt)
{
	int err;

	if (!pt->new_data)
		return 0;
	pt->new_data = false;
	for (size_t i = 0; i < pt->nr_queues; i++) {
		if (!pt->queues[i])
			continue;
		err = setup_queue(pt, pt->queues[i]);
		if (err)
			return err;
	}
	return 0;
}

/* perf's intel_pt_run_decoder(): 0 at *@timestamp, 1 when the data ran out */
static int run_decoder(struct pt_queue *q, uint64_t *timestamp)
{
	struct pulse_pt *pt = q->pt;
	const struct pt_state *st;
	int err;

	for (;;) {
		err = pt_synth__sample(q);
		if (err)
			return err;
		st = pt_decoder__decode(q->dec);
		if (st->err) {
			if (st->err == PT_ERR_NODATA)
				return 1;
			q->timestamp = st->est_timestamp;
			if (pt->synth.errors) {
				err = pt_synth__error(pt, st->err, q->cpu, q->pid, q->tid, st->from_ip,
						      q->timestamp, true);
				if (err)
					return err;
			}
			continue;
		}
		q->state = st;
		q->have_sample = true;
		pt_synth__flags(q);
		/* the estimated TSC on a return to user space */
		if ((st->from_ip >= pt->kernel_start || !st->from_ip) && st->to_ip &&
		    st->to_ip < pt->kernel_start)
			q->timestamp = st->est_timestamp;
		else if (st->timestamp > q->timestamp)
			q->timestamp = st->timestamp;
		if (q->timestamp >= *timestamp) {
			*timestamp = q->timestamp;
			return 0;
		}
	}
}

/* perf's intel_pt_process_queues(): the queue furthest behind first */
static int process_queues(struct pulse_pt *pt, uint64_t timestamp)
{
	for (;;) {
		struct pt_queue *q = NULL, *next = NULL;
		uint64_t ts;
		int ret;

		for (size_t i = 0; i < pt->nr_queues; i++) {
			struct pt_queue *c = pt->queues[i];

			if (c && c->on_heap && (!q || c->ordinal < q->ordinal))
				q = c;
		}
		for (size_t i = 0; q && i < pt->nr_queues; i++) {
			struct pt_queue *c = pt->queues[i];

			if (c && c != q && c->on_heap && (!next || c->ordinal < next->ordinal))
				next = c;
		}
		if (!q || q->ordinal >= timestamp)
			return 0;
		ts = timestamp;
		if (next && next->ordinal + 1 < ts)
			ts = next->ordinal + 1;
		set_pid_tid(pt, q);
		ret = run_decoder(q, &ts);
		q->ordinal = ts;
		if (ret < 0)
			return ret;
		if (ret)
			q->on_heap = false;
	}
}

/* ---- set-up ------------------------------------------------------------------ */

static int setup_info(struct pulse_pt *pt, const struct perf_event_header *rec)
{
	const uint64_t *p;
	uint64_t tsc_freq;
	size_t nr_attrs;
	int err;

	if (pt->have_info)
		return 0;
	if (rec->size >= 12 && ((const uint32_t *)(rec + 1))[0] != PULSE_AUXTRACE_INTEL_PT) {
		pt->unsupported = ((const uint32_t *)(rec + 1))[0];
		return 0;
	}
	err = pulse_pt_info__parse(rec, rec->size, &pt->info);
	if (err)
		return err;
	pt->have_info = true;
	p = pt->info.priv;
	pt->tc_shift = p[PULSE_PT_TIME_SHIFT];
	pt->tc_mult = p[PULSE_PT_TIME_MULT];
	pt->tc_zero = p[PULSE_PT_TIME_ZERO];
	pt->have_sched_switch = p[PULSE_PT_HAVE_SCHED_SWITCH];
	pt->snapshot = p[PULSE_PT_SNAPSHOT_MODE];
	pt->per_cpu_mmaps = p[PULSE_PT_PER_CPU_MMAPS];
	pt->kernel_start = 1ULL << 63;	/* x86_64: perf's machine__kernel_start() */
	pt->max_non_turbo_ratio = p[PULSE_PT_MAX_NONTURBO_RATIO];
	if (pt->tc_mult) {
		tsc_freq = pt_perf_time_to_tsc(pt, pt->tc_zero + 1000000000ULL);
		/* an older file does not say: TSC frequency / 100 MHz, as perf takes it */
		if (!pt->max_non_turbo_ratio)
			pt->max_non_turbo_ratio = (tsc_freq + 50000000) / 100000000;
		if (pt->max_non_turbo_ratio)
			pt->cbr2khz = tsc_freq / pt->max_non_turbo_ratio / 1000;
	}

	/* the intel_pt event: the attr of the PMU type the record names */
	nr_attrs = pulse_data__nr_attrs(pt->d);
	pt->ev.branches_id = 1000000000;
	for (size_t i = 0; i < nr_attrs; i++) {
		const struct perf_event_attr *a = pulse_data__attr(pt->d, i);
		const __u64 *ids;
		size_t nr;

		if (a->type != p[PULSE_PT_PMU_TYPE])
			continue;
		pt->pt_attr = *a;
		pt->have_pt_attr = true;
		ids = pulse_data__attr_ids(pt->d, i, &nr);
		pt->ev.branches_id = (nr ? ids[0] : 0) + 1000000000;
		if (!pt->ev.branches_id)
			pt->ev.branches_id = 1;
		break;
	}
	pt->use_thread_stack = pt->synth.callchain || pt->synth.add_callchain ||
			       pt->synth.last_branch || pt->synth.add_last_branch;
	pt->callstack = pt->synth.callchain || pt->synth.add_callchain;
	if (pt->synth.last_branch || pt->synth.add_last_branch)
		pt->br_stack_sz = pt->synth.last_branch_sz;
	if (pt->synth.calls)
		pt->branches_filter |= (1U << 1) | (1U << 5) | (1U << 9);	/* CALL ASYNC TRACE_END */
	if (pt->synth.returns)
		pt->branches_filter |= (1U << 2) | (1U << 8);	/* RETURN TRACE_BEGIN */
	return pt_synth__events(pt);
}

struct prescan {
	struct pulse_pt *pt;
	int err;
};

static int prescan_record(struct pulse_data *d, const struct perf_event_header *rec,
			  __u64 file_offset, void *arg)
{
	struct prescan *ps = arg;
	const void *data;
	uint64_t len;

	if (rec->type == PERF_RECORD_AUXTRACE_INFO) {
		ps->err = setup_info(ps->pt, rec);
		return ps->err;
	}
	if (rec->type == PERF_RECORD_AUXTRACE && ps->pt->have_info) {
		data = pulse_data__auxtrace_data(d, &len);
		ps->err = add_buffer(ps->pt, rec, data, len, false);
		return ps->err;
	}
	return 0;
}

/*
 * AUX data comes only from PMUs with a dynamic type (intel_pt, arm_spe,
 * cs_etm, ...): a file whose events are all of the fixed types has none,
 * and the prescan's walk of every record (a tenth of a 540 MB report) is
 * not needed.
 */
static bool data__has_dynamic_pmu(const struct pulse_data *d)
{
	size_t nr = pulse_data__nr_attrs(d);

	for (size_t i = 0; i < nr; i++) {
		const struct perf_event_attr *a = pulse_data__attr(d, i);

		if (a && a->type >= PERF_TYPE_MAX)
			return true;
	}
	return false;
}

int pulse_pt__new(struct pulse_pt **ptp, struct pulse_session *s, const struct pulse_pt_opts *o)
{
	struct pulse_pt *pt;
	struct prescan ps;
	int err;

	*ptp = NULL;
	pt = calloc(1, sizeof(*pt));
	if (!pt)
		return -ENOMEM;
	pt->s = s;
	pt->d = pulse_session__data(s);
	pt->m = pulse_session__machine(s);
	if (o)
		memcpy(&pt->opts, o, o->sz < sizeof(pt->opts) ? o->sz : sizeof(pt->opts));
	if (pt->opts.itrace && pt->opts.itrace->set) {
		pt->synth = *pt->opts.itrace;
	} else {
		pulse_itrace__set_default(&pt->synth, pt->opts.default_no_sample);
		/* perf report's default: instructions with their callchains, no branches */
		if (!pt->opts.default_no_sample) {
			pt->synth.branches = false;
			pt->synth.callchain = true;
			pt->synth.add_callchain = true;
		}
	}
	if (!pt->m || pt->synth.dont_decode || !data__has_dynamic_pmu(pt->d)) {
		free(pt);
		return 0;
	}
	if (!pulse_data__is_pipe(pt->d)) {
		ps = (struct prescan){ pt, 0 };
		err = pulse_data__for_each_record(pt->d, prescan_record, &ps);
		if (!err)
			err = ps.err;
		if (err || (!pt->have_info && !pt->unsupported)) {
			pulse_pt__delete(pt);
			return err;
		}
	}
	*ptp = pt;
	return 0;
}

void pulse_pt__delete(struct pulse_pt *pt)
{
	if (!pt)
		return;
	for (size_t i = 0; i < pt->nr_queues; i++) {
		struct pt_queue *q = pt->queues[i];
		struct pt_buf *b, *n;

		if (!q)
			continue;
		for (b = q->head; b; b = n) {
			n = b->next;
			free(b->owned);
			free(b);
		}
		pt_decoder__delete(q->dec);
		free(q);
	}
	free(pt->queues);
	free(pt->cur_tid);
	free(pt->probed_pids);
	pt_stacks__exit(pt);
	pt_codes__exit(&pt->codes);
	free(pt);
}

uint32_t pulse_pt__unsupported(const struct pulse_pt *pt)
{
	return pt ? pt->unsupported : 0;
}

/* ---- the walk's records ------------------------------------------------------ */

static int user_record(struct pulse_pt *pt, const struct perf_event_header *rec)
{
	const void *data;
	uint64_t len;

	/* a file's were read before the walk */
	if (!pulse_data__is_pipe(pt->d))
		return 0;
	if (rec->type == PERF_RECORD_AUXTRACE_INFO)
		return setup_info(pt, rec);
	if (rec->type == PERF_RECORD_AUXTRACE && pt->have_info) {
		data = pulse_data__auxtrace_data(pt->d, &len);
		return add_buffer(pt, rec, data, len, true);
	}
	return 0;
}

int pulse_pt__process(struct pulse_pt *pt, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr;
	struct pulse_sample smp = { 0 };
	uint64_t timestamp = 0;
	int idx, err;

	if (!pt || pt->delivering)
		return 0;
	if (rec->type >= PERF_RECORD_USER_TYPE_START)
		return user_record(pt, rec);
	if (!pt->have_info)
		return 0;
	idx = pulse_data__attr_of(pt->d, rec, rec->size);
	attr = idx >= 0 ? pulse_data__attr(pt->d, idx) : NULL;
	if (attr && (attr->sample_type & PERF_SAMPLE_TIME) &&
	    (rec->type == PERF_RECORD_SAMPLE || attr->sample_id_all) &&
	    !pulse_sample__parse(rec, rec->size, attr, &smp) && smp.time && smp.time != ~0ULL)
		timestamp = pt_perf_time_to_tsc(pt, smp.time);
	if (timestamp) {
		err = update_queues(pt);
		if (!err)
			err = process_queues(pt, timestamp);
		if (err)
			return err;
	}
	if (rec->type == PERF_RECORD_AUX && rec->size >= sizeof(*rec) + 24 &&
	    (((const uint64_t *)(rec + 1))[2] & PERF_AUX_FLAG_TRUNCATED) && pt->synth.errors) {
		err = pt_synth__error(pt, PT_ERR_LOST, smp.cpu, smp.pid, smp.tid, 0, smp.time, false);
		if (err)
			return err;
	}
	switch (rec->type) {
	case PERF_RECORD_ITRACE_START:
		if (pt->per_cpu_mmaps && rec->size >= sizeof(*rec) + 8)
			return set_current_tid(pt, smp.cpu, ((const int32_t *)(rec + 1))[0],
					       ((const int32_t *)(rec + 1))[1]);
		return 0;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* have_sched_switch 3: the next task, from switch-out records */
		if (pt->have_sched_switch == 3 && (rec->misc & PERF_RECORD_MISC_SWITCH_OUT) &&
		    rec->size >= sizeof(*rec) + 8)
			return set_current_tid(pt, smp.cpu, ((const int32_t *)(rec + 1))[0],
					       ((const int32_t *)(rec + 1))[1]);
		return 0;
	case PERF_RECORD_SWITCH:
		if (pt->have_sched_switch != 3 && !(rec->misc & PERF_RECORD_MISC_SWITCH_OUT))
			return set_current_tid(pt, smp.cpu, smp.pid, smp.tid);
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		probe_map(pt, rec);
		return 0;
	case PERF_RECORD_COMM:
		if ((rec->misc & PERF_RECORD_MISC_COMM_EXEC) && rec->size >= sizeof(*rec) + 8)
			set_probed(pt, ((const int32_t *)(rec + 1))[0], false);
		return 0;
	default:
		return 0;
	}
}

int pulse_pt__flush(struct pulse_pt *pt)
{
	int err;

	if (!pt || !pt->have_info)
		return 0;
	err = update_queues(pt);
	if (err)
		return err;
	return process_queues(pt, MAX_TIMESTAMP);
}

size_t pulse_pt__sample_callchain(struct pulse_pt *pt, const struct perf_event_header *rec,
				  const uint64_t **ips)
{
	const struct perf_event_attr *attr;
	struct pulse_sample smp;
	int idx;

	if (!pt || pt->delivering || !pt->have_info || !pt->synth.add_callchain ||
	    rec->type != PERF_RECORD_SAMPLE)
		return 0;
	idx = pulse_data__attr_of(pt->d, rec, rec->size);
	attr = idx >= 0 ? pulse_data__attr(pt->d, idx) : NULL;
	if (!attr || (attr->sample_type & PERF_SAMPLE_CALLCHAIN) ||
	    pulse_sample__parse(rec, rec->size, attr, &smp))
		return 0;
	*ips = pt->chain;
	return pt_stack__sample_late(pt, smp.tid, pt->chain, pt->synth.callchain_sz + 1, smp.ip);
}
