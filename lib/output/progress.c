// SPDX-License-Identifier: GPL-2.0
/*
 * The progress bar of report and script on big files. It appears only after
 * a second (short runs stay silent), only on a terminal, and is erased at the
 * end so the output that follows is clean.
 */
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pulse/progress.h>

#define BAR_WIDTH 40

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void pulse_progress__init(struct pulse_progress *p, FILE *out, uint64_t total, const char *title)
{
	memset(p, 0, sizeof(*p));
	if (!out || !total || !isatty(fileno(out)))
		return;
	p->out = out;
	p->total = total;
	p->title = title;
	p->start_ns = now_ns();
	p->next_ns = p->start_ns + 1000000000ULL;
}

void pulse_progress__update(struct pulse_progress *p, uint64_t done)
{
	char bar[BAR_WIDTH + 1];
	uint64_t t;
	int fill;

	if (!p->out || ++p->calls < 4096)
		return;
	p->calls = 0;
	t = now_ns();
	if (t < p->next_ns)
		return;
	p->next_ns = t + 200000000ULL;
	if (done > p->total)
		done = p->total;
	fill = (int)(done * BAR_WIDTH / p->total);
	memset(bar, '#', fill);
	memset(bar + fill, ' ', BAR_WIDTH - fill);
	bar[BAR_WIDTH] = '\0';
	fprintf(p->out, "\r%s [%s] %3d%%", p->title, bar, (int)(done * 100 / p->total));
	fflush(p->out);
	p->shown = true;
}

void pulse_progress__finish(struct pulse_progress *p)
{
	if (!p->out || !p->shown)
		return;
	/* erase the line: the report follows on stdout, the terminal is shared */
	fprintf(p->out, "\r%*s\r", BAR_WIDTH + (int)strlen(p->title) + 8, "");
	fflush(p->out);
	p->shown = false;
}
