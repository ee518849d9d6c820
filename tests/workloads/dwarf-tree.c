/* dwarf-tree [MS]: main -> mid -> leaf_a / leaf_b, the leaves in a shared
 * library (libdwarf-tree.so, tests/workloads/dwarf-tree-lib/), burning CPU
 * for MS milliseconds (default 300); leaf_a does twice the work of leaf_b.
 * The Makefile builds it twice: dwarf-tree without frame pointers, whose
 * user stacks only DWARF unwinding recovers, and dwarf-tree-fp with them,
 * whose -g callchains give the same tree. */
#include <stdlib.h>
#include <time.h>

void leaf_a(unsigned long n);
void leaf_b(unsigned long n);

#define UNIT 2000000UL

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void mid(double ms)
{
	double end = now_ms() + ms;
	do {
		leaf_a(2 * UNIT);
		leaf_b(UNIT);
	} while (now_ms() < end);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;
	mid(ms);
	return 0;
}
