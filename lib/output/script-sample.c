// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's sample line (perf 6.1's process_event(),
 * sample__fprintf_sym() and sample__fprintf_callchain()): the event, trace,
 * addr, data_src, weight, ip with its symbol and DSO or the callchain, the
 * branch stack and the page sizes. It allocates nothing per sample.
 */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pulse/branch.h>
#include <pulse/data-src.h>
#include <pulse/dump.h>
#include <pulse/event.h>
#include <pulse/hist.h>
#include <pulse/machine.h>
#include <pulse/output-branch.h>
#include <pulse/reader.h>
#include <pulse/script.h>
#include <pulse/srcline.h>
#include <pulse/trace-decode.h>
#include "core/internal.h"
#include "script-int.h"

/* symbol+0xoff, [unknown] */
static void put_sym(FILE *fp, const struct pulse_addr_loc *al, bool offset)
{
	if (!al->sym) {
		put_str(fp, "[unknown]");
		return;
	}
	put_str(fp, al->sym->name);
	if (offset) {
		put_str(fp, "+0x");
		put_hex(fp, al->addr - al->sym->start, 0);
	}
}

/* " sym+0xoff (dso)" as the fields ask */
static void put_sym_dso(FILE *fp, const struct pulse_addr_loc *al, unsigned int fields)
{
	if (fields & F_SYM) {
		putc_unlocked(' ', fp);
		put_sym(fp, al, fields & F_SYMOFFSET);
	}
	if (fields & F_DSO) {
		put_str(fp, " (");
		put_str(fp, pulse_script__dso_name(al->dso));
		putc_unlocked(')', fp);
	}
}

/*
 * perf's map__fprintf_srcline() with "\n  " before it: nothing without a
 * DSO; the line tables are opened at the first line asked for
 */
static const char *srcline_of(struct pulse_script *s, const struct pulse_addr_loc *al,
			      uint64_t ip, char *buf, size_t size)
{
	bool kernel;

	if (!al->dso)
		return NULL;
	if (!s->srclines &&
	    pulse_srclines__new(&s->srclines, s->m ? s->m->dsos.opts.symfs : NULL))
		return NULL;
	/* the kernel's objdump address is the address itself */
	kernel = al->dso->kind == PULSE_DSO_KERNEL || al->dso->kind == PULSE_DSO_MODULE;
	return pulse_srclines__find(s->srclines, al->dso, kernel ? ip : al->addr, buf, size);
}

/* the machine places kernel addresses past the kernel MMAP as perf does */
static int resolve(struct pulse_script *s, const struct pulse_sample *smp, uint8_t cpumode,
		   uint64_t ip, struct pulse_addr_loc *al)
{
	return pulse_machine__resolve(s->m, smp->pid, smp->tid, cpumode, ip, al);
}

static void lb_flush(struct linebuf *lb)
{
	if (lb->n)
		fwrite_unlocked(lb->b, 1, lb->n, lb->fp);
	lb->n = 0;
}

static void lb_write(struct linebuf *lb, const char *p, size_t len)
{
	if (lb->n + len > sizeof(lb->b)) {
		lb_flush(lb);
		if (len > sizeof(lb->b)) {
			fwrite_unlocked(p, 1, len, lb->fp);
			return;
		}
	}
	memcpy(lb->b + lb->n, p, len);
	lb->n += len;
}

static inline void lb_putc(struct linebuf *lb, char c)
{
	if (lb->n == sizeof(lb->b))
		lb_flush(lb);
	lb->b[lb->n++] = c;
}

static inline void lb_str(struct linebuf *lb, const char *str)
{
	lb_write(lb, str, strlen(str));
}

/* "%*lx" */
static void lb_hex(struct linebuf *lb, uint64_t v, int width)
{
	char buf[32], *end = buf + sizeof(buf), *p = fmt_hex(end, v);

	while (width-- > end - p)
		lb_putc(lb, ' ');
	lb_write(lb, p, end - p);
}

/*
 * The sample's frames, callee first, as perf 6.1's thread__resolve_callchain()
 * makes them for script: the callchain then the DWARF-unwound user stack; a
 * chain a trace decoder made (--itrace=g) stands for the sample's.
 * Return: 0, -EINVAL when perf fails to make it (the sample prints as
 * without a callchain), -ENOMEM.
 */
static int script__frames(struct pulse_script *s, const struct perf_event_attr *attr,
			  const struct script_event *ev, const struct pulse_sample *smp)
{
	s->m->max_stack = s->max_stack;
	if (ev->added_chain)
		return pulse_machine__resolve_callchain(s->m, smp->pid, smp->tid, smp->callchain,
							smp->callchain_nr, PULSE_CC_CALLEE,
							&s->cursor);
	return pulse_machine__sample_callchain(s->m, attr, smp, PULSE_CC_CALLEE, &s->cursor);
}

/*
 * perf 6.1's sample__fprintf_callchain(), one line a frame: a user frame's
 * address in its DSO (map_ip), a kernel one's as it is; an inlined frame
 * (sym->inlined) without its DSO and with " (inlined)" after its srcline.
 */
static void print_callchain(struct pulse_script *s, unsigned int fields)
{
	const struct pulse_cc_cursor *c = &s->cursor;
	struct linebuf *lb = &s->lb;
	const struct pulse_dso *last_dso = NULL;
	const char *last_name = NULL;
	size_t last_len = 0;

	lb->fp = s->fp;
	for (size_t i = 0; i < c->nr; i++) {
		const struct pulse_cc_loc *loc = &c->locs[i];
		const struct pulse_symbol *sym = loc->sym;

		if (fields & F_IP) {
			lb_putc(lb, '\t');
			lb_hex(lb, loc->dso && loc->dso->kind != PULSE_DSO_KERNEL &&
					   loc->dso->kind != PULSE_DSO_MODULE ? loc->addr : loc->ip,
			       16);
		}
		if (fields & F_SYM) {
			lb_putc(lb, ' ');
			if (!sym) {
				lb_str(lb, "[unknown]");
			} else {
				lb_write(lb, sym->name, sym->namelen);
				if (fields & F_SYMOFFSET) {
					lb_str(lb, "+0x");
					lb_hex(lb, loc->addr - sym->start, 0);
				}
			}
		}
		if ((fields & F_DSO) && !(sym && sym->inlined)) {
			/* a chain's frames mostly share their DSO: its name's length once */
			if (loc->dso != last_dso || !last_name) {
				last_dso = loc->dso;
				last_name = pulse_script__dso_name(loc->dso);
				last_len = strlen(last_name);
			}
			lb_write(lb, " (", 2);
			lb_write(lb, last_name, last_len);
			lb_putc(lb, ')');
		}
		if (fields & F_SRCLINE) {
			struct pulse_addr_loc al = { .dso = loc->dso, .sym = sym, .addr = loc->addr };
			char buf[4096];
			const char *sl = srcline_of(s, &al, loc->ip, buf, sizeof(buf));

			if (sl) {
				lb_str(lb, "\n  ");
				lb_str(lb, sl);
			}
		}
		if (sym && sym->inlined)
			lb_str(lb, " (inlined)");
		lb_putc(lb, '\n');
	}
	lb_flush(lb);
}

/* get_page_size_name(): " 4K", " N/A" */
/* perf 6.1's __perf_reg_name_x86() */
static const char *x86_reg_name(unsigned int r)
{
	static const char *const names[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7",
		"XMM8", "XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (r < ARRAY_SIZE(names))
		return names[r];
	if (r >= 32 && !(r & 1))
		return xmm[(r - 32) / 2];
	return "unknown";
}

/* perf's perf_sample__fprintf_regs(): iregs, uregs (nothing when abi is 0) */
static void put_regs(FILE *fp, __u64 abi, const void *regs, __u64 mask)
{
	unsigned int i = 0;

	if (!abi || !regs)
		return;
	fprintf(fp, " ABI:%llu ", (unsigned long long)abi);
	for (unsigned int r = 0; r < 64; r++) {
		__u64 val;

		if (!(mask & (1ULL << r)))
			continue;
		memcpy(&val, (const char *)regs + 8 * i++, 8);
		fprintf(fp, "%5s:0x%llx ", x86_reg_name(r), (unsigned long long)val);
	}
}

static void put_page_size(FILE *fp, uint64_t size)
{
	static const char units[] = "BKMG";
	int i = 0;

	putc_unlocked(' ', fp);
	if (!size) {
		put_str(fp, "N/A");
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	put_udec(fp, size, 0);
	putc_unlocked(units[i], fp);
}

/* perf's sample_addr_correlates_sym(): the address is code or data of the task */
static bool addr_correlates_sym(const struct perf_event_attr *attr)
{
	if (pulse_script__is_bts(attr))
		return true;
	return attr->type == PERF_TYPE_SOFTWARE &&
	       (attr->config == PERF_COUNT_SW_PAGE_FAULTS ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		attr->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);
}

/*
 * perf_sample__fprintf_addr(): the address, and for page faults where it
 * lands (thread__resolve(): the sample's cpumode, else the other one)
 */
static int print_addr(struct pulse_script *s, unsigned int fields,
		      const struct perf_event_attr *attr, const struct pulse_sample *smp,
		      uint8_t cpumode)
{
	struct pulse_addr_loc al;
	FILE *fp = s->fp;
	int err;

	put_hex(fp, smp->addr, 16);
	if (!addr_correlates_sym(attr))
		return 0;
	err = pulse_machine__resolve(s->m, smp->pid, smp->tid, cpumode, smp->addr, &al);
	if (!err && !al.dso)
		err = pulse_machine__resolve(s->m, smp->pid, smp->tid,
					     cpumode == PERF_RECORD_MISC_KERNEL ?
					     PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL,
					     smp->addr, &al);
	if (err)
		return err;
	put_sym_dso(fp, &al, fields);
	return 0;
}

/*
 * perf's data_src__fprintf(): left-aligned to the widest column printed
 * so far in the run, so a short one after a long one is padded
 */
static void print_data_src(struct pulse_script *s, uint64_t ds)
{
	char col[100];
	int len = pulse_data_src__script_column(col, ds);

	if (len > s->data_src_width)
		s->data_src_width = len;
	put_str(s->fp, col);
	put_spaces(s->fp, s->data_src_width - len);
}

int pulse_script__sample(struct pulse_script *s, const struct perf_event_header *rec)
{
	const struct perf_event_attr *attr;
	struct script_event *ev;
	struct pulse_sample smp;
	struct pulse_addr_loc al;
	unsigned int fields;
	FILE *fp = s->fp;
	int idx, err;

	idx = pulse_data__attr_of(s->d, rec, rec->size);
	if (idx < 0)
		return 0;
	if ((size_t)idx >= s->nr_ev) {
		err = pulse_script__prepare(s);
		if (err)
			return err;
		if ((size_t)idx >= s->nr_ev)
			return 0;
	}
	attr = pulse_data__attr(s->d, idx);
	if (pulse_sample__parse(rec, rec->size, attr, &smp))
		return 0;
	/* perf has no PERIOD check: a fixed period (-c) is the attr's */
	if (!(attr->sample_type & PERF_SAMPLE_PERIOD))
		smp.period = attr->sample_period;
	/* one value of a PERF_SAMPLE_READ sample: its event, its growth */
	if (s->value) {
		if (s->value->idx >= s->nr_ev)
			return 0;
		idx = (int)s->value->idx;
		smp.period = s->value->period;
		smp.id = s->value->id;
	}
	ev = &s->ev[idx];
	fields = s->out[ev->otype].fields;
	if (!fields)
		return 0;
	err = resolve(s, &smp, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip, &al);
	if (err)
		return err;
	/* perf's --time, --cpu, then machine__resolve()'s al->filtered */
	if (s->opts.filter &&
	    pulse_hist_filter__match(s->opts.filter, &al, al.thread->comm, smp.ip,
				     attr->sample_type & PERF_SAMPLE_CPU ? (int)smp.cpu : -1,
				     attr->sample_type & PERF_SAMPLE_TIME ? smp.time : ~0ULL) !=
	    PULSE_FILTER_KEEP)
		return 0;
	if (!s->name_width) {
		for (size_t i = 0; i < s->nr_ev; i++) {
			int n = (int)strlen(s->ev[i].name);

			if (n > s->name_width)
				s->name_width = n;
		}
	}
	s->nr_samples++;
	pulse_script__print_start(s, ev, &smp, al.thread->comm, PERF_RECORD_SAMPLE);
	if (fields & F_PERIOD) {
		put_udec(fp, smp.period, 10);
		putc_unlocked(' ', fp);
	}
	if (fields & F_EVNAME) {
		put_rstr(fp, ev->name, s->name_width);
		put_str(fp, ": ");
	}
	/* perf_sample__fprintf_flags(): a trace decoder's branch flags */
	if (s->print_flags)
		pulse_script__print_ip_flags(fp, s->ip_flags);
	s->ip_flags = 0;
	/* perf_sample__fprintf_bts(): from => to */
	if (pulse_script__is_bts(attr)) {
		if (fields & F_IP) {
			putc_unlocked(' ', fp);
			put_hex(fp, smp.ip, 16);
			put_sym_dso(fp, &al, fields);
		}
		if ((fields & F_ADDR) ||
		    ((attr->sample_type & PERF_SAMPLE_ADDR) && !s->out[ev->otype].user_set)) {
			put_str(fp, " => ");
			err = print_addr(s, fields, attr, &smp,
					 rec->misc & PERF_RECORD_MISC_CPUMODE_MASK);
			if (err)
				return err;
		}
		putc_unlocked('\n', fp);
		return ferror(fp) ? -EIO : 0;
	}
	if (ev->otype == OUT_SYNTH)
		pulse_script__print_synth(fp, attr, smp.raw, smp.raw_size);
	if ((fields & F_TRACE) && smp.raw && ev->tp)
		pulse_trace__fprintf(s->trace, ev->tp, (int)smp.cpu, smp.raw, smp.raw_size, fp);
	if (fields & F_ADDR) {
		err = print_addr(s, fields, attr, &smp, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK);
		if (err)
			return err;
	}
	if (fields & F_DATA_SRC)
		print_data_src(s, smp.data_src);
	if (fields & F_WEIGHT) {
		/* WEIGHT_STRUCT: var1_dw is the weight, var2_w the instruction latency */
		put_udec(fp, attr->sample_type & PERF_SAMPLE_WEIGHT_STRUCT ?
			 (uint32_t)smp.weight : smp.weight, 16);
	}
	if (fields & F_INS_LAT)
		put_udec(fp, (uint16_t)(smp.weight >> 32), 16);
	if (ev->added_chain) {
		smp.callchain = s->added_ips;
		smp.callchain_nr = s->added_nr;
	}
	if (fields & F_IP) {
		err = -EINVAL;
		if (s->use_callchain && ev->callchain) {
			if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK &&
			    pulse_branch__lbr_callchain(&smp, &s->lbr_chain, &s->lbr_alloc) < 0)
				return -ENOMEM;
			err = script__frames(s, attr, ev, &smp);
			if (err && err != -EINVAL)
				return err;
		}
		if (!err) {
			putc_unlocked('\n', fp);
			print_callchain(s, fields);
		} else {
			/* no callchain, or one perf could not make: the ip alone */
			putc_unlocked(' ', fp);
			put_hex(fp, smp.ip, 16);
			put_sym_dso(fp, &al, fields);
			if (fields & F_SRCLINE) {
				char buf[4096];
				const char *sl = srcline_of(s, &al, smp.ip, buf, sizeof(buf));

				if (sl) {
					put_str(fp, "\n  ");
					put_str(fp, sl);
				}
			}
		}
	}
	if (fields & F_IREGS)
		put_regs(fp, smp.intr_abi, smp.intr_regs, attr->sample_regs_intr);
	if (fields & F_UREGS)
		put_regs(fp, smp.user_abi, smp.user_regs, attr->sample_regs_user);
	if (fields & (F_BRSTACK | F_BRSTACKSYM | F_BRSTACKOFF)) {
		err = pulse_branch__fprintf_script(fp, s->m, &smp,
						   rec->misc & PERF_RECORD_MISC_CPUMODE_MASK,
						   fields & F_BRSTACK ? PULSE_BRSTACK_ADDR :
						   fields & F_BRSTACKSYM ? PULSE_BRSTACK_SYM :
						   PULSE_BRSTACK_OFF, fields & F_DSO);
		if (err)
			return err;
	}
	if (fields & F_PHYS_ADDR)
		put_hex(fp, smp.phys_addr, 16);
	if (fields & F_DATA_PAGE_SIZE)
		put_page_size(fp, smp.data_page_size);
	if (fields & F_CODE_PAGE_SIZE)
		put_page_size(fp, smp.code_page_size);
	putc_unlocked('\n', fp);
	return ferror(fp) ? -EIO : 0;
}
