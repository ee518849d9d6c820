// SPDX-License-Identifier: GPL-2.0
/*
 * dwarf-rec [MS]: main -> dwarf_rec_mid -> dwarf_rec_leaf_a / _leaf_b, the
 * last three in libdwarf-rec.so, all built with -fomit-frame-pointer (see
 * build.sh): a --call-graph dwarf recording must carry enough registers
 * and stack for an unwinder to find the whole chain. Runs MS ms (300).
 */
#include <stdlib.h>
#include <time.h>
#include "dwarf-rec.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	double end = now_ms() + ms;

	do
		dwarf_rec_mid(100000);
	while (now_ms() < end);
	return dwarf_rec_sink == 42;	/* keep the loop's result alive */
}
