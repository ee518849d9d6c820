// SPDX-License-Identifier: GPL-2.0
/*
 * The commands that read a recording build their tables in many small
 * allocations; on the virtual machines pulse is measured on, the first
 * touch of each fresh 4 KiB page costs some 10 us (a trap to the
 * hypervisor), and a report of a 540 MB --call-graph dwarf file touched
 * 12,600 of them, a fifth of its time. glibc puts its heap in 2 MiB pages
 * when asked at startup (the glibc.malloc.hugetlb tunable: madvise
 * MADV_HUGEPAGE on what it maps), which only the environment can ask: such
 * a command runs itself again with it, once, where transparent huge pages
 * are on madvise (on "always" the kernel does it unasked; on "never" it
 * cannot). The user's environment is put back before anything else runs,
 * so that nothing started from pulse inherits the tunable.
 * PULSE_HUGEPAGES=0 turns it off.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "builtin.h"

#define TUNABLE "glibc.malloc.hugetlb=1"
/* set for the second run: "-" the user had no GLIBC_TUNABLES, "=VALUE" its value */
#define MARK "PULSE_HUGEPAGES_REEXEC"
/* and the first run's name: exec'ing /proc/self/exe would name the process "exe" */
#define COMM "PULSE_HUGEPAGES_COMM"

/* sanitizer builds bring their own malloc: the tunable does nothing there */
extern void __asan_init(void) __attribute__((weak));

static bool thp_on_madvise(void)
{
	char buf[128] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "[madvise]") != NULL;
}

static void restore(const char *mark)
{
	const char *comm = getenv(COMM);

	if (comm)
		prctl(PR_SET_NAME, comm, 0, 0, 0);
	if (mark[0] == '=')
		setenv("GLIBC_TUNABLES", mark + 1, 1);
	else
		unsetenv("GLIBC_TUNABLES");
	unsetenv(MARK);
	unsetenv(COMM);
}

void malloc_hugepages(const char **argv)
{
	const char *mark = getenv(MARK), *old = getenv("GLIBC_TUNABLES");
	const char *off = getenv("PULSE_HUGEPAGES"), *preload = getenv("LD_PRELOAD");
	char *val, *saved, comm[17] = "";

	if (mark) {
		restore(mark);
		return;
	}
	if ((off && !strcmp(off, "0")) || (old && strstr(old, "glibc.malloc.hugetlb")) ||
	    __asan_init || (preload && strstr(preload, "vgpreload")) || !thp_on_madvise())
		return;
	if (old) {
		if (asprintf(&val, "%s:%s", old, TUNABLE) < 0)
			return;
		if (asprintf(&saved, "=%s", old) < 0) {
			free(val);
			return;
		}
	} else {
		val = strdup(TUNABLE);
		saved = strdup("-");
		if (!val || !saved) {
			free(val);
			free(saved);
			return;
		}
	}
	if (prctl(PR_GET_NAME, comm, 0, 0, 0) || setenv(COMM, comm, 1))
		unsetenv(COMM);
	if (!setenv("GLIBC_TUNABLES", val, 1) && !setenv(MARK, saved, 1))
		execv("/proc/self/exe", (char *const *)argv);
	/* no /proc, or no exec: on as we are */
	restore(saved);
	free(val);
	free(saved);
}
