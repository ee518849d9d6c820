// SPDX-License-Identifier: GPL-2.0
/*
 * perf script's lines for what an instruction trace decoder synthesizes
 * (perf 6.1's builtin-script.c): the branch flags of -F flags
 * (perf_sample__sprintf_flags()), the payloads of the synthesized events
 * (perf_sample__fprintf_synth(): psb, cbr, ptwrite, padded to a column of
 * 34), and the AUX trace error lines (perf_event__fprintf_auxtrace_error()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <pulse/pt-decode.h>
#include <pulse/script.h>
#include "script-int.h"

#define IPF_BRANCH (1U << 0)
#define IPF_CALL (1U << 1)
#define IPF_RETURN (1U << 2)
#define IPF_CONDITIONAL (1U << 3)
#define IPF_SYSCALLRET (1U << 4)
#define IPF_ASYNC (1U << 5)
#define IPF_INTERRUPT (1U << 6)
#define IPF_TX_ABORT (1U << 7)
#define IPF_TRACE_BEGIN (1U << 8)
#define IPF_TRACE_END (1U << 9)
#define IPF_IN_TX (1U << 10)
#define IPF_VMENTRY (1U << 11)
#define IPF_VMEXIT (1U << 12)
#define IPF_INTR_DISABLE (1U << 13)
#define IPF_INTR_TOGGLE (1U << 14)
#define IPF_STATE_MASK (IPF_IN_TX | IPF_INTR_DISABLE | IPF_INTR_TOGGLE)

static const struct {
	uint32_t flags;
	const char *name;
} sample_flags[] = {
	{ IPF_BRANCH | IPF_CALL, "call" },
	{ IPF_BRANCH | IPF_RETURN, "return" },
	{ IPF_BRANCH | IPF_CONDITIONAL, "jcc" },
	{ IPF_BRANCH, "jmp" },
	{ IPF_BRANCH | IPF_CALL | IPF_INTERRUPT, "int" },
	{ IPF_BRANCH | IPF_RETURN | IPF_INTERRUPT, "iret" },
	{ IPF_BRANCH | IPF_CALL | IPF_SYSCALLRET, "syscall" },
	{ IPF_BRANCH | IPF_RETURN | IPF_SYSCALLRET, "sysret" },
	{ IPF_BRANCH | IPF_ASYNC, "async" },
	{ IPF_BRANCH | IPF_CALL | IPF_ASYNC | IPF_INTERRUPT, "hw int" },
	{ IPF_BRANCH | IPF_TX_ABORT, "tx abrt" },
	{ IPF_BRANCH | IPF_TRACE_BEGIN, "tr strt" },
	{ IPF_BRANCH | IPF_TRACE_END, "tr end" },
	{ IPF_BRANCH | IPF_CALL | IPF_VMENTRY, "vmentry" },
	{ IPF_BRANCH | IPF_CALL | IPF_VMEXIT, "vmexit" },
};

static const char *flags_name(uint32_t flags)
{
	for (size_t i = 0; i < sizeof(sample_flags) / sizeof(sample_flags[0]); i++)
		if (sample_flags[i].flags == flags)
			return sample_flags[i].name;
	return NULL;
}

void pulse_script__print_ip_flags(FILE *fp, uint32_t flags)
{
	static const char chars[] = "bcrosyiABExghDt";
	uint32_t xf = flags & IPF_STATE_MASK;
	char str[64], xs[16] = "";
	const char *name;
	size_t pos = 0, i;

	if (xf)
		snprintf(xs, sizeof(xs), "(%s%s%s)", flags & IPF_IN_TX ? "x" : "",
			 flags & IPF_INTR_DISABLE ? "D" : "", flags & IPF_INTR_TOGGLE ? "t" : "");
	if ((name = flags_name(flags & ~IPF_STATE_MASK))) {
		snprintf(str, sizeof(str), "%-15s%6s", name, xs);
	} else if ((flags & IPF_TRACE_BEGIN) &&
		   (name = flags_name(flags & ~(IPF_TRACE_BEGIN | IPF_STATE_MASK)))) {
		snprintf(str, sizeof(str), "tr strt %-7s%6s", name, xs);
	} else if ((flags & IPF_TRACE_END) &&
		   (name = flags_name(flags & ~(IPF_TRACE_END | IPF_STATE_MASK)))) {
		snprintf(str, sizeof(str), "tr end  %-7s%6s", name, xs);
	} else {
		for (i = 0; i < sizeof(chars) - 1; i++, flags >>= 1)
			if (flags & 1)
				str[pos++] = chars[i];
		for (; i < 32; i++, flags >>= 1)
			if (flags & 1)
				str[pos++] = '?';
		str[pos] = 0;
	}
	fprintf(fp, "  %-21s ", str);
}

/* perf's is_bts_event(): a branch event with one sample per branch */
bool pulse_script__is_bts(const struct perf_event_attr *attr)
{
	return attr->type == PERF_TYPE_HARDWARE &&
	       (attr->config & PERF_COUNT_HW_BRANCH_INSTRUCTIONS) && attr->sample_period == 1;
}

/* perf_sample__fprintf_pt_spacing(): payloads end at column 34 */
static void pt_spacing(FILE *fp, int len)
{
	if (len > 0 && len < 34)
		fprintf(fp, "%*s", 34 - len, "");
}

void pulse_script__print_synth(FILE *fp, const struct perf_event_attr *attr, const void *raw,
			       uint32_t raw_size)
{
	const uint8_t *p = raw;
	uint32_t w[3];
	uint64_t v;
	int len;

	if (!p || raw_size < 12)
		return;
	switch (attr->config) {
	case PULSE_SYNTH_INTEL_PSB:
		memcpy(&v, p + 4, 8);
		len = v ? fprintf(fp, " psb offs: %#" PRIx64, v) : fprintf(fp, " psb offs: 0");
		pt_spacing(fp, len);
		break;
	case PULSE_SYNTH_INTEL_CBR: {
		unsigned int cbr, max_nonturbo;

		memcpy(w, p, 12);
		cbr = w[0] & 0xff;
		max_nonturbo = (w[0] >> 16) & 0xff;
		len = fprintf(fp, " cbr: %2u freq: %4u MHz ", cbr, w[1]);
		if (max_nonturbo)
			len += fprintf(fp, "(%3u%%) ", ((cbr * 1000 / max_nonturbo) + 5) / 10);
		pt_spacing(fp, len);
		break;
	}
	case PULSE_SYNTH_INTEL_PTWRITE:
		memcpy(w, p, 4);
		memcpy(&v, p + 4, 8);
		len = fprintf(fp, " IP: %u payload: %#" PRIx64 " ", w[0] & 1, v);
		pt_spacing(fp, len);
		break;
	default:
		break;
	}
}

void pulse_script__set_ip_flags(struct pulse_script *s, uint32_t flags)
{
	s->ip_flags = flags;
}

void pulse_script__add_callchains(struct pulse_script *s, size_t nr_attrs)
{
	s->added_attrs = nr_attrs;
}

void pulse_script__set_callchain(struct pulse_script *s, const uint64_t *ips, size_t nr)
{
	s->added_ips = ips;
	s->added_nr = nr;
}

int pulse_script__auxtrace_error(struct pulse_script *s, const struct pulse_pt_error *e)
{
	FILE *fp = s->fp;

	fprintf(fp, " %s error type %u", e->type == 1 ? "instruction trace" : "unknown AUX",
		e->type);
	if (e->time)
		fprintf(fp, " time %" PRIu64 ".%09" PRIu64, (uint64_t)(e->time / 1000000000),
			(uint64_t)(e->time % 1000000000));
	else
		fputs(" time 0", fp);
	fprintf(fp, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %s\n", e->cpu, e->pid,
		e->tid, e->ip, e->code, e->msg);
	return ferror(fp) ? -EIO : 0;
}
