// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-mkpt: writes a perf.data holding a synthetic Intel PT recording of
 * tests/workloads/pt-loop, as perf 6.1 would record it (per-cpu on CPU 0, or
 * per-thread):
 *
 *   pulse-mkpt [options] OUT WORKLOAD
 *
 * The packets come from libipt's encoder, following pt-loop's real control
 * flow (pt_run and pt_labels, its table of label offsets, read with libelf;
 * pt-loop is taken as loaded at LOAD_BASE): PSB+ (MODE.Exec, FUP, TSC, CBR),
 * TIP.PGE at pt_run, TNT bits for the conditional branches and compressed
 * returns, TIP for the indirect call and jump (and returns with noretcomp),
 * TIP.PGD at the exit syscall. The file holds the intel_pt// and dummy:u
 * attrs (EVENT_DESC, PMU_MAPPINGS), TIME_CONV, AUXTRACE_INFO, the kernel's
 * MMAP, COMM, MMAP2 of WORKLOAD's text, ITRACE_START, AUX + AUXTRACE (+
 * payload) + FINISHED_ROUND, one set per chunk cut at a PSB, EXIT and (file
 * mode) the AUXTRACE index. TSC ticks 2 per ns from 1000 s; 40 per iteration.
 *
 * A benchmark input: -n 4000000 gives ~31 MB and 30 million branches.
 *
 * Options:
 *   -n N          loop iterations (default 10)
 *   --pipe        pipe mode (OUT "-" is stdout)
 *   --noretcomp   returns as TIP (config bit noretcomp)
 *   --mtc         MTC packets (and TMA in PSB+), config mtc
 *   --cyc         CYC packets after each TNT/TIP, config cyc
 *   --psb N       a PSB+ every N iterations (default 64)
 *   --chunk N     AUXTRACE buffers of at most ~N bytes (default 65536)
 *   --missing     the MMAP2 names WORKLOAD.missing, which does not exist
 *   --ovf N       an OVF instead of the packets of iteration N, then FUP
 *   --mismatch N  a TNT bit instead of the indirect call's TIP in iteration N
 *   --intr N      an interrupt in iteration N after pt_func returns: FUP,
 *                 TIP.PGD (the kernel is not traced), TIP.PGE back
 *   --tsx         pt-loop's transaction each iteration: commit on even rbx,
 *                 abort on odd (MODE.TSX + FUP [+ TIP])
 *   --per-thread  as perf record --per-thread: AUXTRACE of cpu -1, no CPU in
 *                 the samples, PER_CPU_MMAPS 0
 *   --aux-flags F the AUX records' flags (1: TRUNCATED, 2: OVERWRITE, ...)
 *   --info W      AUXTRACE_INFO words: 10 (up to PER_CPU_MMAPS), 15 (CYC_BIT),
 *                 16 (MAX_NONTURBO_RATIO), 17 (FILTER_STR_LEN, default)
 *   --filter S    the address filter string (with --info 17)
 *   --samples N   N samples of a cycles:u event of the file's own (mkpt-samples.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <intel-pt.h>
#include <limits.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <pulse/auxtrace.h>
#include <pulse/buf.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/perf-abi.h>

#define PID 4321
#define CPU 0
#define ID_PT 101
#define ID_DUMMY 102
#define PT_PMU_TYPE 8
#define LOAD_BASE 0x555555554000ULL
#define KERNEL_START 0xffffffff81000000ULL
#define TSC_START 2000000000000ULL	/* time = tsc / 2: 1000 s */
#define TSC_PER_ITER 40
#define TSC_PER_CTC 16		/* AUXTRACE_INFO's TSC:CTC ratio 16/1 */
#define MTC_PERIOD 3		/* an MTC every 8 CTC ticks */

/* config bits of the intel_pt PMU (its sysfs format) */
#define CFG_PT (1ULL << 0)
#define CFG_CYC (1ULL << 1)
#define CFG_MTC (1ULL << 9)
#define CFG_TSC (1ULL << 10)
#define CFG_NORETCOMP (1ULL << 11)
#define CFG_BRANCH (1ULL << 13)
#define CFG_MTC_PERIOD(p) ((__u64)(p) << 14)

#include "mkpt-trace.h"

#include "rec-put.h"

/* per-thread: no CPU in the samples, AUXTRACE for cpu -1 */
static bool per_thread;

/* sample_id_all for IP|TID|TIME|CPU|IDENTIFIER (per-thread: no CPU) */
static void sample_id_of(__u32 pid, __u32 tid, __u64 time, __u64 id)
{
	put32x2(pid, tid);
	put64(time);
	if (!per_thread)
		put32x2(CPU, 0);
	put64(id);
}

static void sample_id(__u64 time, __u64 id)
{
	sample_id_of(PID, PID, time, id);
}

static void end_iov(struct pulse_data_writer *w, const void *extra, size_t extra_len)
{
	struct perf_event_header *h = (void *)rec;
	struct iovec iov[2] = { { rec, rlen }, { (void *)extra, extra_len } };

	h->size = (__u16)rlen;
	if (pulse_data_writer__writev(w, iov, extra_len ? 2 : 1))
		die("write failed");
}

static void end(struct pulse_data_writer *w)
{
	end_iov(w, NULL, 0);
}

static __u64 tsc_to_time(__u64 tsc)
{
	return tsc / 2;		/* TIME_CONV: shift 31, mult 2^30, zero 0 */
}

static void put_string(const char *s)
{
	size_t n = strlen(s) + 1;
	static const char zero[8];

	put(s, n);
	put(zero, (8 - n % 8) % 8);
}

static void write_sideband_start(struct pulse_data_writer *w, const struct gen *g,
				 const char *path)
{
	const struct opts *o = g->o;
	__u64 t = tsc_to_time(TSC_START) - 10000;
	char mpath[PATH_MAX + 16], *real = realpath(path, NULL);
	__u64 cfg_words[PULSE_PT_PRIV_MAX] = {
		[PULSE_PT_PMU_TYPE] = PT_PMU_TYPE,
		[PULSE_PT_TIME_SHIFT] = 31,
		[PULSE_PT_TIME_MULT] = 1ULL << 30,
		[PULSE_PT_TIME_ZERO] = 0,
		[PULSE_PT_CAP_USER_TIME_ZERO] = 1,
		[PULSE_PT_TSC_BIT] = CFG_TSC,
		[PULSE_PT_NORETCOMP_BIT] = CFG_NORETCOMP,
		[PULSE_PT_HAVE_SCHED_SWITCH] = 0,
		[PULSE_PT_SNAPSHOT_MODE] = 0,
		[PULSE_PT_PER_CPU_MMAPS] = !per_thread,
		[PULSE_PT_MTC_BIT] = CFG_MTC,
		[PULSE_PT_MTC_FREQ_BITS] = 0xfULL << 14,
		[PULSE_PT_TSC_CTC_N] = TSC_PER_CTC,
		[PULSE_PT_TSC_CTC_D] = 1,
		[PULSE_PT_CYC_BIT] = CFG_CYC,
		[PULSE_PT_MAX_NONTURBO_RATIO] = 20,
		[PULSE_PT_FILTER_STR_LEN] = o->filter ? strlen(o->filter) : 0,
	};

	begin(PERF_RECORD_TIME_CONV, 0);
	put64(31);		/* time_shift */
	put64(1ULL << 30);	/* time_mult */
	put64(0);		/* time_zero */
	put64(0);		/* time_cycles */
	put64(0);		/* time_mask */
	put64(1);		/* cap_user_time_zero, cap_user_time_short = 0 */
	end(w);

	begin(PERF_RECORD_AUXTRACE_INFO, 0);
	put32x2(PULSE_AUXTRACE_INTEL_PT, 0);
	for (int i = 0; i < o->info_words; i++)
		put64(cfg_words[i]);
	if (o->info_words > PULSE_PT_FILTER_STR_LEN && o->filter)
		put_string(o->filter);
	end(w);

	/* the kernel's map, as perf record synthesizes it first */
	begin(PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL);
	put32x2(-1, 0);
	put64(KERNEL_START);
	put64(0x1000000);
	put64(KERNEL_START);
	put_string("[kernel.kallsyms]_text");
	sample_id_of(-1, 0, t, ID_DUMMY);
	end(w);

	begin(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
	put32x2(PID, PID);
	put_string("pt-loop");
	sample_id(t, ID_DUMMY);
	end(w);

	/* the absolute path, as the kernel reports it */
	snprintf(mpath, sizeof(mpath), "%s%s", real ? real : path, o->missing ? ".missing" : "");
	free(real);
	begin(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32x2(PID, PID);
	put64(g->text_start);
	put64(g->text_len);
	put64(g->text_pgoff);
	put32x2(8, 1);		/* maj, min */
	put64(12345);		/* ino */
	put64(0);		/* ino_generation */
	put32x2(PROT_READ | PROT_EXEC, MAP_PRIVATE);
	put_string(mpath);
	sample_id(t + 1000, ID_DUMMY);
	end(w);

	begin(PERF_RECORD_ITRACE_START, 0);
	put32x2(PID, PID);
	sample_id(t + 2000, ID_PT);
	end(w);
}

#include "mkpt-samples.h"

struct index_entry {
	__u64 file_offset, sz;
};

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "pipe", no_argument, NULL, 'p' },
		{ "noretcomp", no_argument, NULL, 'r' },
		{ "mtc", no_argument, NULL, 'm' },
		{ "cyc", no_argument, NULL, 'c' },
		{ "psb", required_argument, NULL, 'P' },
		{ "chunk", required_argument, NULL, 'C' },
		{ "missing", no_argument, NULL, 'M' },
		{ "ovf", required_argument, NULL, 'O' },
		{ "mismatch", required_argument, NULL, 'X' },
		{ "tsx", no_argument, NULL, 'x' },
		{ "intr", required_argument, NULL, 'i' },
		{ "per-thread", no_argument, NULL, 'T' },
		{ "aux-flags", required_argument, NULL, 'F' },
		{ "info", required_argument, NULL, 'I' },
		{ "filter", required_argument, NULL, 'f' },
		{ "samples", required_argument, NULL, 's' },
		{ 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "n:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': o->iters = strtol(optarg, NULL, 0); break;
		case 'p': o->pipe = true; break;
		case 'r': o->noretcomp = true; break;
		case 'm': o->mtc = true; break;
		case 'c': o->cyc = true; break;
		case 'P': o->psb = strtol(optarg, NULL, 0); break;
		case 'C': o->chunk = strtoul(optarg, NULL, 0); break;
		case 'M': o->missing = true; break;
		case 'O': o->ovf = strtol(optarg, NULL, 0); break;
		case 'X': o->mismatch = strtol(optarg, NULL, 0); break;
		case 'x': o->tsx = true; break;
		case 'i': o->intr = strtol(optarg, NULL, 0); break;
		case 'T': per_thread = true; break;
		case 'F': o->aux_flags = strtoull(optarg, NULL, 0); break;
		case 'I': o->info_words = atoi(optarg); break;
		case 'f': o->filter = optarg; break;
		case 's': o->samples = strtol(optarg, NULL, 0); break;
		default: return -EINVAL;
		}
	}
	if (argc - optind != 2 || o->iters < 1 || o->info_words < PULSE_PT_PER_CPU_MMAPS + 1 ||
	    o->info_words > PULSE_PT_PRIV_MAX)
		return -EINVAL;
	return 0;
}

/* intel_pt// and dummy:u, as perf 6.1 records a workload with -e intel_pt// */
static void fill_attrs(struct pulse_data_attr *attrs, const __u64 *ids, const struct opts *o)
{
	for (int i = 0; i < 2; i++) {
		struct perf_event_attr *a = &attrs[i].attr;

		a->size = sizeof(*a);
		a->sample_period = 1;
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				 (per_thread ? 0 : PERF_SAMPLE_CPU) | PERF_SAMPLE_IDENTIFIER;
		a->read_format = PERF_FORMAT_ID;
		a->sample_id_all = 1;
		a->inherit = 1;
		a->enable_on_exec = 1;
		attrs[i].ids = &ids[i];
		attrs[i].nr_ids = 1;
	}
	attrs[0].attr.type = PT_PMU_TYPE;
	attrs[0].attr.config = CFG_PT | CFG_TSC | CFG_BRANCH |
			       (o->noretcomp ? CFG_NORETCOMP : 0) |
			       (o->mtc ? CFG_MTC | CFG_MTC_PERIOD(MTC_PERIOD) : 0) |
			       (o->cyc ? CFG_CYC : 0);
	attrs[0].attr.disabled = 1;
	attrs[0].attr.exclude_guest = 1;
	attrs[0].name = "intel_pt//";
	attrs[1].attr.type = PERF_TYPE_SOFTWARE;
	attrs[1].attr.config = PERF_COUNT_SW_DUMMY;
	attrs[1].attr.exclude_kernel = 1;
	attrs[1].attr.exclude_hv = 1;
	attrs[1].attr.mmap = 1;
	attrs[1].attr.mmap2 = 1;
	attrs[1].attr.comm = 1;
	attrs[1].attr.comm_exec = 1;
	attrs[1].attr.task = 1;
	attrs[1].name = "dummy:u";
}

/*
 * The trace in chunks cut at PSBs: an AUX record, then the AUXTRACE record
 * and its payload, then a FINISHED_ROUND; in file mode the AUXTRACE index
 * (u64 nr, then { file offset, size of the record's header } each).
 */
static void write_trace(struct pulse_data_writer *w, int fd, const struct gen *g,
			struct pulse_buf *index)
{
	__u64 nr = 0, aux_off = 0, t0 = tsc_to_time(TSC_START), t1 = tsc_to_time(g->tsc);

	if (pulse_buf__add(index, &nr, sizeof(nr)))
		die("out of memory");
	for (size_t p = 0; p < g->nr_psbs; ) {
		size_t q = p + 1, from = g->psbs[p], to;

		while (q < g->nr_psbs && g->psbs[q] - from <= g->o->chunk)
			q++;
		to = q < g->nr_psbs ? g->psbs[q] : g->len;
		begin(PERF_RECORD_AUX, 0);
		put64(aux_off);
		put64(to - from);
		put64(g->o->aux_flags);
		/* about when the chunk's last packet was made */
		sample_id(t0 + (t1 - t0) * to / g->len, ID_PT);
		end(w);
		begin(PERF_RECORD_AUXTRACE, 0);
		put64(to - from);	/* size of the payload */
		put64(aux_off);		/* offset in the AUX area */
		put64(g->tsc ^ from);	/* reference */
		put32x2(0, PID);	/* idx, tid */
		put32x2(per_thread ? -1 : CPU, 0);	/* cpu, reserved */
		if (!g->o->pipe) {
			struct index_entry e = { lseek(fd, 0, SEEK_CUR), rlen };

			if ((off_t)e.file_offset < 0 || pulse_buf__add(index, &e, sizeof(e)))
				die("AUXTRACE index");
			nr++;
		}
		end_iov(w, g->pt + from, to - from);
		write_samples(w, g, t0 + (t1 - t0) * to / g->len);
		begin(PERF_RECORD_FINISHED_ROUND, 0);
		end(w);
		aux_off += to - from;
		p = q;
	}
	memcpy(index->p, &nr, sizeof(nr));

	begin(PERF_RECORD_EXIT, 0);
	put32x2(PID, PID);	/* pid, ppid */
	put32x2(PID, PID);	/* tid, ptid */
	put64(t1 + 1000);
	sample_id(t1 + 1000, ID_DUMMY);
	end(w);
}

/* PMU_MAPPINGS: the PMUs of an Intel machine, intel_pt at PT_PMU_TYPE */
static void add_pmu_mappings(struct pulse_data_writer *w)
{
	static const struct { __u32 type; const char *name; } pmus[] = {
		{ PERF_TYPE_SOFTWARE, "software" }, { PERF_TYPE_TRACEPOINT, "tracepoint" },
		{ PERF_TYPE_RAW, "cpu" }, { PERF_TYPE_BREAKPOINT, "breakpoint" },
		{ PT_PMU_TYPE, "intel_pt" },
	};
	struct pulse_buf b = { 0 };
	__u32 nr = sizeof(pmus) / sizeof(pmus[0]);
	int err = pulse_buf__add(&b, &nr, sizeof(nr));

	for (__u32 i = 0; !err && i < nr; i++)
		err = pulse_buf__add(&b, &pmus[i].type, sizeof(__u32)) ?:
		      pulse_buf__add_string(&b, pmus[i].name);
	if (err || pulse_data_writer__add_feature(w, PULSE_FEAT_PMU_MAPPINGS, b.p, b.len))
		die("PMU_MAPPINGS");
	pulse_buf__release(&b);
}

int main(int argc, char **argv)
{
	struct opts o = { .iters = 10, .psb = 64, .ovf = -1, .mismatch = -1, .intr = -1, .chunk = 65536,
			  .info_words = PULSE_PT_PRIV_MAX };
	struct pulse_data_writer_opts wo = { .sz = sizeof(wo) };
	struct pulse_data_attr attrs[3] = { 0 };
	__u64 ids[3] = { ID_PT, ID_DUMMY, ID_CYC };
	struct pulse_feat_ctx ctx = { .attrs = attrs };
	struct pulse_buf desc = { 0 }, index = { 0 };
	struct pulse_data_writer *w;
	struct gen g = { .o = &o };
	int fd;

	if (parse_opts(argc, argv, &o)) {
		fprintf(stderr, "usage: pulse-mkpt [options] OUT WORKLOAD (see the source)\n");
		return 129;
	}
	read_elf(&g, argv[optind + 1]);
	make_trace(&g);
	fill_attrs(attrs, ids, &o);
	fill_cycles_attr(&attrs[2], &ids[2]);
	ctx.nr_attrs = o.samples ? 3 : 2;

	wo.pipe = o.pipe;
	fd = strcmp(argv[optind], "-") ? open(argv[optind], O_RDWR | O_CREAT | O_TRUNC, 0644) : 1;
	if (fd < 0 || pulse_data_writer__new(&w, fd, attrs, ctx.nr_attrs, &wo))
		die("cannot start the output");
	if (pulse_feat__build(PULSE_FEAT_EVENT_DESC, &desc, &ctx) ||
	    pulse_data_writer__add_feature(w, PULSE_FEAT_EVENT_DESC, desc.p, desc.len))
		die("EVENT_DESC");
	add_pmu_mappings(w);
	write_sideband_start(w, &g, argv[optind + 1]);
	write_trace(w, fd, &g, &index);
	if (!o.pipe && pulse_data_writer__add_feature(w, PULSE_FEAT_AUXTRACE, index.p, index.len))
		die("AUXTRACE index");
	if (pulse_data_writer__finish(w))
		die("finish failed");
	pulse_data_writer__delete(w);
	pulse_buf__release(&desc);
	pulse_buf__release(&index);
	free(g.pt);
	free(g.psbs);
	return 0;
}
