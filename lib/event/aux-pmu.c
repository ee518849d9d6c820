// SPDX-License-Identifier: GPL-2.0
/*
 * AUX-area PMUs: the PMUs perf 6.1 records an AUX area for, known by the
 * name their driver registers under bus/event_source/devices (intel_pt,
 * intel_bts, cs_etm, arm_spe_<n>), their caps/ files (what the hardware
 * can do: caps/mtc, caps/psb_cyc, caps/tsc_art_ratio, ...), and Intel PT's
 * default terms (perf's intel_pt_pmu_default_config()).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"
#include "event/parse-internal.h"

static const struct {
	const char *prefix;
	bool exact;
	int kind;
	const char *title;
} aux_pmus[] = {
	{ "intel_pt", true, PULSE_AUX_PMU_INTEL_PT, "Intel PT" },
	{ "intel_bts", true, PULSE_AUX_PMU_INTEL_BTS, "Intel BTS" },
	{ "cs_etm", true, PULSE_AUX_PMU_CS_ETM, "CoreSight ETM" },
	{ "arm_spe", false, PULSE_AUX_PMU_ARM_SPE, "ARM SPE" },
};

int pulse_aux_pmu__kind(const char *pmu_name)
{
	if (!pmu_name)
		return PULSE_AUX_PMU_NONE;
	for (size_t i = 0; i < ARRAY_SIZE(aux_pmus); i++) {
		size_t n = strlen(aux_pmus[i].prefix);

		if (strncmp(pmu_name, aux_pmus[i].prefix, n))
			continue;
		/* arm_spe and arm_spe_0, arm_spe_1, ... */
		if (!pmu_name[n] || (!aux_pmus[i].exact && pmu_name[n] == '_' &&
				     isdigit((unsigned char)pmu_name[n + 1])))
			return aux_pmus[i].kind;
	}
	return PULSE_AUX_PMU_NONE;
}

const char *pulse_aux_pmu__title(int kind)
{
	for (size_t i = 0; i < ARRAY_SIZE(aux_pmus); i++)
		if (aux_pmus[i].kind == kind)
			return aux_pmus[i].title;
	return NULL;
}

bool pulse_evsel__is_aux(const struct pulse_evsel *evsel)
{
	return pulse_aux_pmu__kind(evsel->pmu_name) != PULSE_AUX_PMU_NONE;
}

int pulse_aux_pmu__read_u64(const struct pulse_parse_opts *opts, const char *pmu, const char *file,
			    int base, __u64 *val)
{
	char path[4096], buf[64], *end;
	ssize_t n;
	int fd;

	*val = 0;
	if (strchr(pmu, '/') || strstr(file, ".."))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/%s", pulse_sysfs_dir(opts),
		 pmu, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	*val = strtoull(buf, &end, base);
	return end == buf ? -EINVAL : 0;
}

int pulse_aux_pmu__cap(const struct pulse_parse_opts *opts, const char *pmu, const char *cap,
		       __u64 *val)
{
	char file[128];

	*val = 0;
	if (strchr(cap, '/'))
		return -EINVAL;
	/* caps are hex ("3fff", "249") except tsc_art_ratio ("2:200"), read with its own */
	snprintf(file, sizeof(file), "caps/%s", cap);
	return pulse_aux_pmu__read_u64(opts, pmu, file, 16, val);
}

int pulse_aux_pmu__format_bits(const struct pulse_parse_opts *opts, const char *pmu,
			       const char *term, __u64 *mask)
{
	char path[4096], buf[128], *p;
	ssize_t n;
	int fd;

	*mask = 0;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/format/%s",
		 pulse_sysfs_dir(opts), pmu, term);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EINVAL;
	buf[n] = '\0';
	/* perf's perf_pmu__format_bits(): the bits of "config:" only */
	if (strncmp(buf, "config:", 7))
		return 0;
	p = buf + 7;
	for (;;) {
		unsigned int lo, hi;
		char *end;

		lo = hi = strtoul(p, &end, 10);
		if (end == p)
			return -EINVAL;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		for (unsigned int b = lo; b <= hi && b < 64; b++)
			*mask |= 1ULL << b;
		if (*end != ',')
			break;
		p = end + 1;
	}
	return 0;
}

int pulse_aux_pmu__tsc_art_ratio(const struct pulse_parse_opts *opts, __u32 *n, __u32 *d)
{
	char path[4096], buf[64];
	unsigned int a, b;
	ssize_t len;
	int fd;

	*n = *d = 0;
	snprintf(path, sizeof(path), "%s/bus/event_source/devices/intel_pt/caps/tsc_art_ratio",
		 pulse_sysfs_dir(opts));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -EINVAL;
	buf[len] = '\0';
	if (sscanf(buf, "%u:%u", &a, &b) != 2)
		return -EINVAL;
	*n = a;
	*d = b;
	return 0;
}

/* perf's intel_pt_pick_bit(): the highest set bit of @bits at or below @target */
static int pick_bit(__u64 bits, int target)
{
	int pick = -1;

	for (int pos = 0; pos < 32; pos++) {
		if (!(bits & (1ULL << pos)))
			continue;
		if (pos > target)
			break;
		pick = pos;
	}
	return pick;
}

static bool has_format(const struct pulse_parse_opts *opts, const char *pmu, const char *term)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/format/%s",
		 pulse_sysfs_dir(opts), pmu, term);
	return access(path, R_OK) == 0;
}

/*
 * perf's intel_pt_default_config(): "tsc", then "mtc,mtc_period=N" when
 * caps/mtc (assumed when absent) and caps/mtc_periods offer a period (the
 * highest at or below 3), "psb_period=N" likewise from caps/psb_periods
 * when caps/psb_cyc, then "pt,branch" when the PMU has those terms.
 */
int pulse_aux_pmu__default_config(const struct pulse_parse_opts *opts, const char *pmu,
				  char *buf, size_t size)
{
	__u64 mtc = 1, psb_cyc = 1, psb_periods = 0, mtc_periods = 0;
	size_t pos = 0;

	if (!size)
		return -ENOSPC;
	buf[0] = '\0';
	if (pulse_aux_pmu__kind(pmu) != PULSE_AUX_PMU_INTEL_PT)
		return 0;
	pos += snprintf(buf + pos, size - pos, "tsc");
	if (pulse_aux_pmu__cap(opts, pmu, "mtc", &mtc))
		mtc = 1;
	if (mtc && !pulse_aux_pmu__cap(opts, pmu, "mtc_periods", &mtc_periods) && mtc_periods)
		pos += snprintf(buf + pos, size - pos, ",mtc,mtc_period=%d", pick_bit(mtc_periods, 3));
	if (pulse_aux_pmu__cap(opts, pmu, "psb_cyc", &psb_cyc))
		psb_cyc = 1;
	if (psb_cyc && mtc_periods &&
	    !pulse_aux_pmu__cap(opts, pmu, "psb_periods", &psb_periods) && psb_periods)
		pos += snprintf(buf + pos, size - pos, ",psb_period=%d", pick_bit(psb_periods, 3));
	if (has_format(opts, pmu, "pt") && has_format(opts, pmu, "branch"))
		pos += snprintf(buf + pos, size - pos, ",pt,branch");
	return pos >= size ? -ENOSPC : 0;
}
