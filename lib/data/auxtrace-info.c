// SPDX-License-Identifier: GPL-2.0
/*
 * AUXTRACE_INFO records: which PMU filled the AUX area, and Intel PT's
 * private words (include/pulse/auxtrace.h), checked against the record's
 * own size before any word is read.
 */
#include <errno.h>
#include <string.h>

#include <pulse/auxtrace.h>
#include <pulse/perf-abi.h>

static const char *const auxtrace_names[] = {
	[PULSE_AUXTRACE_INTEL_PT] = "intel_pt",
	[PULSE_AUXTRACE_INTEL_BTS] = "intel_bts",
	[PULSE_AUXTRACE_CS_ETM] = "cs_etm",
	[PULSE_AUXTRACE_ARM_SPE] = "arm_spe",
	[PULSE_AUXTRACE_S390_CPUMSF] = "s390_cpumsf",
	[PULSE_AUXTRACE_HISI_PTT] = "hisi_ptt",
};

const char *pulse_auxtrace__name(uint32_t type)
{
	if (type >= sizeof(auxtrace_names) / sizeof(auxtrace_names[0]))
		return NULL;
	return auxtrace_names[type];
}

int pulse_pt_info__parse(const void *rec, size_t len, struct pulse_pt_info *out)
{
	const unsigned char *p = rec;
	uint32_t type;
	size_t i, n, flen;

	memset(out, 0, sizeof(*out));
	if (len < PULSE_AUXTRACE_INFO_PRIV)
		return -EINVAL;
	memcpy(&type, p + 8, sizeof(type));
	if (type != PULSE_AUXTRACE_INTEL_PT)
		return -EINVAL;
	n = (len - PULSE_AUXTRACE_INFO_PRIV) / 8;
	/* perf refuses a record without the words up to PER_CPU_MMAPS */
	if (n < PULSE_PT_PER_CPU_MMAPS)
		return -EINVAL;
	out->nr_priv = n;
	for (i = 0; i < n && i < PULSE_PT_PRIV_MAX; i++)
		memcpy(&out->priv[i], p + PULSE_AUXTRACE_INFO_PRIV + 8 * i, 8);
	if (!pulse_pt_info__has(out, PULSE_PT_FILTER_STR_LEN))
		return 0;
	flen = out->priv[PULSE_PT_FILTER_STR_LEN];
	if (!flen)
		return 0;
	/* the string and its NUL, padded to 8 bytes, after the last word */
	if (flen > len || (n - PULSE_PT_PRIV_MAX) * 8 < ((flen + 1 + 7) & ~(size_t)7))
		return -EINVAL;
	out->filter = (const char *)p + PULSE_AUXTRACE_INFO_PRIV + 8 * PULSE_PT_PRIV_MAX;
	if (memchr(out->filter, 0, (n - PULSE_PT_PRIV_MAX) * 8) == NULL)
		return -EINVAL;
	return 0;
}
