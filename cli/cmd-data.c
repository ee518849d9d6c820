// SPDX-License-Identifier: GPL-2.0
/*
 * pulse data: perf 6.1's `perf data` and its one subcommand, convert.
 * --to-json writes perf's JSON (lib/convert/json.c); --to-pprof is built
 * elsewhere (data_convert_pprof(), weak); --to-ctf is perf's alone.
 *
 * Where perf creates the output before it opens the input (and so leaves
 * an empty file behind when the input is missing or empty), pulse opens
 * the input first and writes through output_file (a temporary file
 * renamed at the end): a file that exists after pulse returns is a whole
 * conversion, and a device or FIFO is written in place, never replaced.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pulse/convert.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "builtin.h"
#include "parse-options.h"

/* big enough that one write(2) carries many samples */
#define OUT_BUF_SIZE (1 << 20)

static const char *const data_usage[] = {
	"pulse data convert [<options>]",
	NULL,
};

struct convert_args {
	const char *input;
	const char *to_json;
	const char *to_ctf;
	const char *to_pprof;
	bool force;
	bool verbose;
	bool all;
	bool tod;
};

/* perf lists them sorted: short options first, then long ones by name */
#define CONVERT_OPTIONS(a)                                                              \
	OPT_BOOLEAN('f', "force", &(a)->force, "don't complain, do it"),                \
	OPT_STRING('i', "input", &(a)->input, "file", "input file name"),               \
	OPT_BOOLEAN('v', "verbose", &(a)->verbose, "be more verbose"),                  \
	OPT_BOOLEAN(0, "all", &(a)->all, "Convert all events"),                         \
	OPT_STRING(0, "to-ctf", &(a)->to_ctf, "file", "Convert to CTF format"),         \
	OPT_STRING(0, "to-json", &(a)->to_json, "file", "Convert to JSON format"),      \
	OPT_STRING(0, "to-pprof", &(a)->to_pprof, "file",                               \
		   "Convert to pprof format (gzipped profile.proto)"),                  \
	OPT_BOOLEAN(0, "tod", &(a)->tod, "Convert time to wall clock time"),            \
	OPT_END()

/* exactly one output format, and the options it takes; 0 or the exit status */
static int check_args(const struct convert_args *a)
{
	int nr = !!a->to_json + !!a->to_ctf + !!a->to_pprof;

	if (nr > 1) {
		error("you cannot specify more than one of --to-json, --to-ctf and --to-pprof");
		return PULSE_EXIT_USAGE;
	}
	if (!nr) {
		error("you must specify one of --to-json, --to-ctf or --to-pprof");
		return PULSE_EXIT_USAGE;
	}
	if (a->to_ctf) {
		/* perf without libbabeltrace refuses the option the same way */
		error("pulse has no CTF output (--to-ctf)");
		hint("'perf data convert --to-ctf DIR' reads pulse's perf.data files");
		return PULSE_EXIT_USAGE;
	}
	/* perf's JSON writer refuses these two: so does pulse's */
	if (a->to_json && (a->all || a->tod)) {
		error("%s is not supported for JSON output", a->all ? "--all" : "--tod");
		return PULSE_EXIT_USAGE;
	}
	return 0;
}

/* the input open, or the exit status after its error line */
static int open_input(struct pulse_session **s, const char *input, bool force)
{
	int err;

	if (data_check_owner(input, force))
		return 1;
	err = pulse_session__new(s, input, NULL);
	if (err == -ENODATA) {
		/* perf fails here too ("zero-sized data ..., nothing to do!") */
		error("'%s' is a zero-sized file: nothing to convert", input);
		return 1;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	return 0;
}

static bool output_exists(const char *path)
{
	struct stat st;

	return !lstat(path, &st);
}

static bool input_mtime(struct pulse_session *s, const char *input, time_t *mtime)
{
	char path[4096];
	struct stat st;

	if (pulse_data__is_pipe(pulse_session__data(s)) || stat(input, &st))
		return false;
	if (S_ISDIR(st.st_mode)) {
		snprintf(path, sizeof(path), "%s/data", input);
		if (stat(path, &st))
			return false;
	}
	*mtime = st.st_mtime;
	return S_ISREG(st.st_mode);
}

static int convert_json(const struct convert_args *a, const char *input)
{
	static char outbuf[OUT_BUF_SIZE];
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts) };
	struct pulse_json_opts jo = { .sz = sizeof(jo) };
	struct pulse_session *s = NULL;
	struct output_file of;
	uint64_t nr = 0;
	long bytes;
	int err, ret;

	/* perf looks at the output first: its complaint comes before the input's */
	if (!a->force && output_exists(a->to_json)) {
		error("output file '%s' exists", a->to_json);
		hint("use --force to overwrite it");
		return 1;
	}
	ret = open_input(&s, input, a->force);
	if (ret)
		return ret;
	err = pulse_session__init_machine(s, &sym_opts);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		goto out_session;
	}
	/*
	 * "captured-on" is the input's mtime, as perf's fstat() of the file it
	 * reads the header from (a directory's DIR/data); a pipe's is not
	 */
	jo.has_mtime = input_mtime(s, input, &jo.mtime);
	/* perf's O_EXCL without --force; a failure leaves no partial file */
	ret = output_file__open(&of, a->to_json, a->force ? 0 : OUTPUT_EXCL);
	if (ret)
		goto out_session;
	setvbuf(of.fp, outbuf, _IOFBF, sizeof(outbuf));
	err = pulse_convert_json(s, of.fp, &jo, &nr);
	bytes = ftell(of.fp);	/* -1 on a FIFO */
	if (bytes < 0)
		bytes = 0;
	if (err && err != -EIO) {
		data_error("read", input, err);
		output_file__abort(&of);
		goto out_session;
	}
	if (output_file__close(&of, err)) {
		err = -EIO;
		goto out_session;
	}
	data_warn_damage(pulse_session__data(s));
	data_warn_unordered(pulse_session__nr_unordered(s));
	fprintf(stderr, "[ pulse data convert: Converted '%s' into JSON data '%s' ]\n", input,
		a->to_json);
	fprintf(stderr, "[ pulse data convert: Converted and wrote %.3f MB (%llu samples) ]\n",
		bytes / 1024.0 / 1024.0, (unsigned long long)nr);
	ret = 0;
out_session:
	pulse_session__delete(s);
	return ret ? ret : err ? 1 : 0;
}

static int cmd_data_convert(int argc, const char **argv)
{
	struct convert_args a = { 0 };
	const struct option options[] = { CONVERT_OPTIONS(&a) };
	const char *input;
	int ret;

	argc = parse_options(argc - 1, argv + 1, options, 0);
	if (argc != 0) {
		/* perf answers a stray argument with the usage alone */
		usage_with_options(data_usage, options);
		return PULSE_EXIT_USAGE;
	}
	ret = check_args(&a);
	if (ret)
		return ret;
	/* -v: the library's debug lines too (read by the print callback at its first use) */
	if (a.verbose)
		setenv("PULSE_DEBUG", "1", 0);
	input = a.input ? a.input : default_input();
	if (a.to_pprof) {
		if (!data_convert_pprof) {
			error("this build of pulse has no pprof output (--to-pprof)");
			return 1;
		}
		return data_convert_pprof(input, a.to_pprof, a.force);
	}
	return convert_json(&a, input);
}

int cmd_data(int argc, const char **argv)
{
	struct convert_args a = { 0 };
	/* perf's `perf data` shows convert's options as its own */
	const struct option options[] = { CONVERT_OPTIONS(&a) };
	const struct option none[] = { OPT_END() };
	const char **rest = argv + 1;

	/* what is left moves to the front of @rest: the subcommand first */
	argc = parse_options(argc - 1, rest, none, PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc > 0 && !strcmp(rest[0], "convert"))
		return cmd_data_convert(argc, rest);
	if (argc > 0)
		error("unknown subcommand '%s'", rest[0]);
	usage_with_options(data_usage, options);
	return PULSE_EXIT_USAGE;
}
