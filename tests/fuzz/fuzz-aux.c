// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the AUX-area dump: each input is (1) dumped as Intel
 * PT trace (pulse_pt_dump__fprintf()), whose lines must cover the input's
 * bytes exactly once, in order; and (2) opened as an in-memory perf.data
 * (file or pipe mode) whose every record goes through report -D's printer
 * (pulse_dump__record()): AUXTRACE_INFO of any size and type, AUXTRACE
 * records whose data runs past the input (dumped as Intel PT, BTS or ARM
 * SPE data by the AUXTRACE_INFO before them), AUX records. Output goes to a
 * memory stream, dropped. Built by `make fuzz`; run by tests/fuzz/run-fuzz.sh.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/core.h>
#include <pulse/dump.h>
#include <pulse/pt-dump.h>
#include <pulse/reader.h>

static int quiet(enum pulse_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

/* the bytes the packet lines show: each line ".  OFFSET:  HEX..." */
static void check_coverage(const char *text, size_t len)
{
	size_t next = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned long off;
		const char *h;
		int n = 0;

		if (strncmp(l, ".  ", 3) || sscanf(l + 3, "%8lx:", &off) != 1 || l[11] != ':')
			continue;
		if (off != next)
			abort();
		/* hex bytes: " xx" groups after ".  OFFSET: ", up to 16 */
		for (h = l + 13; n < 16 && h[0] == ' ' && h[1] != ' ' && h[1] != '\n'; h += 3)
			n++;
		if (!n)
			abort();
		next += n;
	}
	if (next != len)
		abort();
}

static FILE *out;

static int visit(struct pulse_data *d, const struct perf_event_header *rec, __u64 off, void *arg)
{
	struct pulse_dump *dump = arg;

	pulse_dump__count(dump, rec->type);
	/* -EBADMSG: an AUXTRACE_INFO perf stops at; stop there too */
	return pulse_dump__record(out, d, rec, off, dump) == -EBADMSG ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pulse_dump dump;
	struct pulse_data *d;
	char *text = NULL;
	size_t tlen = 0;
	__u64 x;

	pulse_set_print(quiet);
	out = open_memstream(&text, &tlen);
	if (!out)
		return 0;
	if (pulse_pt_dump__fprintf(out, data, size))
		abort();
	fflush(out);
	check_coverage(text, size);
	rewind(out);

	if (!pulse_data__open_mem(&d, data, size)) {
		pulse_dump__init(&dump, "fuzz", NULL, NULL, NULL);
		pulse_data__for_each_record(d, visit, &dump);
		pulse_dump__fprintf_stats(out, d, &dump);
		pulse_dump__exit(&dump);
		pulse_data__close(d);
	} else {
		pulse_data__error(&x);
	}
	fclose(out);
	free(text);
	return 0;
}
