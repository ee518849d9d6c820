/* The library half of twins (tests/workloads/twins.c): its own static
 * work, the same name as the program's. */
static volatile unsigned long twins_sink;

static __attribute__((noinline)) void work(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		twins_sink += i;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void twins_lib_run(unsigned long n)
{
	work(n);
	__asm__ volatile("" ::: "memory");
}
