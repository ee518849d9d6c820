// SPDX-License-Identifier: GPL-2.0
/*
 * ELF files opened for reading: open(2), libelf's elf_begin() on the fd
 * (mapped, ELF_C_READ_MMAP) and the check that it is an ELF file, not an
 * archive or junk. Each reader in lib/symbols then walks the sections or
 * segments it wants, and closes the pair with pulse_elf__close().
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>
#include "elf-int.h"

int pulse_elf__open(struct pulse_elf *e, const char *path)
{
	e->fd = -1;
	e->elf = NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	e->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (e->fd < 0)
		return -errno;
	e->elf = elf_begin(e->fd, ELF_C_READ_MMAP, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF) {
		pulse_elf__close(e);
		return -ENOEXEC;
	}
	return 0;
}

Elf_Scn *pulse_elf__section(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx)
{
	Elf_Scn *scn = NULL;
	size_t strndx;

	if (elf_getshdrstrndx(elf, &strndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(elf, strndx, shdr->sh_name);
		if (n && !strcmp(n, name)) {
			if (idx)
				*idx = elf_ndxscn(scn);
			return scn;
		}
	}
	return NULL;
}

void pulse_elf__close(struct pulse_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	e->elf = NULL;
	e->fd = -1;
}
