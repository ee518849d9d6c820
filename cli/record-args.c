// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's option values, parsed as perf 6.1 parses them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>
#include "builtin.h"
#include "record.h"

/* "1,2,5-7" into an int array. */
int record_parse_list(const char *s, int **out, size_t *nr)
{
	int *v = NULL;
	size_t n = 0;
	char *end;

	while (*s) {
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		for (long i = a; i <= b; i++) {
			int *nv = realloc(v, (n + 1) * sizeof(int));

			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
			v[n++] = (int)i;
		}
		if (*s == ',')
			s++;
		else if (*s)
			goto bad;
	}
	*out = v;
	*nr = n;
	return n ? 0 : -1;
bad:
	free(v);
	return -1;
}

/*
 * perf's __evlist__parse_mmap_pages(): a size is aligned up to whole
 * pages; a count that is not a power of two (0 too) is rounded up to one,
 * with perf's line (unless -q).
 */
int record_parse_mmap_pages(const char *s, size_t *pages, bool quiet)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10), mult = 0;
	long page = sysconf(_SC_PAGESIZE);

	if (end == s || s[0] == '-')
		return -1;
	switch (*end) {
	case 0: break;
	case 'B': case 'b': mult = 1; break;
	case 'K': case 'k': mult = 1ULL << 10; break;
	case 'M': case 'm': mult = 1ULL << 20; break;
	case 'G': case 'g': mult = 1ULL << 30; break;
	default: return -1;
	}
	if (mult) {
		if (end[1] || v > (1ULL << 40))
			return -1;
		v = (v * mult + page - 1) / page;
	}
	if (v > (1ULL << 30))
		return -1;
	if (!v || (v & (v - 1))) {
		unsigned long long n = 1, size;
		int unit = 0;

		while (n < v)
			n <<= 1;
		v = n;
		/* perf's unit_number__scnprintf(): 1024K, 2M */
		size = v * page;
		while (size / 1024 > 1 && unit < 3) {
			size /= 1024;
			unit++;
		}
		if (!quiet)
			fprintf(stderr, "rounding mmap pages size to %llu%c (%llu pages)\n", size,
				"BKMG"[unit], v);
	}
	*pages = v;
	return 0;
}

/* --max-size: a size with its unit (B, K, M, G), as perf; 0 or -1 */
int record_parse_size(const char *s, __u64 *size)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10), mult;

	if (end == s || s[0] == '-' || !*end || end[1])
		return -1;
	switch (*end) {
	case 'B': mult = 1; break;
	case 'K': mult = 1ULL << 10; break;
	case 'M': mult = 1ULL << 20; break;
	case 'G': mult = 1ULL << 30; break;
	default: return -1;
	}
	*size = v * mult;
	return 0;
}

/*
 * perf's parse_clockid(): a number, or a name with or without "CLOCK_",
 * any case. Return 0, or -1 after perf's message as the error: line.
 */
int record_parse_clockid(const char *str, int *clockid)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "boottime", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI }, { "mono", CLOCK_MONOTONIC },
		{ "raw", CLOCK_MONOTONIC_RAW }, { "real", CLOCK_REALTIME },
		{ "boot", CLOCK_BOOTTIME },
	};
	const char *name = str;
	struct timespec res;

	if (sscanf(str, "%d", clockid) == 1)
		goto check;
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		if (!strcasecmp(name, clocks[i].name)) {
			*clockid = clocks[i].id;
			goto check;
		}
	}
	error("unknown clockid %s, check man page", str);
	return -1;
check:
	if (clock_getres(*clockid, &res)) {
		error("clockid %s: %s", str, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * perf's record_opts__config_freq(): -F max (an info line), -F above
 * kernel.perf_event_max_sample_rate (throttled to it with perf's warning,
 * or perf's error with --strict-freq), the default 4000 Hz lowered to a
 * smaller limit. Return: 0, or the exit status after an error: line.
 */
int record_config_freq(const char *str, bool strict, bool quiet, __u64 *freq)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned long long max_rate = 0, v;
	char *end;

	if (f) {
		if (fscanf(f, "%llu", &max_rate) != 1)
			max_rate = 0;
		fclose(f);
	}
	if (!str) {
		if (max_rate && max_rate < 4000) {
			if (!quiet)
				fprintf(stderr, "Lowering default frequency rate from %u to %llu.\n"
					"Please consider tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
					4000, max_rate);
			*freq = max_rate;
		}
		return 0;
	}
	if (!strcasecmp(str, "max")) {
		if (!max_rate) {
			error("couldn't read /proc/sys/kernel/perf_event_max_sample_rate");
			return 1;
		}
		if (!quiet)
			fprintf(stderr, "info: Using a maximum frequency rate of %llu Hz\n", max_rate);
		*freq = max_rate;
		return 0;
	}
	v = strtoull(str, &end, 0);
	if (end == str || *end || !v || str[0] == '-') {
		error("invalid frequency '%s'", str);
		return PULSE_EXIT_USAGE;
	}
	if (max_rate && v > max_rate) {
		if (strict) {
			/* perf's error, its advice as the hint: line */
			error("Maximum frequency rate (%llu Hz) exceeded.", max_rate);
			hint("use -F with a lower value or raise /proc/sys/kernel/perf_event_max_sample_rate");
			return PULSE_EXIT_USAGE;
		}
		if (!quiet)
			fprintf(stderr,
				"warning: Maximum frequency rate (%llu Hz) exceeded, throttling from %llu Hz to %llu Hz.\n"
				"         The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
				"         The kernel will lower it when perf's interrupts take too long.\n"
				"         Use --strict-freq to disable this throttling, refusing to record.\n",
				max_rate, v, max_rate);
		v = max_rate;
	}
	*freq = v;
	return 0;
}

/*
 * perf's parse_filter() and exclude_perf(): the filter (NULL: --exclude-perf's
 * "common_pid != <our pid>") goes on every event of the last -e, from
 * evlist->entries[first], which must be tracepoints (pulse sets no address
 * filters, perf's answer for events without them). Return: 0, or the exit
 * status after perf's message as the error: line.
 */
int record_add_filter(struct pulse_evlist *evlist, int first, const char *filter)
{
	const char *follow = filter ?
		"--filter option should follow a -e tracepoint or HW tracer option" :
		"--exclude-perf option should follow a -e tracepoint option";
	char pid_filter[64];

	if (!evlist->nr) {
		error("%s", follow);
		return PULSE_EXIT_USAGE;
	}
	snprintf(pid_filter, sizeof(pid_filter), "common_pid != %d", (int)getpid());
	for (int i = evlist->nr - 1; i >= first; i--) {
		struct pulse_evsel *evsel = evlist->entries[i];

		if (evsel->attr.type != PERF_TYPE_TRACEPOINT) {
			error("%s", filter ? "This CPU does not support address filtering" : follow);
			return PULSE_EXIT_USAGE;
		}
		if (pulse_evsel__append_filter(evsel, filter ? filter : pid_filter)) {
			error("not enough memory to hold filter string");
			return 1;
		}
	}
	return 0;
}

/*
 * perf 6.1's x86_64 sample_reg_masks[], in perf_event_x86_regs order (the
 * bit is the index): DS, ES, FS and GS are not sampled, as perf's
 * PERF_REGS_MASK.
 */
static const char *const x86_64_regs[] = {
	"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
	NULL, NULL, NULL, NULL,
	"R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
};
#define NR_REGS (sizeof(x86_64_regs) / sizeof(x86_64_regs[0]))

/*
 * perf's __parse_regs() for --user-regs (@intr false) and -I: a comma list
 * of register names, any case, into *@mask (given once); no list: every register;
 * "?" lists them (exit 129, as perf). Return: 0 or the exit status after
 * the message.
 */
int record_parse_regs(const char *str, bool intr, __u64 *mask)
{
	char *s, *tok, *save = NULL;
	int ret = 0;

	/* perf refuses a second one (exit 129) */
	if (*mask) {
		error("%s given twice", intr ? "-I" : "--user-regs");
		return PULSE_EXIT_USAGE;
	}
	if (!str) {
		for (size_t r = 0; r < NR_REGS; r++)
			if (x86_64_regs[r])
				*mask |= 1ULL << r;
		return 0;
	}
	s = strdup(str);
	if (!s)
		return 1;
	for (tok = strtok_r(s, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save)) {
		size_t r;

		if (!strcmp(tok, "?")) {
			fprintf(stderr, "available registers: ");
			for (r = 0; r < NR_REGS; r++)
				if (x86_64_regs[r])
					fprintf(stderr, "%s ", x86_64_regs[r]);
			fputc('\n', stderr);
			ret = PULSE_EXIT_USAGE;
			break;
		}
		for (r = 0; r < NR_REGS; r++)
			if (x86_64_regs[r] && !strcasecmp(tok, x86_64_regs[r]))
				break;
		if (r == NR_REGS) {
			error("unknown register \"%s\", check man page or run \"pulse record %s?\"",
			      tok, intr ? "-I" : "--user-regs=");
			ret = PULSE_EXIT_USAGE;
			break;
		}
		*mask |= 1ULL << r;
	}
	free(s);
	return ret;
}

/*
 * -z / --compression-level[=n] as perf 6.1 reads it: strtol(n, NULL, 0)
 * into an unsigned int, nothing refused; no number keeps the level given
 * before; 0 (also "" or "abc") is perf's default level 1; above 22 (also
 * -1) is 22.
 */
int record_parse_comp_level(const char *s, int current)
{
	unsigned int level = s ? (unsigned int)strtol(s, NULL, 0) : (unsigned int)current;

	if (!level)
		level = 1;
	return level > 22 ? 22 : (int)level;
}

/*
 * --mmap-flush as perf 6.1's record__mmap_flush_parse(): a number with a
 * B, K, M or G suffix (upper case only), else strtol(s, NULL, 0), into an
 * int; nothing is refused and 0 is 1. The caller caps it at a quarter of
 * the ring's mapping.
 */
int record_parse_mmap_flush(const char *s)
{
	static const struct { char tag; unsigned long mult; } tags[] = {
		{ 'B', 1 }, { 'K', 1UL << 10 }, { 'M', 1UL << 20 }, { 'G', 1UL << 30 },
	};
	int v = -1;

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		const char *t = strchr(s, tags[i].tag);
		char *end;
		unsigned long n;

		if (!t)
			continue;
		n = strtoul(s, &end, 10);
		if (end == t && n <= (unsigned long)-1 / tags[i].mult)
			v = (int)(n * tags[i].mult);
		break;
	}
	if (v == -1)
		v = (int)strtol(s, NULL, 0);
	return v ? v : 1;
}

/*
 * -D: milliseconds, -1 (never), or perf's windows "START-END,..." (ms,
 * each after the one before): 0, or -1 after the error: line
 */
int record_parse_delay(const char *arg, int *delay_ms, struct pulse_record_window **windows,
		       size_t *nr)
{
	struct pulse_record_window *w = NULL;
	const char *p = arg;
	char *end;
	long v;

	*windows = NULL;
	*nr = 0;
	if (!strchr(arg + 1, '-')) {
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < -1 || v > 3600 * 1000)
			goto bad;
		*delay_ms = (int)v;
		return 0;
	}
	for (;;) {
		unsigned long a, b;
		struct pulse_record_window *n;

		if (*p < '0' || *p > '9')
			goto bad;
		a = strtoul(p, &end, 10);
		if (*end != '-' || end[1] < '0' || end[1] > '9')
			goto bad;
		b = strtoul(end + 1, &end, 10);
		if (a >= b || b > 3600 * 1000 || (*nr && a <= w[*nr - 1].end))
			goto bad;
		n = realloc(w, (*nr + 1) * sizeof(*w));
		if (!n)
			goto bad;
		w = n;
		w[*nr].start = a;
		w[(*nr)++].end = b;
		if (!*end)
			break;
		if (*end != ',')
			goto bad;
		p = end + 1;
	}
	*windows = w;
	*delay_ms = (int)w[0].start;
	return 0;
bad:
	free(w);
	*nr = 0;
	error("invalid -D '%s': give milliseconds, -1, or windows such as 10-20,30-40", arg);
	return -1;
}

/* -o: '-' is stdout (a pipe); a file that exists and is not empty becomes <name>.old, as perf */
int record_open_output(const char *name, bool *pipe_mode)
{
	struct stat st;
	int fd;

	if (!strcmp(name, "-")) {
		*pipe_mode = true;
		return STDOUT_FILENO;
	}
	*pipe_mode = false;
	if (!stat(name, &st) && st.st_size > 0) {
		char old[4096];

		snprintf(old, sizeof(old), "%s.old", name);
		if (rename(name, old))
			return -errno;
	}
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	return fd < 0 ? -errno : fd;
}

/*
 * Where the kernel's text range is kept per boot: /run/pulse as root, the
 * user's runtime directory otherwise (none: NULL, no cache)
 */
const char *record_kallsyms_cache(void)
{
	static char dir[64];

	if (!geteuid())
		return "/run/pulse";
	snprintf(dir, sizeof(dir), "/run/user/%u", (unsigned int)geteuid());
	if (access(dir, W_OK))
		return NULL;
	snprintf(dir, sizeof(dir), "/run/user/%u/pulse", (unsigned int)geteuid());
	return dir;
}
