/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pulse-mkpt's trace: pt-loop's labels read from its ELF, and the Intel PT
 * packets of its control flow made with libipt's encoder (PSB+, TNT, TIP,
 * MODE, timing packets), for the options in struct opts. Included by
 * pulse-mkpt.c after its constants, as mkpt-samples.h is after its record
 * helpers.
 */
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
