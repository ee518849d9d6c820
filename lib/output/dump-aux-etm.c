// SPDX-License-Identifier: GPL-2.0
/*
 * A cs_etm AUXTRACE_INFO as perf 6.1's report -D reads it
 * (util/cs-etm.c cs_etm__process_auxtrace_info() and its print routine):
 *
 *   priv[0]  header version (0 or 1)
 *   priv[1]  PMU type << 32 | number of CPUs
 *   priv[2]  snapshot mode
 *   then per CPU a block: magic (ETMv3, ETMv4 or ETE), CPU, and for
 *   version 1 the number of parameters that follow; version 0 blocks
 *   have a fixed number of parameters per magic (4 for ETMv3, 7 for ETMv4)
 *
 * perf checks the blocks (magic, trace IDs all different, their sizes
 * adding up to the record's) and on failure prints the words, as far as
 * they make sense, then refuses the record; it refuses it without printing
 * when no event of the file is of the ETM's PMU type. What perf does after
 * a good record (it synthesizes the ATTRs of its instruction and branch
 * events, decodes the data with OpenCSD) pulse does not: it prints the words.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <pulse/data.h>
#include <pulse/reader.h>
#include "dump-int.h"

#define ETMV3_MAGIC 0x3030303030303030ULL
#define ETMV4_MAGIC 0x4040404040404040ULL
#define ETE_MAGIC 0x5050505050505050ULL

static const char *const header_fmts[] = {
	"\tHeader version\t\t       %" PRIx64 "\n",
	"\tPMU type/num cpus\t       %" PRIx64 "\n",
	"\tSnapshot\t\t       %" PRIx64 "\n",
};

/* a block's first words, then ETMv3's parameters */
static const char *const etmv3_fmts[] = {
	"\tMagic number\t\t       %" PRIx64 "\n",
	"\tCPU\t\t\t       %" PRId64 "\n",
	"\tNR_TRC_PARAMS\t\t       %" PRIx64 "\n",
	"\tETMCR\t\t\t       %" PRIx64 "\n",
	"\tETMTRACEIDR\t\t       %" PRIx64 "\n",
	"\tETMCCER\t\t\t       %" PRIx64 "\n",
	"\tETMIDR\t\t\t       %" PRIx64 "\n",
};

/* ETMv4's, also ETE's in perf 6.1 */
static const char *const etmv4_fmts[] = {
	"\tMagic number\t\t       %" PRIx64 "\n",
	"\tCPU\t\t\t       %" PRId64 "\n",
	"\tNR_TRC_PARAMS\t\t       %" PRIx64 "\n",
	"\tTRCCONFIGR\t\t       %" PRIx64 "\n",
	"\tTRCTRACEIDR\t\t       %" PRIx64 "\n",
	"\tTRCIDR0\t\t\t       %" PRIx64 "\n",
	"\tTRCIDR1\t\t\t       %" PRIx64 "\n",
	"\tTRCIDR2\t\t\t       %" PRIx64 "\n",
	"\tTRCIDR8\t\t\t       %" PRIx64 "\n",
	"\tTRCAUTHSTATUS\t\t       %" PRIx64 "\n",
	"\tTRCDEVARCH                     %" PRIx64 "\n",
};

static __u64 word(const struct rec_view *r, size_t i)
{
	return u64_at(r, 16 + 8 * i);
}

/*
 * perf's cs_etm__print_auxtrace_info(): it stops at a magic it does not
 * know; pulse also stops at the end of the record, where perf reads on
 */
static void print_words(FILE *out, const struct rec_view *r, size_t nr_cpu)
{
	__u64 version = word(r, 0);
	size_t i = 3;

	if ((int)version > 1) {
		fprintf(out, "\tUnknown Header Version = %x, Version supported <= 1\n", (int)version);
		return;
	}
	for (size_t k = 0; k < 3; k++)
		fprintf(out, header_fmts[k], (uint64_t)word(r, k));
	for (size_t cpu = 0; cpu < nr_cpu; cpu++) {
		__u64 magic = word(r, i);
		bool v3 = magic == ETMV3_MAGIC;
		const char *const *fmts = v3 ? etmv3_fmts : etmv4_fmts;
		size_t nr_fmts = v3 ? ARRAY_SIZE(etmv3_fmts) : ARRAY_SIZE(etmv4_fmts);

		if (!v3 && magic != ETMV4_MAGIC && (version == 0 || magic != ETE_MAGIC)) {
			fprintf(out, "\tMagic number Unknown\t       %" PRIx64 "\n", (uint64_t)magic);
			return;
		}
		if (version == 0) {	/* no NR_TRC_PARAMS word: the formats skip it */
			size_t nr = v3 ? 4 : 7;

			fprintf(out, fmts[0], (uint64_t)word(r, i++));
			fprintf(out, fmts[1], (uint64_t)word(r, i++));
			for (size_t j = 3; j < 3 + nr; j++)
				fprintf(out, fmts[j], (uint64_t)word(r, i++));
			continue;
		}
		for (__u64 j = 0, total = word(r, i + 2) + 3; j < total && 16 + 8 * i < r->size;
		     j++, i++) {
			if (j >= nr_fmts)
				fprintf(out, "\tUnknown parameter [%d]\t       %" PRIx64 "\n", (int)j,
					(uint64_t)word(r, i));
			else
				fprintf(out, fmts[j], (uint64_t)word(r, i));
		}
	}
}

/*
 * The blocks as perf checks them: a known magic, trace IDs (ETMTRACEIDR or
 * TRCTRACEIDR) not seen before, and as many words as the record has.
 */
static const char *check_blocks(const struct rec_view *r, size_t nr_cpu)
{
	size_t words = (r->size - 16) / 8, i = 3;
	__u64 version = word(r, 0);
	__u64 *ids;
	const char *bad = NULL;

	if (nr_cpu > words)
		return "cs_etm AUXTRACE_INFO: more CPUs than the record holds";
	ids = calloc(nr_cpu + 1, sizeof(*ids));
	if (!ids)
		return "cs_etm AUXTRACE_INFO: out of memory";
	for (size_t cpu = 0; cpu < nr_cpu && !bad; cpu++) {
		__u64 magic = word(r, i), id;
		size_t len;

		if (magic == ETMV3_MAGIC)
			len = version ? 3 + word(r, i + 2) : 6;
		else if (magic == ETMV4_MAGIC || (version && magic == ETE_MAGIC))
			len = version ? 3 + word(r, i + 2) : 9;
		else {
			bad = "cs_etm AUXTRACE_INFO: unrecognised magic number";
			break;
		}
		id = word(r, i + (version ? 4 : 3));
		for (size_t k = 0; k < cpu; k++)
			if (ids[k] == id)
				bad = "cs_etm AUXTRACE_INFO: two CPUs with one trace ID";
		ids[cpu] = id;
		if (len > words - i)
			bad = "cs_etm AUXTRACE_INFO: a CPU's block runs past the record";
		i += len;
	}
	if (!bad && i != words)
		bad = "cs_etm AUXTRACE_INFO: the CPUs' blocks do not fill the record";
	free(ids);
	return bad;
}

int pulse_dump__cs_etm_info(FILE *out, struct pulse_data *d, const struct rec_view *r, __u64 off)
{
	__u64 version, types;
	size_t nr_cpu;
	const char *bad;
	bool found = false;

	if (r->size < 16 + 3 * 8)
		return pulse_data__corrupt(off, "AUXTRACE_INFO too short for cs_etm");
	version = word(r, 0);
	types = word(r, 1);
	nr_cpu = (uint32_t)types;
	if (version > 1) {
		print_words(out, r, 0);
		return pulse_data__corrupt(off, "cs_etm AUXTRACE_INFO: unknown header version");
	}
	bad = check_blocks(r, nr_cpu);
	if (bad) {
		print_words(out, r, nr_cpu);
		return pulse_data__corrupt(off, bad);
	}
	/* cs_etm__setup_timeless_decoding(): the event of the ETM's PMU */
	for (size_t i = 0; d && i < pulse_data__nr_attrs(d); i++)
		found |= pulse_data__attr(d, i)->type == types >> 32;
	if (!found)
		return pulse_data__corrupt(off, "CS ETM: no event of the ETM's PMU type");
	print_words(out, r, nr_cpu);
	return 0;
}
