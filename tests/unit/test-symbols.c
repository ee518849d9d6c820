// SPDX-License-Identifier: GPL-2.0
/*
 * Symbols and the machine model: the symbol tree's walk over tables and
 * perf maps, kallsyms and perf-map parsing, ELF loading of a program built
 * here (PIE, file-offset addresses, C++ demangling), DSO lookup of symbol
 * files. A table's own rules (fix-ups, alias choice, demangling) are
 * tests/unit/test-symtab.c's; the machine model is test-machine.c's.
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <pulse/build-id.h>
#include <pulse/symbols.h>
#include <pulse/srcline.h>
#include "test.h"

static char tmpdir[64];

static void remove_tmpdir(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", tmpdir);
}

static const char *tmp_path(const char *name)
{
	static char buf[256];

	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/pulse-symbols.XXXXXX");
		if (!mkdtemp(tmpdir))
			abort();
		atexit(remove_tmpdir);
	}
	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
}

/* The name found at @addr, or "-". */
static const char *name_at(const struct pulse_symtab *st, uint64_t addr)
{
	const struct pulse_symbol *s = pulse_symtab__find(st, addr);

	return s ? s->name : "-";
}

/*
 * Overlapping symbols are found as perf's walk down its red-black tree
 * finds them: the first symbol on the way that covers the address, in a
 * tree shaped by the order symbols went in and out.
 */
static void test_symbols__tree_walk(void)
{
	struct pulse_symtab st;
	const struct pulse_symbol *s;

	/* three in: the middle one is the root and covers the third */
	pulse_symtab__init(&st);
	pulse_symtab__add(&st, 0x1000, 0x10, STB_GLOBAL, STT_FUNC, "a");
	pulse_symtab__add(&st, 0x1800, 0x2000, STB_GLOBAL, STT_FUNC, "big");
	pulse_symtab__add(&st, 0x3000, 0x10, STB_GLOBAL, STT_FUNC, "c");
	pulse_symtab__fixup(&st, false);
	ASSERT_STREQ(name_at(&st, 0x1005), "a");
	ASSERT_STREQ(name_at(&st, 0x1010), "-");
	ASSERT_STREQ(name_at(&st, 0x3005), "big");	/* "c" is never reached */
	ASSERT_STREQ(name_at(&st, 0x37ff), "big");
	ASSERT_STREQ(name_at(&st, 0x3800), "-");
	ASSERT_EQ(st.nr, 2);
	pulse_symtab__exit(&st);

	/* the order matters: a small symbol at the root hides the rest of a big one */
	pulse_symtab__init(&st);
	pulse_symtab__add(&st, 0x1000, 0x100, STB_GLOBAL, STT_FUNC, "big");
	pulse_symtab__add(&st, 0x1010, 0x10, STB_GLOBAL, STT_FUNC, "small");
	pulse_symtab__fixup(&st, false);
	ASSERT_STREQ(name_at(&st, 0x1015), "big");
	ASSERT_STREQ(name_at(&st, 0x1050), "big");
	pulse_symtab__exit(&st);
	pulse_symtab__init(&st);
	pulse_symtab__add(&st, 0x1010, 0x10, STB_GLOBAL, STT_FUNC, "small");
	pulse_symtab__add(&st, 0x1000, 0x100, STB_GLOBAL, STT_FUNC, "big");
	pulse_symtab__fixup(&st, false);
	ASSERT_STREQ(name_at(&st, 0x1005), "big");
	ASSERT_STREQ(name_at(&st, 0x1015), "small");
	ASSERT_STREQ(name_at(&st, 0x1050), "-");
	pulse_symtab__exit(&st);

	/*
	 * An alias erased by the de-aliasing was the root: its successor "big"
	 * moves up there and now hides "t", which was found before.
	 */
	pulse_symtab__init(&st);
	pulse_symtab__add(&st, 0x1000, 0x10, STB_GLOBAL, STT_FUNC, "p");
	pulse_symtab__add(&st, 0x1000, 0x10, STB_WEAK, STT_FUNC, "q");
	pulse_symtab__add(&st, 0x2000, 0x10, STB_GLOBAL, STT_FUNC, "t");
	pulse_symtab__add(&st, 0x1800, 0x1000, STB_GLOBAL, STT_FUNC, "big");
	pulse_symtab__fixup(&st, false);
	ASSERT_STREQ(name_at(&st, 0x1005), "p");
	ASSERT_STREQ(name_at(&st, 0x1900), "big");
	ASSERT_STREQ(name_at(&st, 0x2005), "big");
	ASSERT_STREQ(name_at(&st, 0x2100), "big");
	pulse_symtab__exit(&st);

	/*
	 * Partly covered (libc's slashdot.0 and dir_suffix): the second is
	 * found past the end of the first, and keeps its own start.
	 */
	pulse_symtab__init(&st);
	pulse_symtab__add(&st, 0x100, 8, STB_LOCAL, STT_OBJECT, "before");
	pulse_symtab__add(&st, 0xc62, 4, STB_LOCAL, STT_OBJECT, "slashdot.0");
	pulse_symtab__add(&st, 0xc65, 2, STB_LOCAL, STT_OBJECT, "dir_suffix");
	pulse_symtab__add(&st, 0xd00, 8, STB_LOCAL, STT_OBJECT, "after");
	pulse_symtab__fixup(&st, false);
	ASSERT_STREQ(name_at(&st, 0xc65), "slashdot.0");
	s = pulse_symtab__find(&st, 0xc66);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "dir_suffix");
	ASSERT_EQ(s->start, 0xc65);
	ASSERT_STREQ(name_at(&st, 0xc67), "-");
	ASSERT_STREQ(name_at(&st, 0xd07), "after");
	pulse_symtab__exit(&st);

	/* JIT maps are not fixed up, but overlaps go the same way */
	{
		const char *path = tmp_path("perf-124.map");

		write_file(path, "3000 10 c\n1800 2000 big\n");
		pulse_symtab__init(&st);
		ASSERT_EQ(pulse_symtab__load_perf_map(&st, path), 2);
		ASSERT_STREQ(name_at(&st, 0x3005), "c");	/* the root */
		ASSERT_STREQ(name_at(&st, 0x2000), "big");
		ASSERT_STREQ(name_at(&st, 0x3500), "-");	/* right of c: nothing */
		pulse_symtab__exit(&st);
		write_file(path, "1800 2000 big\n3000 10 c\n");
		pulse_symtab__init(&st);
		ASSERT_EQ(pulse_symtab__load_perf_map(&st, path), 2);
		ASSERT_STREQ(name_at(&st, 0x3005), "big");
		ASSERT_STREQ(name_at(&st, 0x3500), "big");
		pulse_symtab__exit(&st);
	}
}

static void test_symbols__kallsyms(void)
{
	const char *path = tmp_path("kallsyms");
	const struct pulse_symbol *s;
	struct pulse_symtab st;

	write_file(path,
		   "ffffffff81000000 T _text\n"
		   "ffffffff81000000 T _stext\n"
		   "ffffffff81000100 t local_fn\n"
		   "ffffffff81000200 r some_rodata\n"
		   "ffffffff81000300 A abs_sym\n"
		   "ffffffff81000400 W weak_fn\n"
		   "ffffffffc0000000 t mod_fn\t[mymod]\n");
	pulse_symtab__init(&st);
	ASSERT_EQ(pulse_symtab__load_kallsyms(&st, path), 5);
	ASSERT_EQ(st.nr, 4);			/* _text/_stext de-aliased */
	s = pulse_symtab__find(&st, 0xffffffff81000010);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "_stext");	/* the last alias got the size */
	s = pulse_symtab__find(&st, 0xffffffff81000250);	/* rodata is not kept */
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "local_fn");
	ASSERT_EQ(s->binding, STB_LOCAL);
	s = pulse_symtab__find(&st, 0xffffffff81000400);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "weak_fn");
	ASSERT_EQ(s->binding, STB_WEAK);
	/* the last kernel symbol before a module stops at the next page */
	ASSERT_EQ(s->end, 0xffffffff81002000);
	s = pulse_symtab__find(&st, 0xffffffffc0000010);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "mod_fn");
	ASSERT_EQ(s->namelen, 6);
	pulse_symtab__exit(&st);
}

static void test_symbols__perf_map(void)
{
	const char *path = tmp_path("perf-123.map");
	const struct pulse_symbol *s;
	struct pulse_symtab st;

	write_file(path, "7f0000002000 40 jit_b\n7f0000001000 20 LazyCompile:*foo bar.js:1\nbad line\n");
	pulse_symtab__init(&st);
	ASSERT_EQ(pulse_symtab__load_perf_map(&st, path), 2);
	s = pulse_symtab__find(&st, 0x7f0000001010);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "LazyCompile:*foo bar.js:1");
	ASSERT_TRUE(pulse_symtab__find(&st, 0x7f0000001020) == NULL);	/* sizes as written */
	s = pulse_symtab__find(&st, 0x7f000000203f);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "jit_b");
	pulse_symtab__exit(&st);
}

/* A command's exit status, quietly. */
static int run(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static bool has_symbol(const struct pulse_symtab *st, const char *name)
{
	for (size_t i = 0; i < st->nr; i++)
		if (!strcmp(st->syms[i].name, name))
			return true;
	return false;
}

/*
 * MiniDebugInfo as Fedora makes it (the gdb manual's recipe): the local
 * function symbols .dynsym lacks, in an xz-compressed ELF put in
 * .gnu_debugdata of the stripped binary.
 */
static void test_symbols__gnu_debugdata(void)
{
	const char *d = tmpdir;
	struct pulse_symtab st;
	void *out = NULL;
	size_t len = 0;
	int n;

	write_file(tmp_path("mdi.c"),
		   "__attribute__((noinline)) static int mdi_local(int x) { return x * 7; }\n"
		   "int mdi_global(int x) { return mdi_local(x) + 1; }\n"
		   "int main(int c, char **v) { return mdi_global(c); }\n");
	if (run("cd %s && gcc -O1 -rdynamic -o mdi mdi.c 2>/dev/null", d) ||
	    run("cd %s && command -v xz >/dev/null && command -v objcopy >/dev/null", d)) {
		test__skip = "no gcc, xz or objcopy";
		return;
	}
	ASSERT_EQ(run("cd %s && nm -D mdi --format=posix --defined-only | awk '{print $1}' | sort > dyn &&"
		      " nm mdi --format=posix --defined-only | awk '$2 ~ /[TtD]/ {print $1}' | sort > funcs &&"
		      " comm -13 dyn funcs > keep &&"
		      " objcopy --only-keep-debug mdi mdi.dbg &&"
		      " objcopy -S --remove-section .gdb_index --remove-section .comment"
		      "   --keep-symbols=keep mdi.dbg mini &&"
		      " xz -f mini && objcopy -S mdi mdi.stripped && cp mdi.stripped mdi.mini &&"
		      " objcopy --add-section .gnu_debugdata=mini.xz mdi.mini", d), 0);

	/* the stripped binary alone: .dynsym only */
	pulse_symtab__init(&st);
	n = pulse_symtab__load_elf(&st, tmp_path("mdi.stripped"), NULL);
	ASSERT_TRUE(n > 0);
	ASSERT_TRUE(has_symbol(&st, "mdi_global"));
	ASSERT_TRUE(!has_symbol(&st, "mdi_local"));
	pulse_symtab__exit(&st);

	/* with .gnu_debugdata: both, at the unstripped binary's offsets */
	pulse_symtab__init(&st);
	n = pulse_symtab__load_elf(&st, tmp_path("mdi.mini"), NULL);
	ASSERT_TRUE(n > 0);
	ASSERT_TRUE(has_symbol(&st, "mdi_global"));
	ASSERT_TRUE(has_symbol(&st, "mdi_local"));
	{
		struct pulse_symtab full;
		const struct pulse_symbol *a, *b = NULL;

		pulse_symtab__init(&full);
		ASSERT_TRUE(pulse_symtab__load_elf(&full, tmp_path("mdi"), NULL) > 0);
		for (size_t i = 0; i < full.nr; i++)
			if (!strcmp(full.syms[i].name, "mdi_local"))
				b = &full.syms[i];
		ASSERT_TRUE(b != NULL);
		a = pulse_symtab__find(&st, b->start);
		ASSERT_TRUE(a != NULL);
		ASSERT_STREQ(a->name, "mdi_local");
		pulse_symtab__exit(&full);
	}
	pulse_symtab__exit(&st);

	/* a corrupt stream is refused, not crashed on */
	ASSERT_TRUE(pulse_xz__decode("\xfd" "7zXZ\0garbage", 13, &out, &len) < 0);
}

/* -k: a vmlinux's symbols stay at their absolute addresses. */
static void test_symbols__vmlinux(void)
{
	struct pulse_symtab st;
	const struct pulse_symbol *s;
	char line[128];
	unsigned long long addr = 0;
	FILE *p;
	char cmd[512];

	write_file(tmp_path("vml.c"),
		   "__attribute__((noinline)) int vml_func(int x) { return x * 5; }\n"
		   "int main(int c, char **v) { return vml_func(c); }\n");
	if (run("cd %s && gcc -O1 -no-pie -fno-pie -o vml vml.c 2>/dev/null", tmpdir)) {
		test__skip = "no gcc";
		return;
	}
	snprintf(cmd, sizeof(cmd), "nm %s | awk '$3 == \"vml_func\" {print $1}'", tmp_path("vml"));
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	if (fgets(line, sizeof(line), p))
		addr = strtoull(line, NULL, 16);
	pclose(p);
	ASSERT_TRUE(addr != 0);
	pulse_symtab__init(&st);
	ASSERT_TRUE(pulse_symtab__load_vmlinux(&st, tmp_path("vml")) > 0);
	s = pulse_symtab__find(&st, addr + 1);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "vml_func");
	pulse_symtab__exit(&st);
	ASSERT_EQ(pulse_symtab__load_vmlinux(&st, tmp_path("no-such-vmlinux")), -ENOENT);
}

/*
 * The running kernel's kallsyms serves only the kernel that made the
 * recording: a recorded build-id that is not the running kernel's leaves
 * kernel addresses unresolved, unless the file was named (--kallsyms).
 */
static void test_symbols__kallsyms_build_id(void)
{
	struct pulse_symbol_opts o = { .sz = sizeof(o) };
	const uint8_t other[20] = { 0xde, 0xad, 0xbe, 0xef };
	unsigned char running[PULSE_BUILD_ID_SIZE];
	size_t running_len = 0;
	struct pulse_dsos dsos;
	struct pulse_dso *k;

	write_file(tmp_path("ksyms"),
		   "ffffffff81000000 T _stext\n"
		   "ffffffff81000100 T kfunc_one\n"
		   "ffffffff81000200 T kfunc_two\n");
	o.kallsyms = tmp_path("ksyms");

	/* another kernel's build-id: not used */
	ASSERT_EQ(pulse_dsos__init(&dsos, &o), 0);
	ASSERT_EQ(pulse_dsos__set_build_id(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL, other, 20), 0);
	k = pulse_dsos__find(&dsos, "[kernel.kallsyms]");
	ASSERT_TRUE(k != NULL);
	ASSERT_TRUE(pulse_dso__find_symbol(&dsos, k, 0xffffffff81000150ULL) == NULL);
	pulse_dsos__exit(&dsos);

	/* named by the user: used as it is */
	o.kallsyms_given = true;
	ASSERT_EQ(pulse_dsos__init(&dsos, &o), 0);
	ASSERT_EQ(pulse_dsos__set_build_id(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL, other, 20), 0);
	k = pulse_dsos__find(&dsos, "[kernel.kallsyms]");
	ASSERT_STREQ(pulse_dso__find_symbol(&dsos, k, 0xffffffff81000150ULL)->name, "kfunc_one");
	pulse_dsos__exit(&dsos);

	/* the running kernel's build-id, or none recorded: used */
	o.kallsyms_given = false;
	ASSERT_EQ(pulse_dsos__init(&dsos, &o), 0);
	if (!pulse_build_id__read_kernel(running, &running_len) && running_len)
		ASSERT_EQ(pulse_dsos__set_build_id(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL,
						   running, running_len), 0);
	else
		pulse_dsos__findnew(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL);
	k = pulse_dsos__find(&dsos, "[kernel.kallsyms]");
	ASSERT_STREQ(pulse_dso__find_symbol(&dsos, k, 0xffffffff81000250ULL)->name, "kfunc_two");
	pulse_dsos__exit(&dsos);
}

/*
 * A kernel lookup that would wait for the kallsyms read ahead calls the
 * idle function instead, while it has work and the read is not over: the
 * read here is of a FIFO the idle function itself feeds on its third call.
 */
struct idle_state {
	const char *fifo;
	int calls;
	int stop_at;		/* return 0 from this call on (0: never) */
};

static int idle_feed(void *arg)
{
	struct idle_state *st = arg;
	static const char text[] = "ffffffff81000000 T _text\n"
				   "ffffffff81000100 T kfunc_one\n";

	if (++st->calls == 3) {
		int fd = open(st->fifo, O_WRONLY);

		if (fd >= 0) {
			if (write(fd, text, sizeof(text) - 1) < 0)
				perror("write");
			close(fd);
		}
	}
	return st->stop_at && st->calls >= st->stop_at ? 0 : 1;
}

static void test_symbols__kallsyms_idle(void)
{
	struct pulse_symbol_opts o = { .sz = sizeof(o), .kallsyms_given = true };
	struct idle_state st = { .fifo = NULL };
	char fifo[256];
	struct pulse_dsos dsos;
	struct pulse_dso *k;

	/* a broken hand-off would wait for the FIFO for ever: a hang is a failure */
	alarm(30);
	snprintf(fifo, sizeof(fifo), "%s", tmp_path("kallsyms-fifo"));
	ASSERT_EQ(mkfifo(fifo, 0600), 0);
	o.kallsyms = fifo;
	st.fifo = fifo;
	ASSERT_EQ(pulse_dsos__init(&dsos, &o), 0);
	ASSERT_EQ(pulse_dsos__preload_kernel(&dsos), 0);
	pulse_dsos__set_idle(&dsos, idle_feed, &st);
	k = pulse_dsos__findnew(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL);
	ASSERT_STREQ(pulse_dso__find_symbol(&dsos, k, 0xffffffff81000150ULL)->name, "kfunc_one");
	/* fed on the third call: the read could not end before */
	ASSERT_TRUE(st.calls >= 3);
	pulse_dsos__exit(&dsos);

	/* an idle function out of work is not called again: the lookup waits */
	memset(&st, 0, sizeof(st));
	st.fifo = fifo;
	st.stop_at = 3;
	ASSERT_EQ(pulse_dsos__init(&dsos, &o), 0);
	ASSERT_EQ(pulse_dsos__preload_kernel(&dsos), 0);
	pulse_dsos__set_idle(&dsos, idle_feed, &st);
	k = pulse_dsos__findnew(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL);
	ASSERT_STREQ(pulse_dso__find_symbol(&dsos, k, 0xffffffff81000150ULL)->name, "kfunc_one");
	ASSERT_EQ(st.calls, 3);
	pulse_dsos__exit(&dsos);
	unlink(fifo);
	alarm(0);
}

/* nm's value of a symbol, rebased as perf does (file offset) */
static long long nm_offset(const char *bin, const char *sym)
{
	char cmd[512], line[256];
	long long v = -1;
	FILE *p;

	snprintf(cmd, sizeof(cmd),
		 "nm %s | awk '$3==\"%s\"{print $1}'; readelf -lW %s | awk '$1==\"LOAD\"{print $2, $3}'",
		 bin, sym, bin);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (fgets(line, sizeof(line), p)) {
		unsigned long long value = strtoull(line, NULL, 16), off, vaddr;

		while (fgets(line, sizeof(line), p)) {
			if (sscanf(line, "%llx %llx", &off, &vaddr) == 2 && vaddr <= value)
				v = value - (vaddr - off);
		}
	}
	pclose(p);
	return v;
}

static void test_symbols__elf_program(void)
{
	char src[256], bin[256], cmd[1024];
	const struct pulse_symbol *s;
	struct pulse_symtab st;
	long long off;
	int n;

	snprintf(src, sizeof(src), "%s", tmp_path("prog.cc"));
	snprintf(bin, sizeof(bin), "%s", tmp_path("prog"));
	write_file(src,
		   "namespace ns { template<typename T> struct Box { T v;\n"
		   "  __attribute__((noinline)) T spin(int n) { T s = v; for (int i = 0; i < n; i++) s += i; return s; } }; }\n"
		   "extern \"C\" __attribute__((noinline)) int pulse_test_func(int x) { return x * 3 + 1; }\n"
		   "int main(int c, char **) { ns::Box<long> b{c}; return (int)b.spin(c) + pulse_test_func(c); }\n");
	snprintf(cmd, sizeof(cmd), "g++ -O1 -fPIE -pie -Wl,-z,separate-code -o %s %s 2>/dev/null",
		 bin, src);
	if (system(cmd)) {
		test__skip = "no g++";
		return;
	}
	pulse_symtab__init(&st);
	n = pulse_symtab__load_elf(&st, bin, NULL);
	ASSERT_TRUE(n > 0);
	off = nm_offset(bin, "pulse_test_func");
	ASSERT_TRUE(off > 0);
	s = pulse_symtab__find(&st, off + 1);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "pulse_test_func");
	ASSERT_EQ(s->start, off);
	off = nm_offset(bin, "_ZN2ns3BoxIlE4spinEi");
	s = pulse_symtab__find(&st, off);
	ASSERT_TRUE(s != NULL);
	ASSERT_STREQ(s->name, "ns::Box<long>::spin");
	pulse_symtab__exit(&st);

	/* stripped: .dynsym only, which has no pulse_test_func */
	snprintf(cmd, sizeof(cmd), "strip -o %s.stripped %s", bin, bin);
	ASSERT_EQ(system(cmd), 0);
	strcat(bin, ".stripped");
	pulse_symtab__init(&st);
	pulse_symtab__load_elf(&st, bin, NULL);
	for (size_t i = 0; i < st.nr; i++)
		ASSERT_TRUE(strcmp(st.syms[i].name, "pulse_test_func"));
	pulse_symtab__exit(&st);
	ASSERT_EQ(pulse_symtab__load_elf(&st, "/nonexistent", NULL), -ENOENT);
}

/*
 * A source line as perf script prints one (pulse_srclines__find()): the
 * line table's; nothing for an address a symbol has but no line (_start,
 * from crt1.o: addr2line says "_start", "??:?", which perf reads as
 * "??:0" and leaves out); "NAME[addr]" where neither has it (a PLT entry:
 * addr2line's "??", "??:0", which perf reads as no answer).
 */
static void test_symbols__srcline_without_line(void)
{
	char src[256], bin[256], cmd[1024], buf[256];
	unsigned long long plt = 0;
	struct pulse_srclines *sl;
	struct pulse_dsos dsos;
	struct pulse_dso *dso;
	const char *line;
	long long start, mainoff;
	FILE *p;

	snprintf(src, sizeof(src), "%s", tmp_path("lines.c"));
	snprintf(bin, sizeof(bin), "%s", tmp_path("lines"));
	write_file(src, "#include <stdio.h>\nint main(void)\n{\n\tputs(\"x\");\n\treturn 0;\n}\n");
	snprintf(cmd, sizeof(cmd), "gcc -g -O0 -fPIE -pie -o %s %s 2>/dev/null", bin, src);
	if (system(cmd)) {
		test__skip = "no gcc";
		return;
	}
	start = nm_offset(bin, "_start");
	mainoff = nm_offset(bin, "main");
	ASSERT_TRUE(start > 0 && mainoff > 0);
	/* the first entry after .plt's header: no symbol of the file is there */
	snprintf(cmd, sizeof(cmd),
		 "readelf -SW %s | awk '{ for (i = 1; i < NF; i++) if ($i == \".plt\") print $(i + 3) }'",
		 bin);
	p = popen(cmd, "r");
	ASSERT_TRUE(p != NULL);
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = '\0';
	pclose(p);
	plt = strtoull(buf, NULL, 16) + 16;
	ASSERT_TRUE(plt > 16);
	ASSERT_EQ(pulse_dsos__init(&dsos, NULL), 0);
	dso = pulse_dsos__findnew(&dsos, bin, PULSE_DSO_USER);
	ASSERT_EQ(pulse_srclines__new(&sl, NULL), 0);
	line = pulse_srclines__find(sl, dso, mainoff, buf, sizeof(buf));
	ASSERT_TRUE(line && !strncmp(line, "lines.c:", 8));
	ASSERT_TRUE(pulse_srclines__find(sl, dso, start, buf, sizeof(buf)) == NULL);
	line = pulse_srclines__find(sl, dso, plt, buf, sizeof(buf));
	snprintf(cmd, sizeof(cmd), "lines[%llx]", plt);
	ASSERT_STREQ(line, cmd);
	pulse_srclines__delete(sl);
	pulse_dsos__exit(&dsos);
}

/* The symbol of @dso at file offset @off, loading it with @dsos' options. */
static const char *dso_name_at(struct pulse_dsos *dsos, const char *path, const uint8_t *id,
			       uint64_t off)
{
	const struct pulse_symbol *s;
	struct pulse_dso *dso;

	if (id)
		pulse_dsos__set_build_id(dsos, path, PULSE_DSO_USER, id, 20);
	dso = pulse_dsos__findnew(dsos, path, PULSE_DSO_USER);
	if (!dso)
		return "?";
	s = pulse_dso__find_symbol(dsos, dso, off);
	return s ? s->name : "-";
}

/*
 * A stripped program whose symbols are in a separate debug file: found by
 * the build-id read from the program itself when none was recorded (pipe
 * mode), as perf does, and through its .gnu_debuglink.
 */
static void test_symbols__debug_files(void)
{
	char src[256], bin[256], cmd[4096], dbg[256], hex[41], path[512];
	struct pulse_symbol_opts opts = { .sz = sizeof(opts) };
	struct pulse_dsos dsos;
	uint8_t id[20], bad[20] = { 0 };
	long long off;
	size_t len = 0;

	snprintf(src, sizeof(src), "%s", tmp_path("dbg.c"));
	snprintf(bin, sizeof(bin), "%s", tmp_path("dbgprog"));
	write_file(src, "__attribute__((noinline)) int pulse_hidden_func(int x) { return x * 5; }\n"
			"int main(int c, char **v) { return pulse_hidden_func(c); }\n");
	snprintf(cmd, sizeof(cmd),
		 "gcc -O1 -fPIE -pie -Wl,--build-id=sha1 -o %s %s 2>/dev/null && "
		 "objcopy --only-keep-debug %s %s.debug && strip -o %s.stripped %s && "
		 "objcopy --add-gnu-debuglink=%s.debug %s.stripped %s.linked",
		 bin, src, bin, bin, bin, bin, bin, bin, bin);
	if (system(cmd)) {
		test__skip = "no gcc or binutils";
		return;
	}
	off = nm_offset(bin, "pulse_hidden_func");
	ASSERT_TRUE(off > 0);
	ASSERT_EQ(pulse_build_id__read_file(bin, id, &len), 0);
	ASSERT_EQ(len, 20);
	for (int i = 0; i < 20; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	snprintf(dbg, sizeof(dbg), "%s", tmp_path("debug"));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/.build-id/%.2s && cp %s.debug %s/.build-id/%.2s/%s.debug",
		 dbg, hex, bin, dbg, hex, hex + 2);
	ASSERT_EQ(system(cmd), 0);

	/* stripped, no build-id recorded: the one on disk finds the debug file */
	opts.debug_dir = dbg;
	ASSERT_EQ(pulse_dsos__init(&dsos, &opts), 0);
	snprintf(path, sizeof(path), "%s.stripped", bin);
	ASSERT_STREQ(dso_name_at(&dsos, path, NULL, off + 1), "pulse_hidden_func");
	pulse_dsos__exit(&dsos);

	/* the same with the right build-id recorded */
	ASSERT_EQ(pulse_dsos__init(&dsos, &opts), 0);
	ASSERT_STREQ(dso_name_at(&dsos, path, id, off + 1), "pulse_hidden_func");
	pulse_dsos__exit(&dsos);

	/* another build-id recorded: neither the debug file nor the program itself */
	ASSERT_EQ(pulse_dsos__init(&dsos, &opts), 0);
	ASSERT_STREQ(dso_name_at(&dsos, path, bad, off + 1), "-");
	pulse_dsos__exit(&dsos);

	/* no debug directory: the stripped program has no such symbol */
	opts.debug_dir = NULL;
	ASSERT_EQ(pulse_dsos__init(&dsos, &opts), 0);
	ASSERT_STREQ(dso_name_at(&dsos, path, NULL, off + 1), "-");
	pulse_dsos__exit(&dsos);

	/* but its .gnu_debuglink, next to it, has */
	ASSERT_EQ(pulse_dsos__init(&dsos, &opts), 0);
	snprintf(path, sizeof(path), "%s.linked", bin);
	ASSERT_STREQ(dso_name_at(&dsos, path, NULL, off + 1), "pulse_hidden_func");
	pulse_dsos__exit(&dsos);
}

static void test_symbols__build_id(void)
{
	uint8_t id[PULSE_BUILD_ID_SIZE];
	size_t len = 0;
	int err = pulse_build_id__read_file("/proc/self/exe", id, &len);

	ASSERT_TRUE((err == 0 && len == 20) || err == -ENODATA);
	ASSERT_EQ(pulse_build_id__read_file("/etc/passwd", id, &len), -ENOEXEC);
}

/*
 * The DSOs come back in the order they were created, whatever the hash
 * makes of their names, also across the hash's growth (BUILD_ID lists
 * them in this order).
 */
static void test_symbols__dsos_order(void)
{
	struct pulse_dsos dsos;
	struct pulse_dso *d;
	char name[64];
	int i = 0;

	ASSERT_EQ(pulse_dsos__init(&dsos, NULL), 0);
	for (int k = 0; k < 1000; k++) {
		snprintf(name, sizeof(name), "/lib/lib%d.so", (k * 7919) % 1000);
		ASSERT_TRUE(pulse_dsos__findnew(&dsos, name, PULSE_DSO_USER) != NULL);
	}
	/* found again: not a new one */
	ASSERT_TRUE(pulse_dsos__findnew(&dsos, "/lib/lib0.so", PULSE_DSO_USER) == dsos.first);
	ASSERT_EQ(dsos.nr, 1000);
	pulse_dsos__for_each(d, &dsos) {
		snprintf(name, sizeof(name), "/lib/lib%d.so", (i * 7919) % 1000);
		ASSERT_STREQ(d->long_name, name);
		i++;
	}
	ASSERT_EQ(i, 1000);
	ASSERT_TRUE(dsos.last != NULL && dsos.last->order_next == NULL);
	pulse_dsos__exit(&dsos);

	ASSERT_EQ(pulse_dsos__init(&dsos, NULL), 0);
	i = 0;
	pulse_dsos__for_each(d, &dsos)
		i++;
	ASSERT_EQ(i, 0);
	pulse_dsos__exit(&dsos);
}

/* With no_symbols a DSO is never loaded, even where symbols are to be had. */
static void test_symbols__no_symbols(void)
{
	const char *ks = tmp_path("kallsyms-nosyms");
	struct pulse_symbol_opts o = { .sz = sizeof(o), .kallsyms = ks, .kallsyms_given = true,
				       .no_symbols = true };
	struct pulse_dsos dsos;
	struct pulse_dso *k, *u;

	write_file(ks, "ffffffff81000000 T _text\nffffffff81000100 T kfunc_one\n"
		       "ffffffff81000200 T kfunc_two\n");
	ASSERT_EQ(pulse_dsos__init(&dsos, &o), 0);
	k = pulse_dsos__findnew(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL);
	u = pulse_dsos__findnew(&dsos, "/proc/self/exe", PULSE_DSO_USER);
	ASSERT_TRUE(k && u);
	ASSERT_TRUE(pulse_dso__find_symbol(&dsos, k, 0xffffffff81000150ULL) == NULL);
	ASSERT_EQ(pulse_dso__load(&dsos, u), 0);
	ASSERT_EQ(k->symtab.nr, 0);
	ASSERT_EQ(u->symtab.nr, 0);
	/* not even the file's build-id is read */
	ASSERT_TRUE(!u->has_build_id);
	pulse_dsos__exit(&dsos);
	/* the same without the option: kallsyms is read */
	o.no_symbols = false;
	ASSERT_EQ(pulse_dsos__init(&dsos, &o), 0);
	k = pulse_dsos__findnew(&dsos, "[kernel.kallsyms]", PULSE_DSO_KERNEL);
	ASSERT_STREQ(pulse_dso__find_symbol(&dsos, k, 0xffffffff81000150ULL)->name, "kfunc_one");
	pulse_dsos__exit(&dsos);
}

/*
 * The running kernel's text range, kept per boot: computed once, then read
 * back (what the file says is what is used), recomputed when the file is
 * not a range; another path than /proc/kallsyms is never cached.
 */
static void test_symbols__kallsyms_text_cache(void)
{
	char dir[] = "/tmp/pulse-ksym-XXXXXX", file[256], id[64] = "";
	uint64_t s0, e0, s, e;
	FILE *f;

	if (pulse_kallsyms__text_range("/proc/kallsyms", &s0, &e0)) {
		test__skip = "no kernel addresses in /proc/kallsyms";
		return;
	}
	ASSERT_TRUE(mkdtemp(dir));
	ASSERT_EQ(pulse_kallsyms__text_range_cached("/proc/kallsyms", dir, &s, &e), 0);
	ASSERT_EQ(s, s0);
	ASSERT_EQ(e, e0);
	f = fopen("/proc/sys/kernel/random/boot_id", "r");
	ASSERT_TRUE(f && fgets(id, sizeof(id), f));
	fclose(f);
	id[strcspn(id, "\n")] = 0;
	snprintf(file, sizeof(file), "%s/kallsyms-text-%s", dir, id);
	/* the cache is what is used */
	f = fopen(file, "w");
	ASSERT_TRUE(f);
	fprintf(f, "1000 2000\n");
	fclose(f);
	ASSERT_EQ(pulse_kallsyms__text_range_cached("/proc/kallsyms", dir, &s, &e), 0);
	ASSERT_EQ(s, 0x1000);
	ASSERT_EQ(e, 0x2000);
	/* not a range: computed again, and the file mended */
	f = fopen(file, "w");
	ASSERT_TRUE(f);
	fprintf(f, "garbage\n");
	fclose(f);
	ASSERT_EQ(pulse_kallsyms__text_range_cached("/proc/kallsyms", dir, &s, &e), 0);
	ASSERT_EQ(s, s0);
	ASSERT_EQ(pulse_kallsyms__text_range_cached("/proc/kallsyms", dir, &s, &e), 0);
	ASSERT_EQ(e, e0);
	unlink(file);
	rmdir(dir);
}

TEST_MAIN(TEST(test_symbols__kallsyms_text_cache), TEST(test_symbols__tree_walk),
	  TEST(test_symbols__srcline_without_line),
	  TEST(test_symbols__kallsyms), TEST(test_symbols__perf_map), TEST(test_symbols__gnu_debugdata),
	  TEST(test_symbols__vmlinux), TEST(test_symbols__kallsyms_build_id), TEST(test_symbols__kallsyms_idle),
	  TEST(test_symbols__elf_program), TEST(test_symbols__debug_files),
	  TEST(test_symbols__build_id), TEST(test_symbols__dsos_order),
	  TEST(test_symbols__no_symbols))
