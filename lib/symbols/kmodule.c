// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel modules: perf's name for a module's DSO, and its symbols from the
 * .ko file. A .ko is relocatable (ET_REL): its symbols are offsets into
 * their sections. perf takes a symbol at st_value + the section's file
 * offset, and an address in the module at its distance from the module's
 * load address + the file offset of .text (the module's core starts with
 * its .text), so that .text symbols land where the kernel put them.
 */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/symbols.h>
#include "core/internal.h"
#include "elf-int.h"

/* perf's kmod_path__parse_name() */
char *pulse_kmod__name(const char *path)
{
	const char *name = strrchr(path, '/'), *ext;
	char *out;
	bool kmod = false;

	name = name ? name + 1 : path;
	if (name[0] == '[')
		return strdup(name);
	ext = strrchr(name, '.');
	if (!ext)
		return strdup(name);
	/* perf 6.1 knows two compressions for modules */
	if (!strcmp(ext, ".gz") || !strcmp(ext, ".xz"))
		ext -= 3;
	if (ext > name)
		kmod = !strncmp(ext, ".ko", 3);
	if (kmod ? asprintf(&out, "[%.*s]", (int)(ext - name), name) < 0 :
		   asprintf(&out, "%s", name) < 0)
		return NULL;
	for (char *c = out; *c; c++)
		if (*c == '-')
			*c = '_';
	return out;
}

static int text_offset(const char *path, uint64_t *off)
{
	struct pulse_elf e;
	GElf_Shdr sh;
	int err;

	err = pulse_elf__open(&e, path);
	if (err)
		return err;
	err = -ENOENT;
	if (pulse_elf__section(e.elf, ".text", &sh, NULL)) {
		*off = sh.sh_offset;
		err = 0;
	}
	pulse_elf__close(&e);
	return err;
}

int pulse_symtab__load_kmodule(struct pulse_symtab *st, const char *path, uint64_t *text_off)
{
	int err = text_offset(path, text_off);

	if (err)
		return err;
	/* the ELF loader takes ET_REL symbols at st_value + sh_offset, as perf */
	return pulse_symtab__load_elf(st, path, NULL);
}
