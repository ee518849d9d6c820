// SPDX-License-Identifier: GPL-2.0
/*
 * The "headers" object of perf 6.1's JSON (output_headers() in
 * tools/perf/util/data-convert-json.c): the file header's sections and
 * what the features say about the machine that recorded. Everything comes
 * from the file (perf's env), never from the machine converting it; an
 * absent feature prints as perf's zeroed env does: "" and 0.
 */
#include <string.h>
#include <time.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/reader.h>
#include "json-int.h"

/* a string feature's text: its u32 length, then the bytes (NUL-padded) */
static const char *feat_string(struct pulse_data *d, int feat, size_t *len)
{
	size_t sz;
	const char *p = pulse_data__feat(d, feat, &sz);
	uint32_t n;

	*len = 0;
	if (!p || sz < 4)
		return NULL;
	memcpy(&n, p, 4);
	/* a length past the payload is cut to it: never read beyond */
	*len = n < sz - 4 ? n : sz - 4;
	return p + 4;
}

static void key_feat_string(FILE *fp, struct pulse_data *d, const char *key, int feat)
{
	size_t len;
	const char *s = feat_string(d, feat, &len);

	json_key(fp, true, 2, key);
	json_strn(fp, s, len);
}

/* NRCPUS: u32 nr_cpus_avail, then u32 nr_cpus_online (perf's write_nrcpus()) */
static void nrcpus(struct pulse_data *d, uint32_t *avail, uint32_t *online)
{
	size_t sz;
	const char *p = pulse_data__feat(d, PULSE_FEAT_NRCPUS, &sz);

	*avail = *online = 0;
	if (!p || sz < 8)
		return;
	memcpy(avail, p, 4);
	memcpy(online, p + 4, 4);
}

/* CMDLINE: u32 nr, then nr strings, each a u32 length and its bytes */
static void cmdline(FILE *fp, struct pulse_data *d)
{
	size_t sz, off = 4;
	const char *p = pulse_data__feat(d, PULSE_FEAT_CMDLINE, &sz);
	uint32_t nr = 0, len;

	if (p && sz >= 4)
		memcpy(&nr, p, 4);
	for (uint32_t i = 0; i < nr && sz - off >= 4; i++) {
		memcpy(&len, p + off, 4);
		off += 4;
		if (len > sz - off)	/* damaged: perf would stop reading the feature */
			break;
		json_delim(fp, i != 0, 3);
		json_strn(fp, p + off, len);
		off += len;
	}
}

static void captured_on(FILE *fp, const struct pulse_json_opts *o)
{
	char buf[64];
	struct tm tm;

	if (!o || !o->has_mtime || !gmtime_r(&o->mtime, &tm))
		return;
	if (!strftime(buf, sizeof(buf), "%FT%TZ", &tm))
		return;
	json_key(fp, true, 2, "captured-on");
	json_str(fp, buf);
}

void json_headers(FILE *fp, struct pulse_data *d, const struct pulse_json_opts *o)
{
	bool pipe = pulse_data__is_pipe(d);
	/* perf reads no file header from a pipe: its sections stay 0 */
	uint64_t off = pipe ? 0 : pulse_data__data_offset(d);
	uint64_t size = pipe ? 0 : pulse_data__data_size(d);
	struct pulse_clock_data clk;
	uint32_t avail, online;

	/* perf's PERF_HEADER_VERSION_2 (PERFILE2) is 1: the only version pulse reads */
	json_key(fp, false, 2, "header-version");
	json_u64(fp, 1);
	captured_on(fp, o);
	json_key(fp, true, 2, "data-offset");
	json_u64(fp, off);
	json_key(fp, true, 2, "data-size");
	json_u64(fp, size);
	json_key(fp, true, 2, "feat-offset");
	json_u64(fp, pipe ? 0 : off + size);
	key_feat_string(fp, d, "hostname", PULSE_FEAT_HOSTNAME);
	key_feat_string(fp, d, "os-release", PULSE_FEAT_OSRELEASE);
	key_feat_string(fp, d, "arch", PULSE_FEAT_ARCH);
	key_feat_string(fp, d, "cpu-desc", PULSE_FEAT_CPUDESC);
	key_feat_string(fp, d, "cpuid", PULSE_FEAT_CPUID);
	nrcpus(d, &avail, &online);
	json_key(fp, true, 2, "nrcpus-online");
	json_u64(fp, online);
	json_key(fp, true, 2, "nrcpus-avail");
	json_u64(fp, avail);
	/* perf's env.clock.enabled: a CLOCK_DATA of version 1 */
	if (!pulse_data__clock_data(d, &clk)) {
		json_key(fp, true, 2, "clockid");
		json_u64(fp, clk.clockid);
		json_key(fp, true, 2, "clock-time");
		json_u64(fp, clk.clockid_ns);
		json_key(fp, true, 2, "real-time");
		json_u64(fp, clk.tod_ns);
	}
	key_feat_string(fp, d, "perf-version", PULSE_FEAT_VERSION);
	json_key(fp, true, 2, "cmdline");
	putc_unlocked('[', fp);
	cmdline(fp, d);
	json_delim(fp, false, 2);
	putc_unlocked(']', fp);
}
