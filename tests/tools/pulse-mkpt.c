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

/* pt-loop's labels, in the order of its pt_labels table */
enum sym {
	S_RUN, S_LOOP, S_RET1, S_EVEN, S_RET2, S_NOTX, S_DONE, S_IND, S_IND2,
	S_TX, S_TXADD, S_TXEND, S_TXAB, NR_SYMS
};


struct opts {
	long iters, psb, ovf, mismatch, intr, samples;
	size_t chunk;
	bool pipe, noretcomp, mtc, cyc, missing, tsx;
	__u64 aux_flags;
	int info_words;
	const char *filter;
};

struct gen {
	const struct opts *o;
	__u64 sym[NR_SYMS];
	__u64 text_start, text_len, text_pgoff;	/* the executable PT_LOAD */
	/* the trace */
	unsigned char *pt;
	size_t len, cap;
	size_t *psbs;		/* offsets of the PSBs, where chunks may start */
	size_t nr_psbs, cap_psbs;
	struct pt_encoder *enc;
	unsigned char scratch[64];
	__u64 tnt;
	int tnt_bits;
	__u64 last_ip;
	bool have_last_ip;
	__u64 tsc;
	__u64 ctc;
};

static void die(const char *what)
{
	fprintf(stderr, "pulse-mkpt: %s\n", what);
	exit(1);
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return p;
	while (*cap < need)
		*cap = *cap ? *cap * 2 : 4096;
	p = realloc(p, *cap * elem);
	if (!p)
		die("out of memory");
	return p;
}

/* ---- the workload ELF ------------------------------------------------- */

/* The addresses of pt-loop's labels, from its pt_labels table, at LOAD_BASE. */
static void read_elf(struct gen *g, const char *path)
{
	GElf_Sym s, run = { 0 }, labels = { 0 };
	Elf_Scn *scn = NULL;
	Elf_Data *ld;
	GElf_Shdr lsh;
	size_t nr_phdr;
	Elf *e;
	int fd;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open the workload");
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getphdrnum(e, &nr_phdr))
		die("the workload is not an ELF file");
	for (size_t i = 0; i < nr_phdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		g->text_start = LOAD_BASE + (ph.p_vaddr & ~0xfffULL);
		g->text_len = (ph.p_memsz + (ph.p_vaddr & 0xfff) + 0xfff) & ~0xfffULL;
		g->text_pgoff = ph.p_offset & ~0xfffULL;
		break;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			const char *name;

			if (!gelf_getsym(d, i, &s))
				continue;
			name = elf_strptr(e, sh.sh_link, s.st_name);
			if (name && !strcmp(name, "pt_run"))
				run = s;
			else if (name && !strcmp(name, "pt_labels"))
				labels = s;
		}
	}
	if (!run.st_value || labels.st_size != NR_SYMS * sizeof(__s32))
		die("the workload has no pt_run or pt_labels of the expected size");
	/* the table: offsets from pt_run, in the section that holds it */
	scn = elf_getscn(e, labels.st_shndx);
	if (scn && gelf_getshdr(scn, &lsh) && (ld = elf_getdata(scn, NULL)) &&
	    labels.st_value >= lsh.sh_addr &&
	    labels.st_value - lsh.sh_addr + labels.st_size <= ld->d_size) {
		const unsigned char *p = (const unsigned char *)ld->d_buf +
					 (labels.st_value - lsh.sh_addr);

		for (int k = 0; k < NR_SYMS; k++) {
			__s32 off;

			memcpy(&off, p + 4 * k, 4);
			g->sym[k] = LOAD_BASE + run.st_value + off;
		}
	}
	for (int k = 0; k < NR_SYMS; k++)
		if (!g->sym[k])
			die("the workload's pt_labels could not be read");
	if (!g->text_len)
		die("the workload has no executable segment");
	elf_end(e);
	close(fd);
}

/* ---- packets ---------------------------------------------------------- */

static void emit(struct gen *g, const struct pt_packet *p)
{
	int n;

	if (pt_enc_sync_set(g->enc, 0) < 0)
		die("pt_enc_sync_set");
	n = pt_enc_next(g->enc, p);
	if (n < 0)
		die(pt_errstr(pt_errcode(n)));
	g->pt = grow(g->pt, &g->cap, g->len + n, 1);
	memcpy(g->pt + g->len, g->scratch, n);
	g->len += n;
}

static void emit_simple(struct gen *g, enum pt_packet_type type)
{
	struct pt_packet p = { .type = type };

	emit(g, &p);
}

static void emit_cyc(struct gen *g)
{
	struct pt_packet p = { .type = ppt_cyc };

	if (!g->o->cyc)
		return;
	p.payload.cyc.value = 7;
	emit(g, &p);
}

static void flush_tnt(struct gen *g)
{
	struct pt_packet p = { .type = ppt_tnt_8 };

	if (!g->tnt_bits)
		return;
	p.payload.tnt.bit_size = g->tnt_bits;
	p.payload.tnt.payload = g->tnt;
	emit(g, &p);
	g->tnt = 0;
	g->tnt_bits = 0;
	emit_cyc(g);
}

/* a conditional branch or a compressed return: first branch in the top bit */
static void tnt(struct gen *g, bool taken)
{
	g->tnt = g->tnt << 1 | taken;
	if (++g->tnt_bits == 6)
		flush_tnt(g);
}

/* TIP, TIP.PGE, TIP.PGD or FUP to @ip (0: the IP suppressed), compressed
 * against the last IP as the hardware does */
static void emit_ip(struct gen *g, enum pt_packet_type type, __u64 ip)
{
	struct pt_packet p = { .type = type };

	flush_tnt(g);
	p.payload.ip.ip = ip;
	if (!ip)
		p.payload.ip.ipc = pt_ipc_suppressed;
	else if (g->have_last_ip && (ip >> 16) == (g->last_ip >> 16))
		p.payload.ip.ipc = pt_ipc_update_16;
	else if (g->have_last_ip && (ip >> 32) == (g->last_ip >> 32))
		p.payload.ip.ipc = pt_ipc_update_32;
	else
		p.payload.ip.ipc = pt_ipc_sext_48;
	if (ip) {
		g->last_ip = ip;
		g->have_last_ip = true;
	}
	emit(g, &p);
	if (type != ppt_fup)
		emit_cyc(g);
}

static void emit_mode_exec(struct gen *g)
{
	struct pt_packet p = { .type = ppt_mode };

	p.payload.mode.leaf = pt_mol_exec;
	p.payload.mode.bits.exec.csl = 1;
	emit(g, &p);
}

static void emit_mode_tsx(struct gen *g, bool intx, bool abrt)
{
	struct pt_packet p = { .type = ppt_mode };

	flush_tnt(g);
	p.payload.mode.leaf = pt_mol_tsx;
	p.payload.mode.bits.tsx.intx = intx;
	p.payload.mode.bits.tsx.abrt = abrt;
	emit(g, &p);
}

/* PSB+: the IP (FUP) only while tracing is enabled */
static void emit_psb(struct gen *g, __u64 fup_ip)
{
	struct pt_packet p = { 0 };

	flush_tnt(g);
	g->psbs = grow(g->psbs, &g->cap_psbs, g->nr_psbs + 1, sizeof(*g->psbs));
	g->psbs[g->nr_psbs++] = g->len;
	emit_simple(g, ppt_psb);
	g->have_last_ip = false;
	emit_mode_exec(g);
	if (fup_ip)
		emit_ip(g, ppt_fup, fup_ip);
	p.type = ppt_tsc;
	p.payload.tsc.tsc = g->tsc;
	emit(g, &p);
	if (g->o->mtc) {
		p.type = ppt_tma;
		p.payload.tma.ctc = g->ctc & 0xffff;
		p.payload.tma.fc = g->tsc % TSC_PER_CTC;	/* ticks since the CTC tick */
		emit(g, &p);
	}
	p.type = ppt_cbr;
	p.payload.cbr.ratio = 20;
	emit(g, &p);
	emit_simple(g, ppt_psbend);
}

/*
 * Time passes: with MTC, an MTC each time CTC (= TSC / TSC_PER_CTC) crosses
 * a multiple of 2^MTC_PERIOD, carrying CTC bits MTC_PERIOD+7..MTC_PERIOD.
 */
static void advance(struct gen *g, unsigned int ticks)
{
	struct pt_packet p = { .type = ppt_mtc };
	__u64 ctc;

	g->tsc += ticks;
	ctc = g->tsc / TSC_PER_CTC;
	if (!g->o->mtc || ctc >> MTC_PERIOD == g->ctc >> MTC_PERIOD) {
		g->ctc = ctc;
		return;
	}
	flush_tnt(g);
	g->ctc = ctc;
	p.payload.mtc.ctc = (ctc >> MTC_PERIOD) & 0xff;
	emit(g, &p);
}

static void ret(struct gen *g, __u64 to)
{
	if (g->o->noretcomp)
		emit_ip(g, ppt_tip, to);
	else
		tnt(g, true);
}

/* one iteration of pt_loop with rbx = @rbx */
static void iteration(struct gen *g, long rbx, bool mismatch, bool intr)
{
	ret(g, g->sym[S_RET1]);			/* pt_func's ret */
	if (intr) {				/* to the kernel and back */
		emit_ip(g, ppt_fup, g->sym[S_RET1]);
		emit_ip(g, ppt_tip_pgd, 0);
		emit_ip(g, ppt_tip_pge, g->sym[S_RET1]);
	}
	tnt(g, !(rbx & 1));			/* jz pt_even */
	if (mismatch)
		tnt(g, true);			/* wrong: call *%rcx needs a TIP */
	else
		emit_ip(g, ppt_tip, g->sym[S_IND]);	/* call *%rcx */
	emit_ip(g, ppt_tip, g->sym[S_IND2]);	/* jmp *%rdx */
	ret(g, g->sym[S_RET2]);			/* pt_ind's ret */
	tnt(g, !g->o->tsx);			/* jz pt_notx */
	if (g->o->tsx) {
		emit_mode_tsx(g, true, false);	/* xbegin */
		emit_ip(g, ppt_fup, g->sym[S_TX]);
		if (rbx & 1) {			/* abort at the add */
			emit_mode_tsx(g, false, true);
			emit_ip(g, ppt_fup, g->sym[S_TXADD]);
			emit_ip(g, ppt_tip, g->sym[S_TXAB]);
		} else {			/* xend commits */
			emit_mode_tsx(g, false, false);
			emit_ip(g, ppt_fup, g->sym[S_TXEND]);
		}
		ret(g, g->sym[S_NOTX]);		/* pt_tx's ret */
	}
	tnt(g, rbx != 1);			/* jnz pt_loop */
	advance(g, TSC_PER_ITER);
}

static void make_trace(struct gen *g)
{
	struct pt_config cfg;

	pt_config_init(&cfg);
	cfg.begin = g->scratch;
	cfg.end = g->scratch + sizeof(g->scratch);
	g->enc = pt_alloc_encoder(&cfg);
	if (!g->enc)
		die("pt_alloc_encoder");
	g->tsc = TSC_START;
	g->ctc = g->tsc / TSC_PER_CTC;
	emit_psb(g, 0);
	emit_mode_exec(g);
	emit_ip(g, ppt_tip_pge, g->sym[S_RUN]);
	for (long i = 0, rbx = g->o->iters; rbx > 0; i++, rbx--) {
		if (i && g->o->psb && i % g->o->psb == 0)
			emit_psb(g, g->sym[S_LOOP]);
		if (i == g->o->ovf) {
			/* the packets of this iteration are lost */
			flush_tnt(g);
			emit_simple(g, ppt_ovf);
			advance(g, TSC_PER_ITER);
			emit_ip(g, ppt_fup, rbx > 1 ? g->sym[S_LOOP] : g->sym[S_DONE]);
			continue;
		}
		iteration(g, rbx, i == g->o->mismatch, i == g->o->intr);
	}
	emit_ip(g, ppt_tip_pgd, 0);		/* the exit syscall */
	pt_free_encoder(g->enc);
}

/* ---- records ---------------------------------------------------------- */

static unsigned char rec[4096];
static size_t rlen;

static void put(const void *p, size_t n)
{
	memcpy(rec + rlen, p, n);
	rlen += n;
}

static void put64(__u64 v)
{
	put(&v, 8);
}

static void put32x2(__u32 a, __u32 b)
{
	put(&a, 4);
	put(&b, 4);
}

static void begin(__u32 type, __u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	rlen = 0;
	put(&h, sizeof(h));
}

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
