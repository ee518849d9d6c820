// SPDX-License-Identifier: GPL-2.0
/*
 * count-self: a program that counts itself with <pulse/counter.h>.
 *
 *   build/examples/count-self [EVENTS] [PAGES]
 *
 * Opens EVENTS (one event or one group, as `pulse record -e` takes it;
 * default "{task-clock,page-faults,context-switches}") on the calling
 * thread, faults in PAGES fresh pages (default 1000) and sleeps briefly
 * ten times, then prints each member as read with the group's one read(2)
 * and as read alone (through the mmap page when the kernel allows it,
 * else read(2)):
 *
 *   page-faults 1002 enabled 1234567 running 1234567 scaled 1002 (group: read)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pulse/counter.h>

static const char *source_name(enum pulse_counter_source s)
{
	return s == PULSE_COUNTER_MMAP ? "mmap" : "read";
}

/* not instrumented, so that an ASan build faults in no shadow pages of its own */
__attribute__((no_sanitize_address)) static void work(int pages)
{
	long psz = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	if (p == MAP_FAILED)
		return;
	madvise(p, pages * psz, MADV_NOHUGEPAGE);
	for (int i = 0; i < pages; i++)
		p[i * psz] = 1;
	munmap(p, pages * psz);
	for (int i = 0; i < 10; i++)
		usleep(100);
}

int main(int argc, char **argv)
{
	const char *events = argc > 1 ? argv[1] : "{task-clock,page-faults,context-switches}";
	int pages = argc > 2 ? atoi(argv[2]) : 1000, nr, err;
	struct pulse_counter_value v[16], one;
	struct pulse_counter *c;

	err = pulse_counter__new(&c, events, NULL);
	if (err) {
		fprintf(stderr, "error: cannot open '%s': %s\n", events, strerror(-err));
		return 1;
	}
	pulse_counter__enable(c);
	work(pages);
	pulse_counter__disable(c);
	err = pulse_counter__read_group(c, v, 16, &nr);
	for (int i = 0; !err && i < nr; i++) {
		err = pulse_counter__read(c, i, &one);
		if (err)
			break;
		printf("%s %llu enabled %llu running %llu scaled %llu (group: %s, alone: %s %llu)\n",
		       pulse_counter__name(c, i), (unsigned long long)v[i].val,
		       (unsigned long long)v[i].ena, (unsigned long long)v[i].run,
		       (unsigned long long)v[i].scaled, source_name(v[i].source),
		       source_name(one.source), (unsigned long long)one.scaled);
	}
	pulse_counter__delete(c);
	if (err) {
		fprintf(stderr, "error: cannot read '%s': %s\n", events, strerror(-err));
		return 1;
	}
	return 0;
}
