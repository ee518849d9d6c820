/* The leaves of dwarf-tree (tests/workloads/dwarf-tree.c), in a shared
 * library so that an unwind crosses from one DSO's CFI to another's. */
volatile unsigned long dwarf_tree_sink;

/* Calling it keeps the leaves from being leaf functions, which gcc builds
 * without a frame pointer even with -fno-omit-frame-pointer. */
__attribute__((noinline)) void touch(void)
{
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void leaf_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		dwarf_tree_sink += i;
	touch();
}

__attribute__((noinline)) void leaf_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		dwarf_tree_sink += i;
	touch();
}
