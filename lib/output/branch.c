// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks in report -D and in perf script's brstack fields, with
 * perf 6.1's exact spacing (include/pulse/output-branch.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <pulse/branch.h>
#include <pulse/data.h>
#include <pulse/machine.h>
#include <pulse/output-branch.h>
#include <pulse/script.h>
#include "core/internal.h"

/* glibc prints a NULL %s as "(null)", and perf 6.1 hands it NULL names */
static const char *or_null(const char *s)
{
	return s ? s : "(null)";
}

void pulse_branch__fprintf_dump(FILE *out, const struct pulse_sample *s, bool callstack)
{
	struct pulse_branch_entry e;

	/* a call stack of nr branches has nr + 1 frames: the first "to" and every "from" */
	fprintf(out, "%s: nr:%" PRIu64 "\n", callstack ? "... branch callstack" : "... branch stack",
		(uint64_t)s->branch_nr + callstack);
	for (__u64 i = 0; !pulse_branch__entry(s, i, &e); i++) {
		const struct pulse_branch_flags *f = &e.flags;

		if (callstack) {
			if (!i)
				fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", (uint64_t)i,
					(uint64_t)e.to);
			fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 "\n", (uint64_t)i + 1,
				(uint64_t)e.from);
			continue;
		}
		fprintf(out, "..... %2" PRIu64 ": %016" PRIx64 " -> %016" PRIx64
			" %hu cycles %s%s%s%s %x %s\n", (uint64_t)i, (uint64_t)e.from,
			(uint64_t)e.to, (unsigned short)f->cycles, f->mispred ? "M" : " ",
			f->predicted ? "P" : " ", f->abort ? "A" : " ", f->in_tx ? "T" : " ",
			(unsigned int)f->reserved, or_null(pulse_branch__type_name(f)));
	}
}

void pulse_branch__fprintf_lbr_callchain(FILE *out, const struct pulse_sample *s)
{
	__u64 nr = s->callchain_nr, kernel_nr;
	struct pulse_branch_entry e;

	/* the kernel part ends at the user context marker; LBR holds the user part */
	for (kernel_nr = 0; kernel_nr < nr; kernel_nr++)
		if (get_u64((const char *)s->callchain + 8 * kernel_nr) == PERF_CONTEXT_USER)
			break;
	if (kernel_nr == nr || !s->branch_nr)
		return;
	kernel_nr++;
	fprintf(out, "... LBR call chain: nr:%" PRIu64 "\n",
		(uint64_t)(kernel_nr + s->branch_nr + 1));
	for (__u64 i = 0; i < kernel_nr; i++)
		fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)i,
			(uint64_t)get_u64((const char *)s->callchain + 8 * i));
	pulse_branch__entry(s, 0, &e);
	fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)kernel_nr, (uint64_t)e.to);
	for (__u64 i = 0; !pulse_branch__entry(s, i, &e); i++)
		fprintf(out, "..... %2d: %016" PRIx64 "\n", (int)(i + kernel_nr + 1),
			(uint64_t)e.from);
}

static void put_dso(FILE *fp, const struct pulse_addr_loc *al)
{
	fprintf(fp, "(%s)", pulse_script__dso_name(al->dso));
}

/* perf's symbol__fprintf_symname_offs(): always an offset after a symbol */
static void put_sym_off(FILE *fp, const struct pulse_addr_loc *al)
{
	if (al->sym)
		fprintf(fp, "%s+0x%" PRIx64, al->sym->name, (uint64_t)(al->addr - al->sym->start));
	else
		fputs("[unknown]", fp);
}

static void put_end(FILE *fp, enum pulse_brstack_style style, const struct pulse_addr_loc *al,
		    uint64_t addr, bool dso)
{
	switch (style) {
	case PULSE_BRSTACK_SYM:
		put_sym_off(fp, al);
		break;
	case PULSE_BRSTACK_OFF:
		/*
		 * perf maps the address into its DSO unless the DSO's symbols
		 * came from its ELF file (perf 6.1 then sets adjust_symbols)
		 */
		fprintf(fp, "0x%" PRIx64, (uint64_t)(al->dso && !(al->dso->kind == PULSE_DSO_USER &&
							       al->dso->symtab.nr) ? al->addr : addr));
		break;
	default:
		fprintf(fp, "0x%" PRIx64, (uint64_t)addr);
	}
	if (dso)
		put_dso(fp, al);
}

/*
 * perf's thread__find_map_fb(): in the record's mode, else in the mode of
 * the address (x86 is one address space: the kernel's is above 2^63)
 */
static void resolve_fb(struct pulse_machine *m, struct pulse_thread *t, uint8_t cpumode,
		       uint64_t addr, struct pulse_addr_loc *al)
{
	uint8_t mode = addr >= 1ULL << 63 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	pulse_machine__resolve_thread(m, t, cpumode, addr, al);
	if (!al->dso && mode != cpumode &&
	    (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_USER))
		pulse_machine__resolve_thread(m, t, mode, addr, al);
}

int pulse_branch__fprintf_script(FILE *fp, struct pulse_machine *m, const struct pulse_sample *s,
				 uint8_t cpumode, enum pulse_brstack_style style, bool dso)
{
	struct pulse_branch_entry e;
	struct pulse_thread *t;

	if (!s->branch_nr)
		return 0;
	t = pulse_machine__findnew_thread(m, (int32_t)s->pid, (int32_t)s->tid);
	if (!t)
		return -ENOMEM;
	for (__u64 i = 0; !pulse_branch__entry(s, i, &e); i++) {
		const struct pulse_branch_flags *f = &e.flags;
		struct pulse_addr_loc from, to;

		resolve_fb(m, t, cpumode, e.from, &from);
		resolve_fb(m, t, cpumode, e.to, &to);
		if (style != PULSE_BRSTACK_SYM)
			fputc(' ', fp);
		put_end(fp, style, &from, e.from, dso);
		fputc('/', fp);
		put_end(fp, style, &to, e.to, dso);
		fprintf(fp, "/%c/%c/%c/%d/%s ", pulse_branch__pred_char(f), f->in_tx ? 'X' : '-',
			f->abort ? 'A' : '-', (int)f->cycles, or_null(pulse_branch__type_name(f)));
	}
	return ferror(fp) ? -EIO : 0;
}
