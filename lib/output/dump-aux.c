// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -D's AUX-area user records: AUXTRACE_INFO with the private
 * words of its PMU (perf 6.1's *_process_auxtrace_info() in dump mode), and
 * AUXTRACE with the dump of its data: Intel PT packets (intel_pt_dump()),
 * Intel BTS branch records (intel_bts_dump()).
 *
 * An AUXTRACE_INFO perf refuses (too short for its PMU, a bad filter
 * string, a type perf 6.1 does not know) ends perf's walk ("failed to
 * process type: 70"): here it is -EBADMSG with the record's offset, for the
 * caller's one error line. Where perf reads a word past a record one word
 * short of what it prints (intel_pt's Per-cpu maps, intel_bts' Snapshot
 * mode), it prints whatever follows in the file; pulse prints 0.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/auxtrace.h>
#include <pulse/data.h>
#include <pulse/dump.h>
#include <pulse/pt-dump.h>
#include <pulse/reader.h>
#include "dump-int.h"

/* intel_pt_info_fmts[]: NULL for the words perf 6.1 does not print */
static const char *const pt_fmts[PULSE_PT_PRIV_MAX] = {
	[PULSE_PT_PMU_TYPE]		= "  PMU Type            %" PRId64 "\n",
	[PULSE_PT_TIME_SHIFT]		= "  Time Shift          %" PRIu64 "\n",
	[PULSE_PT_TIME_MULT]		= "  Time Muliplier      %" PRIu64 "\n",
	[PULSE_PT_TIME_ZERO]		= "  Time Zero           %" PRIu64 "\n",
	[PULSE_PT_CAP_USER_TIME_ZERO]	= "  Cap Time Zero       %" PRId64 "\n",
	[PULSE_PT_TSC_BIT]		= "  TSC bit             %#" PRIx64 "\n",
	[PULSE_PT_NORETCOMP_BIT]	= "  NoRETComp bit       %#" PRIx64 "\n",
	[PULSE_PT_HAVE_SCHED_SWITCH]	= "  Have sched_switch   %" PRId64 "\n",
	[PULSE_PT_SNAPSHOT_MODE]	= "  Snapshot mode       %" PRId64 "\n",
	[PULSE_PT_PER_CPU_MMAPS]	= "  Per-cpu maps        %" PRId64 "\n",
	[PULSE_PT_MTC_BIT]		= "  MTC bit             %#" PRIx64 "\n",
	[PULSE_PT_MTC_FREQ_BITS]	= "  MTC freq bits       %#" PRIx64 "\n",
	[PULSE_PT_TSC_CTC_N]		= "  TSC:CTC numerator   %" PRIu64 "\n",
	[PULSE_PT_TSC_CTC_D]		= "  TSC:CTC denominator %" PRIu64 "\n",
	[PULSE_PT_CYC_BIT]		= "  CYC bit             %#" PRIx64 "\n",
	[PULSE_PT_MAX_NONTURBO_RATIO]	= "  Max non-turbo ratio %" PRIu64 "\n",
	[PULSE_PT_FILTER_STR_LEN]	= "  Filter string len.  %" PRIu64 "\n",
};

/* word @i of the record's private words; 0 past the record */
static __u64 priv(const struct rec_view *r, size_t i)
{
	return u64_at(r, PULSE_AUXTRACE_INFO_PRIV + 8 * i);
}

static void pt_words(FILE *out, const struct rec_view *r, size_t from, size_t to)
{
	for (size_t i = from; i <= to; i++)
		if (pt_fmts[i])
			fprintf(out, pt_fmts[i], (uint64_t)priv(r, i));
}

/* perf's intel_pt_has(): the record reaches word @i */
static bool pt_has(const struct rec_view *r, size_t i)
{
	return r->size >= PULSE_AUXTRACE_INFO_PRIV + 8 * (i + 1);
}

/*
 * The address filter grammar perf checks the string against (util/auxtrace.c
 * addr_filters__parse_bare_filter()): filters separated by spaces or commas,
 * each "filter|start|stop|tracestop ADDR|SYM[#N|#g] [/ SIZE|SYM[#N|#g]]
 * [@FILE]". Tokens are cut in place, in a copy, as perf cuts them.
 */
static int filter_token(char **in, bool num_ok, const char **word, const char *delim)
{
	size_t n;

	*word = NULL;
	*in += strspn(*in, " ");
	if (isdigit((unsigned char)**in)) {
		char *end;

		if (!num_ok)
			return -EINVAL;
		errno = 0;
		strtoull(*in, &end, 0);
		if (errno || end == *in)
			return -EINVAL;
		*in = end;
		return 0;
	}
	*word = *in;
	n = strcspn(*in, delim);
	if (!n)
		return -EINVAL;
	*in += n;
	if (**in) {
		**in = '\0';
		*in += 1;
	}
	return 0;
}

/* ADDR or SYM, a SYM optionally followed by #N, #g or #G */
static int filter_addr(char **in)
{
	const char *sym;
	unsigned long idx;
	char *end;

	if (filter_token(in, true, &sym, " "))
		return -EINVAL;
	if (!sym)
		return 0;
	*in += strspn(*in, " ");
	if (**in != '#')
		return 0;
	*in += 1;
	if (**in == 'g' || **in == 'G') {
		*in += 1;
		return 0;
	}
	errno = 0;
	idx = strtoul(*in, &end, 0);
	if (errno || end == *in || idx > INT_MAX)
		return -EINVAL;
	*in = end;
	return 0;
}

static bool filter_ok(const char *filter)
{
	char *copy = strdup(filter), *in = copy;
	const char *action, *file;
	bool ok = copy != NULL;

	while (ok && *in) {
		ok = !filter_token(&in, false, &action, " ") &&
		     (!strcmp(action, "filter") || !strcmp(action, "start") ||
		      !strcmp(action, "stop") || !strcmp(action, "tracestop")) &&
		     !filter_addr(&in);
		if (!ok)
			break;
		in += strspn(in, " ");
		if (*in == '/') {
			in++;
			ok = !filter_addr(&in);
		}
		in += strspn(in, " ");
		if (ok && *in == '@') {
			in++;
			ok = !filter_token(&in, false, &file, " ,");
		}
		in += strspn(in, " ,");
	}
	free(copy);
	return ok;
}

/* util/intel-pt.c intel_pt_process_auxtrace_info(), as far as -D goes */
static int intel_pt_info(FILE *out, const struct rec_view *r, __u64 off)
{
	size_t end = r->size, at;

	if (r->size < PULSE_AUXTRACE_INFO_PRIV + 8 * PULSE_PT_PER_CPU_MMAPS)
		return pulse_data__corrupt(off, "AUXTRACE_INFO too short for intel_pt");
	pt_words(out, r, PULSE_PT_PMU_TYPE, PULSE_PT_PER_CPU_MMAPS);
	if (pt_has(r, PULSE_PT_CYC_BIT))
		pt_words(out, r, PULSE_PT_MTC_BIT, PULSE_PT_CYC_BIT);
	if (pt_has(r, PULSE_PT_MAX_NONTURBO_RATIO))
		pt_words(out, r, PULSE_PT_MAX_NONTURBO_RATIO, PULSE_PT_MAX_NONTURBO_RATIO);
	at = PULSE_AUXTRACE_INFO_PRIV + 8 * PULSE_PT_PRIV_MAX;
	if (pt_has(r, PULSE_PT_FILTER_STR_LEN)) {
		__u64 len = priv(r, PULSE_PT_FILTER_STR_LEN);
		const char *filter = "";

		pt_words(out, r, PULSE_PT_FILTER_STR_LEN, PULSE_PT_FILTER_STR_LEN);
		if (len) {
			__u64 padded = (len + 1 + 7) & ~7ULL;

			if (len > end || padded > end - at)
				return pulse_data__corrupt(off,
					"intel_pt AUXTRACE_INFO: bad filter string length");
			if (r->p[at + padded - 1])
				return pulse_data__corrupt(off,
					"intel_pt AUXTRACE_INFO: filter string not null terminated");
			filter = (const char *)r->p + at;
			if (!filter_ok(filter))
				return pulse_data__corrupt(off,
					"intel_pt AUXTRACE_INFO: an address filter perf cannot parse");
			at += padded;
		}
		fprintf(out, "  %-20s%s\n", "Filter string", filter);
	}
	/* perf 5.19 and up write the Event Trace capability last */
	if (at < end)
		fprintf(out, "  Cap Event Trace     %d\n", u64_at(r, at) != 0);
	return 0;
}

static const char *const bts_fmts[] = {
	"  PMU Type           %" PRId64 "\n",
	"  Time Shift         %" PRIu64 "\n",
	"  Time Muliplier     %" PRIu64 "\n",
	"  Time Zero          %" PRIu64 "\n",
	"  Cap Time Zero      %" PRId64 "\n",
	"  Snapshot mode      %" PRId64 "\n",
};

/*
 * " type: N", then the PMU's words as perf 6.1 prints them; records which
 * PMU's data the AUXTRACE records carry. -EBADMSG where perf stops.
 */
int pulse_dump__auxtrace_info(FILE *out, struct pulse_dump *dump, const struct rec_view *r,
			      __u64 off)
{
	__u32 type = u32_at(r, 8);
	int err = 0;

	fprintf(out, " type: %u\n", type);
	switch (type) {
	case PULSE_AUXTRACE_INTEL_PT:
		err = intel_pt_info(out, r, off);
		break;
	case PULSE_AUXTRACE_INTEL_BTS:
		/* perf checks for 5 words, prints 6 */
		if (r->size < PULSE_AUXTRACE_INFO_PRIV + 8 * 5)
			return pulse_data__corrupt(off, "AUXTRACE_INFO too short for intel_bts");
		for (size_t i = 0; i < ARRAY_SIZE(bts_fmts); i++)
			fprintf(out, bts_fmts[i], (uint64_t)priv(r, i));
		break;
	case PULSE_AUXTRACE_ARM_SPE:
	case PULSE_AUXTRACE_HISI_PTT:
		/* arm_spe needs PMU type and per-cpu mmaps, hisi_ptt the PMU type */
		if (r->size < PULSE_AUXTRACE_INFO_PRIV + 8 * (type == PULSE_AUXTRACE_ARM_SPE ? 2 : 1))
			return pulse_data__corrupt(off, type == PULSE_AUXTRACE_ARM_SPE ?
				"AUXTRACE_INFO too short for arm_spe" :
				"AUXTRACE_INFO too short for hisi_ptt");
		fprintf(out, "  PMU Type           %" PRId64 "\n", (int64_t)priv(r, 0));
		break;
	case PULSE_AUXTRACE_S390_CPUMSF:
		break;
	case PULSE_AUXTRACE_CS_ETM:
		err = pulse_dump__cs_etm_info(out, dump->d, r, off);
		break;
	default:
		return pulse_data__corrupt(off, "AUXTRACE_INFO of a type perf 6.1 does not know");
	}
	if (!err) {
		dump->auxtrace_type = type;
		dump->has_auxtrace = true;
	}
	return err;
}

void pulse_aux_stats__add(struct pulse_aux_stats *st, const struct perf_event_header *rec)
{
	struct rec_view r = { (const unsigned char *)rec, rec->size };
	__u64 flags = u64_at(&r, 24);

	/* perf_session__auxtrace_error_inc(): types below PERF_AUXTRACE_ERROR_MAX */
	if (rec->type == PERF_RECORD_AUXTRACE_ERROR && rec->size >= 12 && u32_at(&r, 8) < 2)
		st->errors[u32_at(&r, 8)]++;
	if (rec->type != PERF_RECORD_AUX || rec->size < 32)
		return;
	st->nr_aux++;
	st->lost += !!(flags & PERF_AUX_FLAG_TRUNCATED);
	st->partial += !!(flags & PERF_AUX_FLAG_PARTIAL);
	st->collision += !!(flags & PERF_AUX_FLAG_COLLISION);
}

/*
 * util/auxtrace.c perf_event__fprintf_auxtrace_error() (perf script's -D):
 * type, code, cpu, pid, tid, fmt, ip at 8..39; fmt 0 has its message at 40,
 * later ones the time there and the message at 48; fmt 2 adds machine_pid
 * and vcpu after the 64-byte message.
 */
void pulse_dump__auxtrace_error(FILE *out, const struct rec_view *r)
{
	__u32 type = u32_at(r, 8), fmt = u32_at(r, 28);
	__u64 ns = fmt ? u64_at(r, 40) : 0;
	size_t msg = fmt ? 48 : 40;
	int len = str_len(r, msg);

	fprintf(out, " %s error type %u", type == 1 ? "instruction trace" : "unknown AUX", type);
	if (ns)
		fprintf(out, " time %" PRIu64 ".%09" PRIu64, (uint64_t)(ns / 1000000000),
			(uint64_t)(ns % 1000000000));
	else
		fputs(" time 0", out);
	if (fmt >= 2 && u32_at(r, 112))
		fprintf(out, " machine_pid %d vcpu %d", (int)u32_at(r, 112), (int)u32_at(r, 116));
	fprintf(out, " cpu %d pid %d tid %d ip %#" PRIx64 " code %u: %.*s\n", (int)u32_at(r, 16),
		(int)u32_at(r, 20), (int)u32_at(r, 24), (uint64_t)u64_at(r, 32), u32_at(r, 12),
		len > 64 ? 64 : len, (const char *)r->p + (msg < r->size ? msg : 0));
}

/* util/intel-bts.c intel_bts_dump(): 24-byte branch records, from -> to */
static int bts_dump(FILE *out, const unsigned char *buf, size_t len)
{
	fprintf(out, ".\n. ... Intel BTS data: size %zu bytes\n", len);
	for (size_t pos = 0; pos < len; pos += 24) {
		size_t sz = len - pos < 24 ? len - pos : 24, i;
		struct rec_view r = { buf + pos, sz };

		fprintf(out, ".  %08zx: ", pos);
		for (i = 0; i < sz; i++)
			fprintf(out, " %02x", buf[pos + i]);
		for (; i < 24; i++)
			fputs("   ", out);
		if (sz == 24)
			fprintf(out, " %" PRIx64 " -> %" PRIx64 " %s\n", (uint64_t)u64_at(&r, 0),
				(uint64_t)u64_at(&r, 8), u64_at(&r, 16) & 0x10 ? "pred" : "miss");
		else
			fputs(" Bad record!\n", out);
	}
	return ferror(out) ? -EIO : 0;
}

/* The AUXTRACE line; under it, for intel_pt and intel_bts, its data. */
int pulse_dump__auxtrace(FILE *out, struct pulse_dump *dump, const struct rec_view *r)
{
	const void *data;
	uint64_t len;

	fprintf(out, " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
		"  idx: %u  tid: %d  cpu: %d\n", (uint64_t)u64_at(r, 8),
		(uint64_t)u64_at(r, 16), (uint64_t)u64_at(r, 24), u32_at(r, 32),
		(int)u32_at(r, 36), (int)u32_at(r, 40));
	if (!dump->has_auxtrace || !dump->d)
		return 0;
	data = pulse_data__auxtrace_data(dump->d, &len);
	if (!data)	/* perf cannot read it either, and prints nothing */
		return 0;
	if (dump->auxtrace_type == PULSE_AUXTRACE_INTEL_PT)
		return pulse_pt_dump__fprintf(out, data, len);
	if (dump->auxtrace_type == PULSE_AUXTRACE_INTEL_BTS)
		return bts_dump(out, data, len);
	if (dump->auxtrace_type == PULSE_AUXTRACE_ARM_SPE)
		return pulse_dump__spe(out, data, len);
	return 0;
}
