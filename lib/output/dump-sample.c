// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -D's samples (util/session.c dump_sample()): the sample
 * parsed with perf's defaults, its callchain, branch stack, registers,
 * weight, data source and read values, and where the report tool's
 * machine__resolve() lands it, counted per event as perf delivers it.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <pulse/data.h>
#include <pulse/dump.h>
#include <pulse/output-branch.h>
#include <pulse/machine.h>
#include <pulse/reader.h>
#include "core/internal.h"
#include "dump-int.h"

static void count_sample(struct pulse_dump *dump, size_t idx, __u32 n)
{
	/* a count lost to ENOMEM is not worth failing the dump */
	if (pulse_dump__grow_counts(dump, idx))
		dump->nr_samples[idx] += n;
}

/* ---- samples ------------------------------------------------------------ */

/*
 * perf's evsel__parse_sample() defaults: what the sample_type leaves out is
 * -1 (pid, tid, cpu, time, id) or the attr's period.
 */
int pulse_dump__parse_sample(struct pulse_data *d, const struct perf_event_header *rec,
			     struct pulse_sample *s, const struct perf_event_attr **attrp, int *idxp)
{
	const struct perf_event_attr *attr;
	__u64 st;
	int idx;

	memset(s, 0, sizeof(*s));
	s->pid = s->tid = (__u32)-1;
	s->cpu = (__u32)-1;
	s->time = s->id = ~0ULL;
	*attrp = NULL;
	idx = pulse_data__attr_of(d, rec, rec->size);
	*idxp = idx;
	if (idx < 0)
		return idx;
	attr = pulse_data__attr(d, idx);
	if (!attr)
		return -ENOENT;
	*attrp = attr;
	s->period = attr->sample_period;
	if (rec->type != PERF_RECORD_SAMPLE && !attr->sample_id_all)
		return 0;
	if (pulse_sample__parse(rec, rec->size, attr, s))
		return -EBADMSG;
	st = attr->sample_type;
	if (!(st & PERF_SAMPLE_TID))
		s->pid = s->tid = (__u32)-1;
	if (!(st & PERF_SAMPLE_CPU))
		s->cpu = (__u32)-1;
	if (!(st & PERF_SAMPLE_TIME))
		s->time = ~0ULL;
	if (!(st & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)))
		s->id = ~0ULL;
	if (rec->type == PERF_RECORD_SAMPLE && !(st & PERF_SAMPLE_PERIOD))
		s->period = attr->sample_period;
	return 0;
}

/* perf's __evlist__combined_sample_type(): computed once it is non-zero. */
__u64 pulse_dump__combined_sample_type(struct pulse_dump *dump, struct pulse_data *d, size_t nr)
{
	if (!dump->combined_sample_type) {
		for (size_t i = 0; i < nr; i++)
			dump->combined_sample_type |= pulse_data__attr(d, i)->sample_type;
	}
	return dump->combined_sample_type;
}

static void read_values(FILE *out, const struct pulse_sample *s, __u64 rf)
{
	const unsigned char *p = s->read;
	size_t n = s->read_size / 8, i = 0;

#define NEXT() (i < n ? get_u64(p + 8 * i++) : 0)
	fputs("... sample_read:\n", out);
	if (rf & PERF_FORMAT_GROUP) {
		__u64 nr = NEXT(), te = 0, tr = 0;

		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			te = NEXT();
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			tr = NEXT();
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(out, "...... time enabled %016" PRIx64 "\n", (uint64_t)te);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(out, "...... time running %016" PRIx64 "\n", (uint64_t)tr);
		fprintf(out, ".... group nr %" PRIu64 "\n", (uint64_t)nr);
		for (__u64 k = 0; k < nr && i < n; k++) {
			__u64 v = NEXT(), id = 0, lost = 0;

			if (rf & PERF_FORMAT_ID)
				id = NEXT();
			if (rf & PERF_FORMAT_LOST)
				lost = NEXT();
			fprintf(out, "..... id %016" PRIx64 ", value %016" PRIx64, (uint64_t)id,
				(uint64_t)v);
			if (rf & PERF_FORMAT_LOST)
				fprintf(out, ", lost %" PRIu64, (uint64_t)lost);
			fputc('\n', out);
		}
	} else {
		__u64 v = NEXT(), te = 0, tr = 0, id = 0, lost = 0;

		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			te = NEXT();
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			tr = NEXT();
		if (rf & PERF_FORMAT_ID)
			id = NEXT();
		if (rf & PERF_FORMAT_LOST)
			lost = NEXT();
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(out, "...... time enabled %016" PRIx64 "\n", (uint64_t)te);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(out, "...... time running %016" PRIx64 "\n", (uint64_t)tr);
		fprintf(out, "..... id %016" PRIx64 ", value %016" PRIx64, (uint64_t)id,
			(uint64_t)v);
		if (rf & PERF_FORMAT_LOST)
			fprintf(out, ", lost %" PRIu64, (uint64_t)lost);
		fputc('\n', out);
	}
#undef NEXT
}

/* perf's x86 register names (arch/x86/include/perf_regs.h). */
static const char *x86_reg_name(unsigned int id)
{
	static const char *const names[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static char xmm[16][8];

	if (id < ARRAY_SIZE(names))
		return names[id];
	if (id >= 32 && id < 64 && !(id & 1)) {
		unsigned int n = (id - 32) / 2;

		snprintf(xmm[n], sizeof(xmm[n]), "XMM%u", n);
		return xmm[n];
	}
	return "unknown";
}

static void user_regs(FILE *out, const struct pulse_sample *s, __u64 mask)
{
	static const char *const abi[] = { "none", "32-bit", "64-bit" };
	size_t i = 0;

	if (!s->user_abi)	/* perf prints nothing when the sample has no registers */
		return;
	fprintf(out, "... user regs: mask 0x%" PRIx64 " ABI %s\n", (uint64_t)mask,
		s->user_abi < ARRAY_SIZE(abi) ? abi[s->user_abi] : "unknown");
	for (unsigned int rid = 0; rid < 64; rid++) {
		if (!(mask & (1ULL << rid)))
			continue;
		fprintf(out, ".... %-5s 0x%016" PRIx64 "\n", x86_reg_name(rid),
			(uint64_t)get_u64((const char *)s->user_regs + 8 * i++));
	}
}

/* The report tool's sample handler: machine__resolve() prints where it landed. */
static void deliver_sample(FILE *out, struct pulse_dump *dump, const struct perf_event_header *rec,
			   const struct pulse_sample *s, int idx)
{
	if (dump->machine) {
		struct pulse_addr_loc al;

		if (pulse_machine__resolve(dump->machine, (int32_t)s->pid, (int32_t)s->tid,
					   rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, s->ip, &al))
			return;
		fprintf(out, " ... thread: %s:%d\n", al.thread->comm, al.thread->tid);
		fprintf(out, " ...... dso: %s\n", al.dso ? al.dso->long_name :
			al.level == 'H' ? "[hypervisor]" : "<not found>");
	}
	/* in branch mode perf's report counts a sample per branch entry */
	count_sample(dump, idx, dump->branch_mode ? (__u32)s->branch_nr : 1);
}

/* perf's deliver_sample_value(): per sample id, the last counter value read. */
static void deliver_value(FILE *out, struct pulse_dump *dump, const struct perf_event_header *rec,
			  const struct pulse_sample *s, __u64 value, __u64 id)
{
	struct pulse_data *d = dump->d;
	int idx = pulse_data__attr_of_id(d, id);
	size_t i;

	if (idx < 0)
		return;
	for (i = 0; i < dump->nr_reads; i++)
		if (dump->reads[i].id == id)
			break;
	if (i == dump->nr_reads) {
		void *n = realloc(dump->reads, (i + 1) * sizeof(*dump->reads));

		if (!n)
			return;
		dump->reads = n;
		dump->reads[i].id = id;
		dump->reads[i].value = 0;
		dump->nr_reads++;
	}
	if (value == dump->reads[i].value)
		return;
	dump->reads[i].value = value;
	deliver_sample(out, dump, rec, s, idx);
}

void pulse_dump__sample_lines(FILE *out, struct pulse_dump *dump,
			      const struct perf_event_header *rec, const struct pulse_sample *s,
			      const struct perf_event_attr *attr, int idx)
{
	__u64 st = attr->sample_type;
	bool callstack = (st & PERF_SAMPLE_BRANCH_STACK) &&
			 (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);

	fprintf(out, "(IP, 0x%x): %d/%d: %#" PRIx64 " period: %" PRIu64 " addr: %#" PRIx64 "\n",
		rec->misc, (int)s->pid, (int)s->tid, (uint64_t)s->ip, (uint64_t)s->period,
		(uint64_t)s->addr);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		if (callstack)
			pulse_branch__fprintf_lbr_callchain(out, s);
		fprintf(out, "... FP chain: nr:%" PRIu64 "\n", (uint64_t)s->callchain_nr);
		for (__u64 i = 0; i < s->callchain_nr; i++)
			fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)i,
				(uint64_t)get_u64((const char *)s->callchain + 8 * i));
	}
	if (st & PERF_SAMPLE_BRANCH_STACK)
		pulse_branch__fprintf_dump(out, s, callstack);
	if (st & PERF_SAMPLE_REGS_USER)
		user_regs(out, s, attr->sample_regs_user);
	if (st & PERF_SAMPLE_STACK_USER)
		fprintf(out, "... ustack: size %" PRIu64 ", offset 0x%x\n",
			(uint64_t)s->user_stack_size,
			s->user_stack ? (unsigned int)((const char *)s->user_stack -
						       (const char *)rec - 8) : 0);
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) {
		fprintf(out, "... weight: %" PRIu64 "", (uint64_t)(st & PERF_SAMPLE_WEIGHT_STRUCT ?
			s->weight & 0xffffffff : s->weight));
		/*
		 * var3_w (p_stage_cyc) is read by perf on powerpc only: perf
		 * 6.1 on x86, the oracle, prints 0 for it
		 */
		if (st & PERF_SAMPLE_WEIGHT_STRUCT)
			fprintf(out, ",0x%x,0x0", (unsigned int)((s->weight >> 32) & 0xffff));
		fputc('\n', out);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		fprintf(out, " . data_src: 0x%" PRIx64 "\n", (uint64_t)s->data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		fprintf(out, " .. phys_addr: 0x%" PRIx64 "\n", (uint64_t)s->phys_addr);
	if (st & PERF_SAMPLE_TRANSACTION)
		fprintf(out, "... transaction: %" PRIx64 "\n", (uint64_t)s->transaction);
	if (st & PERF_SAMPLE_READ)
		read_values(out, s, attr->read_format);

	if (!(st & PERF_SAMPLE_READ)) {
		deliver_sample(out, dump, rec, s, idx);
		return;
	}
	/*
	 * evlist__deliver_sample(): a sample that reads counters is delivered
	 * once per counter value, to the event of the value's id, with the
	 * increase since that id's last value as its period; no increase, no
	 * delivery.
	 */
	if (attr->read_format & PERF_FORMAT_GROUP) {
		__u64 nr = s->read_size >= 8 ? get_u64(s->read) : 0;
		size_t off = 8, step = 8;

		if (attr->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			off += 8;
		if (attr->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			off += 8;
		if (attr->read_format & PERF_FORMAT_ID)
			step += 8;
		if (attr->read_format & PERF_FORMAT_LOST)
			step += 8;
		for (__u64 i = 0; i < nr && off + step <= s->read_size; i++, off += step)
			deliver_value(out, dump, rec, s, get_u64((const char *)s->read + off),
				      attr->read_format & PERF_FORMAT_ID ?
				      get_u64((const char *)s->read + off + 8) : 0);
	} else {
		size_t off = 8;

		if (attr->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			off += 8;
		if (attr->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			off += 8;
		if (s->read_size >= 8)
			deliver_value(out, dump, rec, s, get_u64(s->read),
				      (attr->read_format & PERF_FORMAT_ID) && off + 8 <= s->read_size ?
				      get_u64((const char *)s->read + off) : 0);
	}
}
