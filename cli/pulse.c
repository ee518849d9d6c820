// SPDX-License-Identifier: GPL-2.0
/*
 * pulse: the command table and dispatcher. Commands live in cmd-*.c; a
 * command whose file is not linked in is reported as unavailable, which
 * keeps the table in one place while commands are added.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/core.h>
#include "builtin.h"

int cmd_record(int argc, const char **argv) __attribute__((weak));
int cmd_report(int argc, const char **argv) __attribute__((weak));
int cmd_script(int argc, const char **argv) __attribute__((weak));
int cmd_list(int argc, const char **argv) __attribute__((weak));
static int cmd_version(int argc, const char **argv);
static int cmd_help(int argc, const char **argv);

struct cmd_struct {
	const char *name;
	int (*fn)(int, const char **);
	const char *help;
};

static struct cmd_struct commands[] = {
	{ "record", cmd_record, "Run a command and record its profile into perf.data" },
	{ "report", cmd_report, "Read perf.data and display the profile" },
	{ "script", cmd_script, "Read perf.data and display the trace output" },
	{ "list", cmd_list, "List the events of this machine" },
	{ "version", cmd_version, "Display the version of pulse" },
	{ "help", cmd_help, "Display this help" },
};

static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(stderr, "%s%s\n", prefix, buf);
}

void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("error: ", fmt, ap);
	va_end(ap);
}

void hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("hint: ", fmt, ap);
	va_end(ap);
}

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

static int lib_print(enum pulse_print_level level, const char *fmt, va_list ap)
{
	static int verbose = -1;

	if (verbose < 0)
		verbose = getenv("PULSE_DEBUG") ? 2 : 0;
	if (level == PULSE_WARN) {
		fputs("warning: ", stderr);
		return vfprintf(stderr, fmt, ap);
	}
	if ((int)level <= verbose)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static int cmd_version(int argc, const char **argv)
{
	printf("pulse version %s\n", PULSE_VERSION);
	return 0;
}

static int cmd_help(int argc, const char **argv)
{
	printf("usage: pulse <command> [<args>]\n\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].fn)
			printf("   %-10s %s\n", commands[i].name, commands[i].help);
	return 0;
}

int main(int argc, const char **argv)
{
	const char *cmd;
	int ret;

	pulse_set_print(lib_print);
	if (argc < 2) {
		cmd_help(0, NULL);
		return PULSE_EXIT_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v"))
		cmd = "version";
	if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h"))
		cmd = "help";
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(commands[i].name, cmd))
			continue;
		if (!commands[i].fn) {
			error("'%s' is not available in this build", cmd);
			return 1;
		}
		ret = commands[i].fn(argc - 1, argv + 1);
		/* A failed write of the output fails the command (perf run_builtin). */
		if (fflush(stdout) || ferror(stdout)) {
			error("write failure on standard output: %s", strerror(errno));
			return 1;
		}
		return ret;
	}
	error("'%s' is not a pulse command; see 'pulse help'", cmd);
	return PULSE_EXIT_USAGE;
}
