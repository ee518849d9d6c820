// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's header block (perf_header__fprintf_info): the file header
 * lines, then each feature section present, by bit, as its row in lib/data's
 * feature table prints it (pulse_data__fprintf_feat()), then the missing
 * features by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/output-header.h>
#include <pulse/reader.h>

int pulse_header__fprintf_feat(FILE *fp, int feat, const void *p, size_t len,
			       struct pulse_header_env *env)
{
	return pulse_feat__fprintf(fp, feat, p, len, env);
}

int pulse_header__fprintf(FILE *fp, struct pulse_data *d, time_t mtime, bool full)
{
	struct pulse_header_env env = { .full = full };
	bool pipe = pulse_data__is_pipe(d);
	uint64_t off = pipe ? 0 : pulse_data__data_offset(d);
	uint64_t size = pipe ? 0 : pulse_data__data_size(d);
	char date[64];

	fputs("# ========\n", fp);
	if (!ctime_r(&mtime, date))
		snprintf(date, sizeof(date), "(unknown)\n");
	fprintf(fp, "# captured on    : %s", date);
	fputs("# header version : 1\n", fp);
	fprintf(fp, "# data offset    : %" PRIu64 "\n", off);
	fprintf(fp, "# data size      : %" PRIu64 "\n", size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", off + size);
	if (!pipe) {
		for (int f = 1; f <= PULSE_FEAT_LAST_KNOWN_BY_PERF61; f++)
			pulse_data__fprintf_feat(fp, d, f, &env);
		fputs("# missing features: ", fp);
		for (int f = 1; f <= PULSE_FEAT_LAST_KNOWN_BY_PERF61; f++)
			if (!pulse_data__has_feat(d, f))
				fprintf(fp, "%s ", pulse_feat__name(f));
		fputc('\n', fp);
	}
	fputs("# ========\n#\n", fp);
	return ferror(fp) ? -EIO : 0;
}
