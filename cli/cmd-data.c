// SPDX-License-Identifier: GPL-2.0
/*
 * TEMPORARY: the least of `pulse data convert` that runs --to-pprof end to
 * end in the pprof branch; the real cmd-data.c (--to-json too) replaces it.
 */
#include <string.h>
#include "builtin.h"
#include "parse-options.h"

static const char *const data_usage[] = {
	"pulse data convert --to-pprof OUT [-i IN] [-f]",
	NULL,
};

int cmd_data(int argc, const char **argv)
{
	const char *input = NULL, *pprof = NULL;
	bool force = false;
	const struct option opts[] = {
		OPT_STRING('i', "input", &input, "file", "input file name"),
		OPT_STRING('\0', "to-pprof", &pprof, "file", "convert to pprof (gzipped profile.proto)"),
		OPT_BOOLEAN('f', "force", &force, "don't complain, do it"),
		OPT_END(),
	};

	if (argc < 2 || strcmp(argv[1], "convert")) {
		usage_with_options(data_usage, opts);
		return PULSE_EXIT_USAGE;
	}
	if (parse_options(argc - 2, argv + 2, opts, 0) != 0 || !pprof) {
		usage_with_options(data_usage, opts);
		return PULSE_EXIT_USAGE;
	}
	return data_convert_pprof(input, pprof, force);
}
