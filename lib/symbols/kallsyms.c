// SPDX-License-Identifier: GPL-2.0
/*
 * Text symbol sources: the kernel's /proc/kallsyms ("ADDR TYPE NAME" with
 * "\t[module]" after module symbols) and the perf-PID.map files JITs write
 * for their anonymous code ("START SIZE NAME", hex). Both give absolute
 * addresses. perf keeps kallsyms' T, W, D and B symbols, sizes them by the
 * next symbol and de-aliases them; perf maps are taken as written.
 */
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "symtab-int.h"

static bool kallsyms_type_wanted(char type)
{
	type = toupper((unsigned char)type);
	return type == 'T' || type == 'W' || type == 'D' || type == 'B';
}

static uint8_t kallsyms_binding(char type)
{
	if (type == 'W')
		return STB_WEAK;
	return isupper((unsigned char)type) ? STB_GLOBAL : STB_LOCAL;
}

static uint8_t kallsyms_elf_type(char type)
{
	type = tolower((unsigned char)type);
	return type == 't' || type == 'w' ? STT_FUNC : STT_OBJECT;
}

/* "ADDR TYPE NAME[\t[mod]]": false for a line of another shape; @name is the rest. */
static bool parse_line(char *line, unsigned long long *addr, char *type, char **name)
{
	char *end;

	*addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ')
		return false;
	*type = end[1];
	*name = end + 3;
	return true;
}

/*
 * @module NULL: every symbol, modules' too (their "\t[mod]" cut after the
 * fixup, as perf looks for '['); else only @module's, less @base.
 */
static int load_kallsyms(struct pulse_symtab *st, const char *path, const char *module,
			 uint64_t base, const _Atomic bool *stop)
{
	char *line = NULL;
	size_t cap = 0, mlen = module ? strlen(module) : 0;
	ssize_t len;
	int err = 0, count = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0) {
		unsigned long long addr;
		char *name;
		char type;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
			err = -ECANCELED;
			break;
		}
		if (!parse_line(line, &addr, &type, &name))
			continue;
		if (!kallsyms_type_wanted(type) || name[0] == '$')
			continue;
		if (module) {
			char *tab = strchr(name, '\t');

			if (!tab || strncmp(tab + 1, "[", 1) || strncmp(tab + 2, module, mlen) ||
			    strcmp(tab + 2 + mlen, "]") || addr < base)
				continue;
			*tab = '\0';
			addr -= base;
		}
		err = pulse_symtab__add(st, addr, 0, kallsyms_binding(type), kallsyms_elf_type(type),
					name);
		if (err)
			break;
		count++;
	}
	free(line);
	fclose(f);
	if (err)
		return err;
	pulse_symtab__fixup(st, true);
	for (size_t i = 0; i < st->nr; i++) {
		char *tab = strchr(st->syms[i].name, '\t');

		if (tab) {
			*tab = '\0';
			st->syms[i].namelen = tab - st->syms[i].name;
		}
	}
	return count;
}

int pulse_symtab__load_kallsyms(struct pulse_symtab *st, const char *path)
{
	return load_kallsyms(st, path, NULL, 0, NULL);
}

int pulse_kallsyms__load_stoppable(struct pulse_symtab *st, const char *path,
				   const _Atomic bool *stop)
{
	return load_kallsyms(st, path, NULL, 0, stop);
}

int pulse_symtab__load_kallsyms_module(struct pulse_symtab *st, const char *path,
				       const char *module, uint64_t base)
{
	return load_kallsyms(st, path, module, base, NULL);
}

/* Functions, or an absolute alias of one (PARISC64's _text). */
static bool is_text_type(char t)
{
	return t == 'T' || t == 't' || t == 'W' || t == 'w' || t == 'A';
}

int pulse_kallsyms__text_range(const char *path, uint64_t *start, uint64_t *end)
{
	uint64_t text = 0, stext = 0, etext = 0;
	bool have_text = false, have_stext = false, have_etext = false;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* a flight recorder starts with this: no scanf for 100 K lines */
	setvbuf(f, NULL, _IOFBF, 1 << 16);
	while (getline(&line, &cap, f) > 0 && !(have_text && have_etext)) {
		unsigned long long addr;
		char type, *name;

		if (!parse_line(line, &addr, &type, &name) || !is_text_type(type))
			continue;
		name[strcspn(name, " \t\n")] = 0;
		if (!have_text && !strcmp(name, "_text")) {
			text = addr;
			have_text = true;
		} else if (!have_stext && !strcmp(name, "_stext")) {
			stext = addr;
			have_stext = true;
		} else if (!have_etext && !strcmp(name, "_etext")) {
			etext = addr;
			have_etext = true;
		}
	}
	free(line);
	fclose(f);
	if (!have_text && !have_stext)
		return -ENOENT;
	*start = have_text ? text : stext;
	if (!*start)
		return -EACCES;
	/*
	 * perf ends the map at _etext; without it, at the top of the address
	 * space (perf would use the first module's start, if any).
	 */
	*end = have_etext && etext > *start ? etext : ~0ULL;
	return 0;
}

/* The boot's id, so that a cache never outlives the kernel it describes. */
static int boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	bool ok;

	if (!f)
		return -errno;
	ok = fgets(buf, len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return ok && strlen(buf) >= 32 && !strchr(buf, '/') ? 0 : -EINVAL;
}

int pulse_kallsyms__text_range_cached(const char *path, const char *cache_dir, uint64_t *start,
				      uint64_t *end)
{
	char id[64], file[PATH_MAX], tmp[PATH_MAX + 8];
	unsigned long long a, b;
	FILE *f;
	int ret;

	if (!cache_dir || strcmp(path, "/proc/kallsyms") || boot_id(id, sizeof(id)) ||
	    snprintf(file, sizeof(file), "%s/kallsyms-text-%s", cache_dir, id) >= (int)sizeof(file))
		return pulse_kallsyms__text_range(path, start, end);
	f = fopen(file, "re");
	if (f) {
		int n = fscanf(f, "%llx %llx", &a, &b);

		fclose(f);
		if (n == 2 && a && b > a) {
			*start = a;
			*end = b;
			return 0;
		}
	}
	ret = pulse_kallsyms__text_range(path, start, end);
	if (ret)
		return ret;
	/* best effort, written whole or not at all */
	mkdir(cache_dir, 0700);
	snprintf(tmp, sizeof(tmp), "%s.%d", file, (int)getpid());
	f = fopen(tmp, "we");
	if (f) {
		bool ok = fprintf(f, "%llx %llx\n", (unsigned long long)*start,
				  (unsigned long long)*end) > 0;

		if (fclose(f) || !ok || rename(tmp, file))
			unlink(tmp);
	}
	return 0;
}

int pulse_symtab__load_perf_map(struct pulse_symtab *st, const char *path)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0, count = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((len = getline(&line, &cap, f)) > 0) {
		unsigned long long start, size;
		char *p, *q;

		if (line[len - 1] == '\n')
			line[--len] = '\0';
		start = strtoull(line, &p, 16);
		if (p == line || *p != ' ')
			continue;
		size = strtoull(p + 1, &q, 16);
		if (q == p + 1 || *q != ' ' || !q[1])
			continue;
		err = pulse_symtab__add(st, start, size, STB_GLOBAL, STT_FUNC, q + 1);
		if (err)
			break;
		count++;
	}
	free(line);
	fclose(f);
	if (err)
		return err;
	/* perf takes a JIT's sizes as they are: sort only */
	pulse_symtab__sort(st);
	return count;
}
