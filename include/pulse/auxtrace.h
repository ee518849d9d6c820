/* SPDX-License-Identifier: GPL-2.0 */
/*
 * AUXTRACE_INFO: what a perf.data says about the AUX area it carries.
 *
 * Layout (perf 6.1, tools/lib/perf/include/perf/event.h), after the 8-byte
 * perf_event_header:
 *
 *   8   u32 type        which PMU filled the AUX area (enum pulse_auxtrace)
 *   12  u32 reserved
 *   16  u64 priv[]      the PMU's private words, as many as header.size says
 *
 * Intel PT's private words, by index (tools/perf/util/intel-pt.h). Files of
 * older perf stop after PER_CPU_MMAPS (perf 4.2), CYC_BIT (4.3) or
 * MAX_NONTURBO_RATIO (4.6); perf 4.9 added FILTER_STR_LEN, followed by the
 * address filter string padded to 8 bytes. A file may carry more words than
 * pulse knows: they are kept and ignored, as perf does.
 */
#ifndef PULSE_AUXTRACE_H
#define PULSE_AUXTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* auxtrace_info.type, perf's enum auxtrace_type */
enum pulse_auxtrace {
	PULSE_AUXTRACE_UNKNOWN = 0,
	PULSE_AUXTRACE_INTEL_PT = 1,
	PULSE_AUXTRACE_INTEL_BTS = 2,
	PULSE_AUXTRACE_CS_ETM = 3,
	PULSE_AUXTRACE_ARM_SPE = 4,
	PULSE_AUXTRACE_S390_CPUMSF = 5,
	PULSE_AUXTRACE_HISI_PTT = 6,
};

enum pulse_pt_priv {
	PULSE_PT_PMU_TYPE,
	PULSE_PT_TIME_SHIFT,
	PULSE_PT_TIME_MULT,
	PULSE_PT_TIME_ZERO,
	PULSE_PT_CAP_USER_TIME_ZERO,
	PULSE_PT_TSC_BIT,
	PULSE_PT_NORETCOMP_BIT,
	PULSE_PT_HAVE_SCHED_SWITCH,
	PULSE_PT_SNAPSHOT_MODE,
	PULSE_PT_PER_CPU_MMAPS,
	PULSE_PT_MTC_BIT,
	PULSE_PT_MTC_FREQ_BITS,
	PULSE_PT_TSC_CTC_N,
	PULSE_PT_TSC_CTC_D,
	PULSE_PT_CYC_BIT,
	PULSE_PT_MAX_NONTURBO_RATIO,
	PULSE_PT_FILTER_STR_LEN,
	PULSE_PT_PRIV_MAX,
};

/* the offset of priv[0] in the record */
#define PULSE_AUXTRACE_INFO_PRIV 16

/*
 * An Intel PT AUXTRACE_INFO, decoded. @nr_priv is the number of private
 * words the record has (all of them, known or not); a word at an index
 * >= @nr_priv reads 0 in @priv. @filter points into the record (NUL
 * terminated within it) or is NULL when the record has no filter string.
 */
struct pulse_pt_info {
	uint64_t priv[PULSE_PT_PRIV_MAX];
	size_t nr_priv;
	const char *filter;
};

/* the name perf gives an auxtrace type ("intel_pt", ...), or NULL */
const char *pulse_auxtrace__name(uint32_t type);

/*
 * pulse_pt_info__parse - decode an Intel PT AUXTRACE_INFO record
 * @rec: the record, native-endian, @len bytes (its header.size)
 *
 * Return: 0; -EINVAL when the record is not Intel PT's, or is too short
 * for the words every perf writes (up to PER_CPU_MMAPS, perf's minimum),
 * or its filter string runs past the record or is not terminated.
 */
int pulse_pt_info__parse(const void *rec, size_t len, struct pulse_pt_info *out);

/* whether the record carried word @i */
static inline bool pulse_pt_info__has(const struct pulse_pt_info *pi, enum pulse_pt_priv i)
{
	return (size_t)i < pi->nr_priv;
}

#endif
