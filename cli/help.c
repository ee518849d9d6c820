// SPDX-License-Identifier: GPL-2.0
/*
 * The manual pages: `pulse help CMD` and `pulse CMD --help` show
 * pulse-CMD(1), as perf's help does. The page is looked for next to the
 * binary, installed (<bin>/../share/man/man1) or in the source tree
 * (build/../doc), and shown with `man -l`; without such a file, `man
 * pulse-CMD` searches the system's manual. When man is missing or fails,
 * the page is rendered here as plain text through the pager: the roff of
 * doc/ uses a handful of man(7) macros, and only those are understood.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "builtin.h"

static bool find_page(char *path, size_t sz, const char *page)
{
	static const char *const rel[] = { "../share/man/man1", "../doc" };
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return false;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return false;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		if (snprintf(path, sz, "%s/%s/%s.1", exe, rel[i], page) >= (int)sz)
			continue;
		if (!access(path, R_OK))
			return true;
	}
	return false;
}

/* man @a1 @a2; true when it ran and exited 0; @quiet: its errors unshown */
static bool run_man(const char *a1, const char *a2, bool quiet)
{
	int status;
	pid_t pid;

	if (!program_in_path("man"))
		return false;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return false;
	if (!pid) {
		if (quiet && !freopen("/dev/null", "w", stderr))
			_exit(127);
		execlp("man", "man", a1, a2, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

/* @s without roff escapes: \fB \fI \fR \fP \- \e \& \(em, quotes of macro args */
static void put_text(const char *s, FILE *out)
{
	for (; *s; s++) {
		if (*s != '\\') {
			fputc(*s, out);
			continue;
		}
		switch (s[1]) {
		case 'f':
			s += s[2] ? 2 : 1;
			break;
		case '(':
			if (!strncmp(s + 2, "em", 2))
				fputs("--", out);
			s += s[2] && s[3] ? 3 : 1;
			break;
		case '&':
			s++;
			break;
		case 'e':
			fputc('\\', out);
			s++;
			break;
		case '\0':
			break;
		default:
			fputc(s[1], out);
			s++;
		}
	}
}

/* the arguments of .B, .BR, .I ...: quotes dropped; alternating fonts join */
static void put_macro_args(const char *s, bool join, FILE *out)
{
	bool quoted = false, first = true;

	for (; *s; s++) {
		if (*s == '"') {
			quoted = !quoted;
			continue;
		}
		if (*s == ' ' && !quoted) {
			if (!join && !first)
				fputc(' ', out);
			while (s[1] == ' ')
				s++;
			continue;
		}
		first = false;
		if (*s == '\\' && s[1]) {
			char esc[3] = { s[0], s[1], 0 };

			if (s[1] == 'f' && s[2]) {
				s += 2;
				continue;
			}
			put_text(esc, out);
			s++;
			continue;
		}
		fputc(*s, out);
	}
}

static int render_page(const char *path, FILE *out)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int indent = 7, tag = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *arg;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] != '.') {
			fprintf(out, "%*s", tag ? 7 : indent, "");
			put_text(line, out);
			fputc('\n', out);
			tag = 0;
			continue;
		}
		arg = line + 1 + strcspn(line + 1, " ");
		arg += strspn(arg, " ");
		if (!strncmp(line, ".TH ", 4)) {
			fprintf(out, "%.*s(1)\n", (int)strcspn(arg, " "), arg);
		} else if (!strncmp(line, ".SH ", 4)) {
			fputc('\n', out);
			put_macro_args(arg, false, out);
			fputc('\n', out);
			indent = 7;
		} else if (!strncmp(line, ".SS ", 4)) {
			fputs("\n   ", out);
			put_macro_args(arg, false, out);
			fputc('\n', out);
		} else if (!strcmp(line, ".PP") || !strcmp(line, ".P") || !strcmp(line, ".LP")) {
			fputc('\n', out);
			indent = 7;
		} else if (!strcmp(line, ".TP")) {
			fputc('\n', out);
			indent = 14;
			tag = 1;
		} else if (!strcmp(line, ".RS")) {
			indent += 7;
		} else if (!strcmp(line, ".RE")) {
			indent = indent > 7 ? indent - 7 : 7;
		} else if (line[1] == 'B' || line[1] == 'I' || line[1] == 'R') {
			fprintf(out, "%*s", tag ? 7 : indent, "");
			put_macro_args(arg, line[2] && line[2] != ' ', out);
			fputc('\n', out);
			tag = 0;
		}
		/* other requests (.nf, .fi, .ad, comments) change nothing in plain text */
	}
	fclose(f);
	return 0;
}

int show_man_page(const char *cmd)
{
	char page[64], path[PATH_MAX];
	int err;

	if (cmd)
		snprintf(page, sizeof(page), "pulse-%s", cmd);
	else
		snprintf(page, sizeof(page), "pulse");
	if (find_page(path, sizeof(path), page)) {
		if (run_man("-l", path, false))
			return 0;
		setup_pager();
		err = render_page(path, stdout);
		if (err) {
			error("cannot read '%s': %s", path, strerror(-err));
			return 1;
		}
		return 0;
	}
	if (run_man(page, NULL, true))
		return 0;
	error("no manual page for '%s'", page);
	return 1;
}
