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
int cmd_stat(int argc, const char **argv) __attribute__((weak));
int cmd_flamegraph(int argc, const char **argv) __attribute__((weak));
int cmd_diff(int argc, const char **argv) __attribute__((weak));
int cmd_data(int argc, const char **argv) __attribute__((weak));
static int cmd_version(int argc, const char **argv);
static int cmd_help(int argc, const char **argv);

#define USE_PAGER	1	/* prints much: paged when stdout is a terminal */
#define HAS_MANUAL	2	/* has a page pulse-<name>(1) in doc/ */
#define READS_DATA	4	/* reads a recording: its heap in huge pages (hugepages.c) */

struct cmd_struct {
	const char *name;
	int (*fn)(int, const char **);
	const char *help;
	int flags;
};

static struct cmd_struct commands[] = {
	{ "record", cmd_record, "Run a command and record its profile into perf.data",
	  HAS_MANUAL },
	{ "report", cmd_report, "Read perf.data and display the profile",
	  USE_PAGER | HAS_MANUAL | READS_DATA },
	{ "script", cmd_script, "Read perf.data and display the trace output",
	  USE_PAGER | HAS_MANUAL | READS_DATA },
	{ "stat", cmd_stat, "Run a command and count its events", HAS_MANUAL },
	{ "flamegraph", cmd_flamegraph, "Draw perf.data as an interactive flame graph (SVG)",
	  HAS_MANUAL | READS_DATA },
	{ "diff", cmd_diff, "Compare the profiles of two perf.data files",
	  USE_PAGER | HAS_MANUAL | READS_DATA },
	{ "data", cmd_data, "Convert perf.data to JSON or pprof", HAS_MANUAL | READS_DATA },
	{ "list", cmd_list, "List the events of this machine", USE_PAGER | HAS_MANUAL },
	{ "version", cmd_version, "Display the version of pulse" },
	{ "help", cmd_help, "Display this help, or a command's manual" },
};

static struct cmd_struct *find_command(const char *name)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* one error line, and a hint when perf has the command */
static int not_a_command(const char *cmd)
{
	char buf[128];

	error("'%s' is not a pulse command; see 'pulse help'", cmd);
	if (perf_command_hint(cmd, buf, sizeof(buf)))
		hint("%s", buf);
	return PULSE_EXIT_USAGE;
}

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

/* PULSE_DEBUG: the library's debug lines too; set in main() before any thread reads it */
static int lib_verbose;

static int lib_print(enum pulse_print_level level, const char *fmt, va_list ap)
{
	int ret;

	if (level == PULSE_WARN) {
		/* the prefix and the text as one: diff's walk threads warn at once */
		flockfile(stderr);
		fputs("warning: ", stderr);
		ret = vfprintf(stderr, fmt, ap);
		funlockfile(stderr);
		return ret;
	}
	if ((int)level <= lib_verbose)
		return vfprintf(stderr, fmt, ap);
	return 0;
}

static int cmd_version(int argc, const char **argv)
{
	printf("pulse version %s\n", PULSE_VERSION);
	return 0;
}

static void list_commands(void)
{
	printf("\n usage: pulse [--version] [--help] [--no-pager] <command> [<args>]\n\n");
	printf(" The pulse commands are:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (commands[i].fn)
			printf("   %-10s %s\n", commands[i].name, commands[i].help);
	printf("\n See 'pulse help <command>' for more information on a specific command.\n\n");
}

/* pulse help [<command>]: the list, or the command's manual (perf help) */
static int cmd_help(int argc, const char **argv)
{
	const struct cmd_struct *c;

	if (argc < 2) {
		setup_pager();
		list_commands();
		return 0;
	}
	if (!strcmp(argv[1], "pulse"))
		return show_man_page(NULL);
	c = find_command(argv[1]);
	if (!c)
		return not_a_command(argv[1]);
	/* version and help are in pulse(1) */
	return show_man_page(c->flags & HAS_MANUAL ? c->name : NULL);
}

static int run_command(const struct cmd_struct *c, int argc, const char **argv)
{
	int ret;

	/* a row whose file is not linked in is not a command of this build */
	if (!c->fn)
		return not_a_command(c->name);
	if (c->flags & USE_PAGER)
		setup_pager();
	ret = c->fn(argc, argv);
	/* A failed write of the output fails the command (perf run_builtin). */
	if (fflush(stdout) || ferror(stdout)) {
		error("write failure on standard output: %s", strerror(errno));
		ret = 1;
	}
	pager_finish();
	return ret;
}

int main(int argc, const char **argv)
{
	static const char *version_argv[] = { "version", NULL };
	const struct cmd_struct *c;
	const char **all = argv;
	const char *cmd;

	lib_verbose = getenv("PULSE_DEBUG") ? 2 : 0;
	pulse_set_print(lib_print);
	argv++;
	argc--;
	/* the options before the command (perf's handle_options) */
	for (; argc > 0 && argv[0][0] == '-'; argv++, argc--) {
		cmd = argv[0];
		if (!strcmp(cmd, "--no-pager")) {
			pager_disable();
		} else if (!strcmp(cmd, "--version") || !strcmp(cmd, "-v")) {
			return run_command(find_command("version"), 1, version_argv);
		} else if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
			argv[0] = "help";
			break;
		} else {
			error("unknown option '%s'", cmd);
			return PULSE_EXIT_USAGE;
		}
	}
	if (argc < 1) {
		list_commands();
		return PULSE_EXIT_USAGE;
	}
	cmd = argv[0];
	c = find_command(cmd);
	if (!c)
		return not_a_command(cmd);
	if (c->flags & READS_DATA)
		malloc_hugepages(all);
	/* pulse CMD --help is pulse help CMD (perf's handle_internal_command) */
	if (argc > 1 && !strcmp(argv[1], "--help") && strcmp(cmd, "help")) {
		argv[1] = cmd;
		argv[0] = "help";
		c = find_command("help");
	}
	return run_command(c, argc, argv);
}
