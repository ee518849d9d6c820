/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to lib/symbols: an ELF file opened for reading through libelf,
 * the preamble every reader of a file on disk shares (symbol tables,
 * build ids, kernel modules, debuglinks). Not part of the public API.
 */
#ifndef PULSE_SYMBOLS_ELF_INT_H
#define PULSE_SYMBOLS_ELF_INT_H

#include <gelf.h>
#include <libelf.h>

/* struct pulse_elf - an ELF file open for reading; a value, embedded by the reader */
struct pulse_elf {
	int fd;			/* the file, read-only; -1 when closed */
	Elf *elf;		/* libelf's view of it (ELF_C_READ_MMAP), an ELF_K_ELF */
};

/**
 * pulse_elf__open - open @path and begin reading it as an ELF file
 * @e: filled in on success; on failure @e->fd is -1 and @e->elf NULL
 * @path: the file
 *
 * Return: 0; -EINVAL when libelf cannot be initialised, -errno of open(2),
 * -ENOEXEC when the file is not an ELF file. Release with pulse_elf__close().
 */
int pulse_elf__open(struct pulse_elf *e, const char *path);

/* pulse_elf__close - end libelf's view and close the file; a closed @e is a no-op */
void pulse_elf__close(struct pulse_elf *e);

/**
 * pulse_elf__section - the first section named @name
 * @shdr: its header, filled in when found
 * @idx: its index, filled in when found; may be NULL
 * Return: the section, or NULL (none, or no section name table).
 */
Elf_Scn *pulse_elf__section(Elf *elf, const char *name, GElf_Shdr *shdr, size_t *idx);

#endif
