// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -D: every record as perf 6.1 dumps it, raw bytes and decoding
 * side by side. The layouts are perf's own (util/session.c dump_event(),
 * dump_sample(), evlist__print_tstamp(), util/debug.c trace_event(),
 * util/event.c perf_event__fprintf_*(), the report tool's stubs that print
 * ": unhandled!"), checked against perf 6.1 on the golden files in
 * tests/data (tests/e2e/t2501) and on fresh recordings (tests/interop/t9251).
 * Records perf's report tool prints nothing more for (attrs, features,
 * tracing data, build ids) end without a newline: the next record's
 * leading newline ends their line, exactly as in perf's output.
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

static const char *const type_names[PULSE_DUMP_NR_TYPES] = {
	[0] = "TOTAL",
	[PERF_RECORD_MMAP] = "MMAP",
	[PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM",
	[PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK",
	[PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE",
	[PERF_RECORD_AUX] = "AUX",
	[PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
	[PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[PERF_RECORD_HEADER_ATTR] = "ATTR",
	[PERF_RECORD_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[PERF_RECORD_HEADER_TRACING_DATA] = "TRACING_DATA",
	[PERF_RECORD_HEADER_BUILD_ID] = "BUILD_ID",
	[PERF_RECORD_FINISHED_ROUND] = "FINISHED_ROUND",
	[PERF_RECORD_ID_INDEX] = "ID_INDEX",
	[PERF_RECORD_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[PERF_RECORD_AUXTRACE] = "AUXTRACE",
	[PERF_RECORD_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[PERF_RECORD_THREAD_MAP] = "THREAD_MAP",
	[PERF_RECORD_CPU_MAP] = "CPU_MAP",
	[PERF_RECORD_STAT_CONFIG] = "STAT_CONFIG",
	[PERF_RECORD_STAT] = "STAT",
	[PERF_RECORD_STAT_ROUND] = "STAT_ROUND",
	[PERF_RECORD_EVENT_UPDATE] = "EVENT_UPDATE",
	[PERF_RECORD_TIME_CONV] = "TIME_CONV",
	[PERF_RECORD_HEADER_FEATURE] = "FEATURE",
	[PERF_RECORD_COMPRESSED] = "COMPRESSED",
	[PERF_RECORD_FINISHED_INIT] = "FINISHED_INIT",
};

const char *pulse_dump__type_name(__u32 type)
{
	if (type >= PULSE_DUMP_NR_TYPES)
		return "INVALID";
	return type_names[type] ? type_names[type] : "UNKNOWN";
}

void pulse_dump__init(struct pulse_dump *dump, const char *path, struct pulse_machine *machine,
		      const char *(*name)(struct pulse_data *d, size_t idx, void *arg),
		      void *name_arg)
{
	memset(dump, 0, sizeof(*dump));
	dump->path = path;
	dump->machine = machine;
	dump->name = name;
	dump->name_arg = name_arg;
}

static const char *event_name(const struct pulse_dump *dump, struct pulse_data *d, size_t idx)
{
	const char *n = dump->name ? dump->name(d, idx, dump->name_arg) : NULL;

	if (!n)
		n = pulse_data__attr_name(d, idx);
	return n ? n : "unknown";
}

void pulse_dump__exit(struct pulse_dump *dump)
{
	free(dump->nr_samples);
	free(dump->nr_lost_samples);
	free(dump->reads);
	dump->reads = NULL;
	dump->nr_reads = 0;
	dump->nr_samples = NULL;
	dump->nr_lost_samples = NULL;
	dump->nr_attrs = 0;
}

void pulse_dump__count(struct pulse_dump *dump, __u32 type)
{
	/* perf refuses types past its table before counting them */
	if (type >= PULSE_DUMP_NR_TYPES)
		return;
	dump->nr_events[0]++;
	dump->nr_events[type]++;
}

/* Room for the counts of attr @idx; false when out of memory. */
static bool grow_counts(struct pulse_dump *dump, size_t idx)
{
	size_t old = dump->nr_attrs;
	__u32 *n, *l;

	if (idx < old)
		return true;
	n = realloc(dump->nr_samples, (idx + 1) * sizeof(*n));
	if (!n)
		return false;
	dump->nr_samples = n;
	l = realloc(dump->nr_lost_samples, (idx + 1) * sizeof(*l));
	if (!l)
		return false;
	dump->nr_lost_samples = l;
	memset(n + old, 0, (idx + 1 - old) * sizeof(*n));
	memset(l + old, 0, (idx + 1 - old) * sizeof(*l));
	dump->nr_attrs = idx + 1;
	return true;
}

static void count_sample(struct pulse_dump *dump, size_t idx, __u32 n)
{
	/* a count lost to ENOMEM is not worth failing the dump */
	if (grow_counts(dump, idx))
		dump->nr_samples[idx] += n;
}

/* util/debug.c trace_event() with binary__fprintf(), 16 bytes a line. */
void pulse_dump__hex(FILE *out, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	fprintf(out, ".\n. ... raw event: size %zu bytes\n", len);
	for (size_t i = 0; i < len; i += 16) {
		size_t n = len - i < 16 ? len - i : 16;

		fprintf(out, ".  %04zx: ", i);
		for (size_t j = 0; j < 16; j++) {
			if (j < n)
				fprintf(out, " %02x", p[i + j]);
			else
				fputs("   ", out);
		}
		fputs("  ", out);
		for (size_t j = 0; j < 16; j++) {
			if (j < n)
				fputc(isprint(p[i + j]) && isascii(p[i + j]) ? p[i + j] : '.', out);
			else
				fputc(' ', out);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/* ---- record field access, bounded by the record ------------------------ */

struct rec_view {
	const unsigned char *p;
	size_t size;		/* header.size */
};

static bool has(const struct rec_view *r, size_t off, size_t n)
{
	return off <= r->size && n <= r->size - off;
}

static __u64 u64_at(const struct rec_view *r, size_t off)
{
	return has(r, off, 8) ? get_u64(r->p + off) : 0;
}

static __u32 u32_at(const struct rec_view *r, size_t off)
{
	return has(r, off, 4) ? get_u32(r->p + off) : 0;
}

static __u16 u16_at(const struct rec_view *r, size_t off)
{
	return has(r, off, 2) ? get_u16(r->p + off) : 0;
}

/* A string inside the record: its length up to the NUL or the record end. */
static int str_len(const struct rec_view *r, size_t off)
{
	if (off >= r->size)
		return 0;
	return (int)strnlen((const char *)r->p + off, r->size - off);
}

#define STR_AT(r, off) str_len(r, off), (const char *)(r)->p + ((off) < (r)->size ? (off) : 0)

/* ---- samples ------------------------------------------------------------ */

/*
 * perf's evsel__parse_sample() defaults: what the sample_type leaves out is
 * -1 (pid, tid, cpu, time, id) or the attr's period.
 */
static int parse_sample(struct pulse_data *d, const struct perf_event_header *rec,
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
static __u64 combined_sample_type(struct pulse_dump *dump, struct pulse_data *d, size_t nr)
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

static void sample_lines(FILE *out, struct pulse_dump *dump, const struct perf_event_header *rec,
			 const struct pulse_sample *s, const struct perf_event_attr *attr, int idx)
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

/* ---- maps of cpus and threads ------------------------------------------- */

/* util/cpumap.c cpu_map__snprint() of @nr cpus, then a newline. */
static void print_cpus(FILE *out, const int *cpu, size_t nr)
{
	bool first = true;
	size_t start = SIZE_MAX;

	for (size_t i = 0; i < nr + 1; i++) {
		bool last = i == nr;
		long c = last ? (long)INT32_MAX + 1 : cpu[i];

		if (start == SIZE_MAX) {
			start = i;
			if (last)	/* an empty map: perf reads cpu -1 */
				fprintf(out, "%s%d", first ? "" : ",", nr ? cpu[i - 1] : -1);
		} else if ((long)(i - start) != c - cpu[start] || last) {
			size_t end = i - 1;

			if (start == end)
				fprintf(out, "%s%d", first ? "" : ",", cpu[start]);
			else
				fprintf(out, "%s%d-%d", first ? "" : ",", cpu[start], cpu[end]);
			first = false;
			start = i;
		}
	}
	fputc('\n', out);
}

/*
 * A perf_record_cpu_map_data at @off (CPUS, MASK or RANGE_CPUS) printed as a
 * cpu list; false when it is malformed.
 */
static bool cpu_map_data(FILE *out, const struct rec_view *r, size_t off)
{
	__u16 type = u16_at(r, off);
	int *cpu = NULL;
	size_t nr = 0;
	bool ok = false;

	if (!has(r, off, 2))
		return false;
	if (type == 0) {		/* PERF_CPU_MAP__CPUS: u16 nr; u16 cpu[] */
		__u16 n = u16_at(r, off + 2);

		if (!has(r, off + 4, 2 * (size_t)n))
			return false;
		cpu = calloc(n + 1, sizeof(*cpu));
		for (size_t i = 0; cpu && i < n; i++) {
			__u16 c = u16_at(r, off + 4 + 2 * i);

			cpu[nr++] = c == (__u16)-1 ? -1 : c;
		}
	} else if (type == 1) {		/* PERF_CPU_MAP__MASK: u16 nr; u16 long_size */
		__u16 n = u16_at(r, off + 2), lsz = u16_at(r, off + 4);
		size_t base = lsz == 8 ? off + 10 : off + 6;	/* mask64 has 4 pad bytes */

		if ((lsz != 4 && lsz != 8) || !has(r, base, (size_t)n * lsz))
			return false;
		cpu = calloc((size_t)n * lsz * 8 + 1, sizeof(*cpu));
		for (size_t i = 0; cpu && i < n; i++) {
			__u64 m = lsz == 8 ? u64_at(r, base + 8 * i) : u32_at(r, base + 4 * i);

			for (unsigned int b = 0; b < lsz * 8u; b++)
				if (m & (1ULL << b))
					cpu[nr++] = (int)(i * lsz * 8 + b);
		}
	} else if (type == 2) {		/* PERF_CPU_MAP__RANGE_CPUS */
		unsigned char any = has(r, off + 2, 1) ? r->p[off + 2] : 0;
		__u16 s = u16_at(r, off + 4), e = u16_at(r, off + 6);

		if (!has(r, off + 6, 2) || e < s)
			return false;
		cpu = calloc((size_t)(e - s) + 2, sizeof(*cpu));
		if (cpu && any)
			cpu[nr++] = -1;
		for (unsigned int c = s; cpu && c <= e; c++)
			cpu[nr++] = c;
	} else {
		return false;
	}
	if (cpu) {
		print_cpus(out, cpu, nr);
		ok = true;
	}
	free(cpu);
	return ok;
}

static void thread_map(FILE *out, const struct rec_view *r)
{
	__u64 nr = u64_at(r, 8);

	fputs(" nr: ", out);
	if (!has(r, 8, 8) || nr > (r->size - 16) / 24) {
		fputs("failed to get threads from event\n", out);
		return;
	}
	fprintf(out, "%d thread%s: ", (int)nr, nr > 1 ? "s" : "");
	for (__u64 i = 0; i < nr; i++)
		fprintf(out, "%s%d", i ? ", " : "", (int)u64_at(r, 16 + 24 * i));
	fputc('\n', out);
}

/* ---- user records -------------------------------------------------------- */

static void id_index(FILE *out, const struct rec_view *r)
{
	__u64 nr = u64_at(r, 8);

	/* perf_session__process_id_index() refuses more entries than fit */
	if (!has(r, 8, 8) || nr > (r->size - 16) / 32)
		return;
	fprintf(out, " nr: %zu\n", (size_t)nr);
	for (__u64 i = 0; i < nr; i++) {
		size_t o = 16 + 32 * i;

		fprintf(out, " ... id: %" PRIu64 "  idx: %" PRIu64 "  cpu: %" PRId64
			"  tid: %" PRId64 "\n", (uint64_t)u64_at(r, o), (uint64_t)u64_at(r, o + 8),
			(int64_t)u64_at(r, o + 16), (int64_t)u64_at(r, o + 24));
	}
}

static void event_update(FILE *out, const struct rec_view *r)
{
	__u64 type = u64_at(r, 8);
	double scale;

	fprintf(out, "\n... id:    %" PRIu64 "\n", (uint64_t)u64_at(r, 16));
	switch (type) {
	case 0:		/* PERF_EVENT_UPDATE__UNIT */
		fprintf(out, "... unit:  %.*s\n", STR_AT(r, 24));
		break;
	case 1:		/* PERF_EVENT_UPDATE__SCALE */
		scale = 0;
		if (has(r, 24, 8))
			memcpy(&scale, r->p + 24, sizeof(scale));
		fprintf(out, "... scale: %f\n", scale);
		break;
	case 2:		/* PERF_EVENT_UPDATE__NAME */
		fprintf(out, "... name:  %.*s\n", STR_AT(r, 24));
		break;
	case 3:		/* PERF_EVENT_UPDATE__CPUS */
		fputs("... ", out);
		if (!cpu_map_data(out, r, 24))
			fputs("failed to get cpus\n", out);
		break;
	default:
		fputs("... unknown type\n", out);
		break;
	}
}

static void time_conv(FILE *out, const struct rec_view *r)
{
	fprintf(out, "\n... Time Shift      %" PRIu64 "\n", (uint64_t)u64_at(r, 8));
	fprintf(out, "... Time Muliplier  %" PRIu64 "\n", (uint64_t)u64_at(r, 16));
	fprintf(out, "... Time Zero       %" PRIu64 "\n", (uint64_t)u64_at(r, 24));
	/* perf prints the extended fields only when the record has them */
	if (has(r, 32, 8)) {
		fprintf(out, "... Time Cycles     %" PRIu64 "\n", (uint64_t)u64_at(r, 32));
		fprintf(out, "... Time Mask       %#" PRIx64 "\n", (uint64_t)u64_at(r, 40));
		fprintf(out, "... Cap Time Zero   %" PRId32 "\n", has(r, 48, 1) ? r->p[48] : 0);
		fprintf(out, "... Cap Time Short  %" PRId32 "\n", has(r, 49, 1) ? r->p[49] : 0);
	}
}

static void stat_config(FILE *out, const struct rec_view *r)
{
	__u64 nr = u64_at(r, 8), v[4] = { 0 };

	for (__u64 i = 0; has(r, 16, 8) && i < nr && i < (r->size - 16) / 16; i++) {
		__u64 tag = u64_at(r, 16 + 16 * i);

		if (tag < 4)
			v[tag] = u64_at(r, 24 + 16 * i);
	}
	/* tags: 0 aggr_mode, 1 interval, 2 scale (a bool), 3 aggr_level */
	fprintf(out, "\n... aggr_mode %d\n", (int)v[0]);
	fprintf(out, "... scale     %d\n", v[2] != 0);
	fprintf(out, "... interval  %u\n", (unsigned int)v[1]);
}

/* What perf's report tool prints after the name of a user record. */
static void user_record(FILE *out, const struct rec_view *r, __u32 type)
{
	switch (type) {
	case PERF_RECORD_FINISHED_ROUND:	/* process_finished_round() */
		fputc('\n', out);
		break;
	case PERF_RECORD_ID_INDEX:
		id_index(out, r);
		break;
	case PERF_RECORD_AUXTRACE_INFO:
		fprintf(out, " type: %u\n", u32_at(r, 8));
		break;
	case PERF_RECORD_AUXTRACE:
		fprintf(out, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			"  idx: %u  tid: %d  cpu: %d\n", (uint64_t)u64_at(r, 8),
			(uint64_t)u64_at(r, 16), (uint64_t)u64_at(r, 24), u32_at(r, 32),
			(int)u32_at(r, 36), (int)u32_at(r, 40));
		break;
	case PERF_RECORD_THREAD_MAP:
		thread_map(out, r);
		fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_CPU_MAP:
		fputs(": ", out);
		if (!cpu_map_data(out, r, 8))
			fputs("failed to get cpumap from event\n", out);
		fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_STAT_CONFIG:
		stat_config(out, r);
		fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_STAT:
		fprintf(out, "\n... id %" PRIu64 ", cpu %d, thread %d\n", (uint64_t)u64_at(r, 8),
			(int)u32_at(r, 16), (int)u32_at(r, 20));
		fprintf(out, "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n",
			(uint64_t)u64_at(r, 24), (uint64_t)u64_at(r, 32), (uint64_t)u64_at(r, 40));
		fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_STAT_ROUND:
		fprintf(out, "\n... time %" PRIu64 ", type %s\n", (uint64_t)u64_at(r, 16),
			u64_at(r, 8) == 1 ? "FINAL" : "INTERVAL");
		fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_EVENT_UPDATE:
		event_update(out, r);
		break;
	case PERF_RECORD_TIME_CONV:
		time_conv(out, r);
		fputs(": unhandled!\n", out);
		break;
	case PERF_RECORD_FINISHED_INIT:
		fputs(": unhandled!\n", out);
		break;
	default:
		/*
		 * ATTR, EVENT_TYPE, TRACING_DATA, BUILD_ID, FEATURE: perf
		 * prints nothing more; AUXTRACE_ERROR needs an AUX decoder.
		 */
		break;
	}
}

/* ---- kernel records ------------------------------------------------------ */

static void kernel_record(FILE *out, struct pulse_dump *dump, struct pulse_data *d,
			  const struct rec_view *r, const struct perf_event_header *rec,
			  const struct pulse_sample *s, const struct perf_event_attr *attr, int idx)
{
	static const char *const ns_names[] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	__u32 prot, flags;
	__u64 nr;

	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		if (attr)	/* perf stops at a sample of an unknown event */
			sample_lines(out, dump, rec, s, attr, idx);
		break;
	case PERF_RECORD_MMAP:
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64 "]: %c %.*s\n",
			(int)u32_at(r, 8), (int)u32_at(r, 12), (uint64_t)u64_at(r, 16),
			(uint64_t)u64_at(r, 24), (uint64_t)u64_at(r, 32),
			rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 'r' : 'x', STR_AT(r, 40));
		break;
	case PERF_RECORD_MMAP2:
		prot = u32_at(r, 64);
		flags = u32_at(r, 68);
		fprintf(out, " %d/%d: [%#" PRIx64 "(%#" PRIx64 ") @ %#" PRIx64, (int)u32_at(r, 8),
			(int)u32_at(r, 12), (uint64_t)u64_at(r, 16), (uint64_t)u64_at(r, 24),
			(uint64_t)u64_at(r, 32));
		if (rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			unsigned int n = has(r, 40, 1) ? r->p[40] : 0;

			fputs(" <", out);
			for (unsigned int i = 0; i < n && i < 20; i++)
				fprintf(out, "%02x", r->p[44 + i]);
			fputc('>', out);
		} else {
			fprintf(out, " %02x:%02x %" PRIu64 " %" PRIu64, u32_at(r, 40), u32_at(r, 44),
				(uint64_t)u64_at(r, 48), (uint64_t)u64_at(r, 56));
		}
		fprintf(out, "]: %c%c%c%c %.*s\n", prot & PROT_READ ? 'r' : '-',
			prot & PROT_WRITE ? 'w' : '-', prot & PROT_EXEC ? 'x' : '-',
			flags & MAP_SHARED ? 's' : 'p', STR_AT(r, 72));
		break;
	case PERF_RECORD_COMM:
		fprintf(out, "%s: %.*s:%d/%d\n", rec->misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
			STR_AT(r, 16), (int)u32_at(r, 8), (int)u32_at(r, 12));
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		fprintf(out, "(%d:%d):(%d:%d)\n", (int)u32_at(r, 8), (int)u32_at(r, 16),
			(int)u32_at(r, 12), (int)u32_at(r, 20));
		break;
	case PERF_RECORD_LOST:
		fprintf(out, ": id:%" PRIu64 ": lost:%" PRIu64 "\n", (uint64_t)u64_at(r, 8),
			(uint64_t)u64_at(r, 16));
		break;
	case PERF_RECORD_LOST_SAMPLES:
		fprintf(out, ": id:%" PRIu64 ": lost samples :%" PRIu64 "\n", (uint64_t)s->id,
			(uint64_t)u64_at(r, 8));
		/* perf's u32 hists stat takes the u64 count truncated */
		if (dump->count_lost_samples && idx >= 0 && grow_counts(dump, idx))
			dump->nr_lost_samples[idx] += (__u32)u64_at(r, 8);
		break;
	case PERF_RECORD_READ: {
		const char *name = event_name(dump, d, idx < 0 ? 0 : idx);
		__u64 rf = attr ? attr->read_format : 0;

		fprintf(out, ": %d %d %s %" PRIu64 "\n", (int)u32_at(r, 8), (int)u32_at(r, 12),
			name, (uint64_t)u64_at(r, 16));
		if (!attr)
			break;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			fprintf(out, "... time enabled : %" PRIu64 "\n", (uint64_t)u64_at(r, 24));
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			fprintf(out, "... time running : %" PRIu64 "\n", (uint64_t)u64_at(r, 32));
		if (rf & PERF_FORMAT_ID)
			fprintf(out, "... id           : %" PRIu64 "\n", (uint64_t)u64_at(r, 40));
		if (rf & PERF_FORMAT_LOST)
			fprintf(out, "... lost         : %" PRIu64 "\n", (uint64_t)u64_at(r, 48));
		break;
	}
	case PERF_RECORD_AUX:
		nr = u64_at(r, 24);
		fprintf(out, " offset: %#" PRIx64 " size: %#" PRIx64 " flags: %#" PRIx64 " [%s%s%s]\n",
			(uint64_t)u64_at(r, 8), (uint64_t)u64_at(r, 16), (uint64_t)nr,
			nr & PERF_AUX_FLAG_TRUNCATED ? "T" : "",
			nr & PERF_AUX_FLAG_OVERWRITE ? "O" : "",
			nr & PERF_AUX_FLAG_PARTIAL ? "P" : "");
		break;
	case PERF_RECORD_ITRACE_START:
		fprintf(out, " pid: %u tid: %u\n", u32_at(r, 8), u32_at(r, 12));
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out_ = rec->misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *in_out = !out_ ? "IN         " :
			!(rec->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
			"OUT preempt";

		if (rec->type == PERF_RECORD_SWITCH)
			fprintf(out, " %s\n", in_out);
		else
			fprintf(out, " %s  %s pid/tid: %5d/%-5d\n", in_out, out_ ? "next" : "prev",
				(int)u32_at(r, 8), (int)u32_at(r, 12));
		break;
	}
	case PERF_RECORD_NAMESPACES:
		nr = u64_at(r, 16);
		fprintf(out, " %d/%d - nr_namespaces: %u\n\t\t[", (int)u32_at(r, 8),
			(int)u32_at(r, 12), (unsigned int)nr);
		for (__u64 i = 0; i < nr && has(r, 24 + 16 * i, 16); i++) {
			if (i && i % 4 == 0)
				fputs("\n\t\t ", out);
			fprintf(out, "%u/%s: %" PRIu64 "/%#" PRIx64 "%s", (unsigned int)i,
				i < ARRAY_SIZE(ns_names) ? ns_names[i] : "UNKNOWN",
				(uint64_t)u64_at(r, 24 + 16 * i), (uint64_t)u64_at(r, 32 + 16 * i),
				i + 1 != nr ? ", " : "]\n");
		}
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name %.*s\n",
			(uint64_t)u64_at(r, 8), u32_at(r, 16), u16_at(r, 20), u16_at(r, 22),
			STR_AT(r, 24));
		break;
	case PERF_RECORD_BPF_EVENT:
		fprintf(out, " type %u, flags %u, id %u\n", u16_at(r, 8), u16_at(r, 10),
			u32_at(r, 12));
		break;
	case PERF_RECORD_CGROUP:
		fprintf(out, " cgroup: %" PRIu64 " %.*s\n", (uint64_t)u64_at(r, 8), STR_AT(r, 16));
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		fprintf(out, " hw_id: %#" PRIx64 "\n", (uint64_t)u64_at(r, 8));
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		/* the report tool has no handler: process_event_stub() */
		fputs(": unhandled!\n", out);
		break;
	default:
		/* TEXT_POKE needs a disassembler; unknown types: perf stops */
		fputc('\n', out);
		break;
	}
}

/* Minimum sizes of the fixed part, below which perf's decoders read garbage. */
static size_t min_size(__u32 type)
{
	switch (type) {
	case PERF_RECORD_MMAP:		return 40;
	case PERF_RECORD_MMAP2:		return 72;
	case PERF_RECORD_COMM:		return 16;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:		return 32;
	case PERF_RECORD_LOST:		return 24;
	case PERF_RECORD_LOST_SAMPLES:	return 16;
	case PERF_RECORD_READ:		return 24;
	default:			return 8;
	}
}

int pulse_dump__fprintf_event(FILE *out, const struct perf_event_header *rec)
{
	struct rec_view r = { (const unsigned char *)rec, rec->size };

	fprintf(out, "PERF_RECORD_%s", pulse_dump__type_name(rec->type));
	switch (rec->type) {
	case PERF_RECORD_LOST:
		/* the report tool's -D line differs: machine__process_lost_event() */
		fprintf(out, " lost %" PRIu64 "\n", (uint64_t)u64_at(&r, 16));
		break;
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_NAMESPACES:
	case PERF_RECORD_CGROUP:
	case PERF_RECORD_AUX:
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		if (rec->size >= min_size(rec->type)) {
			kernel_record(out, NULL, NULL, &r, rec, NULL, NULL, -1);
			break;
		}
		/* fall through */
	default:
		fputc('\n', out);
		break;
	}
	return ferror(out) ? -EIO : 0;
}

int pulse_dump__record(FILE *out, struct pulse_data *d, const struct perf_event_header *rec,
		       __u64 file_offset, struct pulse_dump *dump)
{
	const struct perf_event_attr *attr = NULL;
	struct rec_view r = { (const unsigned char *)rec, rec->size };
	struct pulse_sample s;
	size_t nr_attrs = pulse_data__nr_attrs(d);
	bool user = rec->type >= PERF_RECORD_USER_TYPE_START;
	bool parsed = false;
	int idx = -1;

	/*
	 * A HEADER_ATTR is in the reader's table already; perf adds it after
	 * printing. In pipe mode the reader has read every HEADER_ATTR ahead,
	 * so perf knows only those printed before this one.
	 */
	if (rec->type == PERF_RECORD_HEADER_ATTR) {
		if (pulse_data__is_pipe(d))
			nr_attrs = dump->nr_header_attrs < nr_attrs ? dump->nr_header_attrs : nr_attrs;
		else if (nr_attrs)
			nr_attrs--;
		dump->nr_header_attrs++;
	}

	fprintf(out, "\n%#" PRIx64 "@%s [%#x]: event: %u\n", (uint64_t)file_offset, dump->path,
		rec->size, rec->type);
	pulse_dump__hex(out, rec, rec->size);
	dump->d = d;

	if (user) {
		/* perf_session__process_user_event(): a zeroed sample */
		memset(&s, 0, sizeof(s));
		parsed = true;
	} else if (nr_attrs) {
		parsed = !parse_sample(d, rec, &s, &attr, &idx) && rec->size >= min_size(rec->type);
	}

	/* evlist__print_tstamp() */
	if (rec->type != PERF_RECORD_SAMPLE &&
	    (!nr_attrs || !pulse_data__attr(d, 0)->sample_id_all)) {
		fputs("-1 -1 ", out);
	} else {
		__u64 st = combined_sample_type(dump, d, nr_attrs);

		if (!parsed) {
			s.cpu = (__u32)-1;
			s.time = ~0ULL;
		}
		if (st & PERF_SAMPLE_CPU)
			fprintf(out, "%u ", s.cpu);
		if (st & PERF_SAMPLE_TIME)
			fprintf(out, "%" PRIu64 " ", (uint64_t)s.time);
	}
	fprintf(out, "%#" PRIx64 " [%#x]: PERF_RECORD_%s", (uint64_t)file_offset, rec->size,
		pulse_dump__type_name(rec->type));

	if (user)
		user_record(out, &r, rec->type);
	else if (parsed)
		kernel_record(out, dump, d, &r, rec, &s, attr, idx);
	else
		fputc('\n', out);	/* undecodable: raw bytes only */
	return ferror(out) ? -EIO : 0;
}

int pulse_dump__fprintf_stats(FILE *out, struct pulse_data *d, const struct pulse_dump *dump)
{
	__u32 total = dump->nr_events[0];

	fprintf(out, "\nAggregated stats:%s\n", pulse_data__has_feat(d, PULSE_FEAT_AUXTRACE) ?
		" (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	for (__u32 i = 0; i < PULSE_DUMP_NR_TYPES; i++) {
		const char *n = pulse_dump__type_name(i);

		/* perf report skips empty rows (report.skip-empty, on by default) */
		if (!strcmp(n, "UNKNOWN") || !dump->nr_events[i])
			continue;
		if (i && total)
			fprintf(out, "%16s events: %10u  (%4.1f%%)\n", n, dump->nr_events[i],
				100.0 * dump->nr_events[i] / total);
		else
			fprintf(out, "%16s events: %10u\n", n, dump->nr_events[i]);
	}
	for (size_t i = 0; i < dump->nr_attrs; i++) {
		if (!dump->nr_samples[i] && !dump->nr_lost_samples[i])
			continue;
		fprintf(out, "%s stats:\n", event_name(dump, d, i));
		if (dump->nr_samples[i])
			fprintf(out, "%16s events: %10u\n", "SAMPLE", dump->nr_samples[i]);
		if (dump->nr_lost_samples[i])
			fprintf(out, "%16s events: %10u\n", "LOST_SAMPLES",
				dump->nr_lost_samples[i]);
	}
	return ferror(out) ? -EIO : 0;
}
