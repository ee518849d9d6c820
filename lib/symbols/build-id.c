// SPDX-License-Identifier: GPL-2.0
/*
 * Build ids of ELF files (through libelf, so notes of either byte order and
 * of either note alignment are converted for us) and of the running kernel
 * (/sys/kernel/notes: the kernel's raw .notes section, 4-byte aligned and
 * native-endian).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/build-id.h>
#include "core/internal.h"
#include "elf-int.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* sysfs note files are a few hundred bytes; a larger one is not a notes file. */
#define NOTES_MAX (1 << 20)

static void set_id(unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len, const void *desc,
		   size_t descsz)
{
	size_t n = descsz < PULSE_BUILD_ID_SIZE ? descsz : PULSE_BUILD_ID_SIZE;

	memset(id, 0, PULSE_BUILD_ID_SIZE);
	memcpy(id, desc, n);
	*len = n;
}

/* Walk the notes of one libelf data block; true when the id was found. */
static bool scan_elf_notes(Elf_Data *data, unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len)
{
	size_t off = 0, name_off, desc_off, next;
	GElf_Nhdr nhdr;

	if (!data || !data->d_buf)
		return false;
	while (off < data->d_size &&
	       (next = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 && nhdr.n_descsz > 0 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4)) {
			set_id(id, len, (const char *)data->d_buf + desc_off, nhdr.n_descsz);
			return true;
		}
		off = next;
	}
	return false;
}

static bool scan_segments(Elf *elf, unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len)
{
	size_t nr;

	if (elf_getphdrnum(elf, &nr))
		return false;
	for (size_t i = 0; i < nr; i++) {
		GElf_Phdr ph;
		Elf_Data *data;

		if (!gelf_getphdr(elf, i, &ph) || ph.p_type != PT_NOTE || !ph.p_filesz)
			continue;
		/* libelf checks the chunk lies inside the file. */
		data = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz,
					    ph.p_align == 8 ? ELF_T_NHDR8 : ELF_T_NHDR);
		if (scan_elf_notes(data, id, len))
			return true;
	}
	return false;
}

static bool scan_sections(Elf *elf, unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		if (scan_elf_notes(elf_getdata(scn, NULL), id, len))
			return true;
	}
	return false;
}

int pulse_build_id__read_file(const char *path, unsigned char id[PULSE_BUILD_ID_SIZE],
			      size_t *len)
{
	struct pulse_elf e;
	int err;

	err = pulse_elf__open(&e, path);
	if (err == -ENOEXEC)
		pr_debug("build-id: %s: not an ELF file\n", path);
	if (err)
		return err;
	if (scan_segments(e.elf, id, len) || scan_sections(e.elf, id, len)) {
		err = 0;
	} else {
		pr_debug("build-id: %s: no GNU build-id note\n", path);
		err = -ENODATA;
	}
	pulse_elf__close(&e);
	return err;
}

int pulse_build_id__read_mem(const void *image, size_t size,
			     unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len)
{
	int err = -ENODATA;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	/* libelf does not write through the image: the cast is only its API's */
	elf = elf_memory((char *)image, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		err = -ENOEXEC;
	else if (scan_segments(elf, id, len) || scan_sections(elf, id, len))
		err = 0;
	if (elf)
		elf_end(elf);
	return err;
}

int pulse_build_id__parse_notes(const void *buf, size_t size,
				unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len)
{
	const unsigned char *p = buf;
	size_t off = 0;

	while (size - off >= 12) {
		uint32_t namesz = get_u32(p + off), descsz = get_u32(p + off + 4);
		uint32_t type = get_u32(p + off + 8);
		size_t name_al = PULSE_ALIGN((size_t)namesz, 4);
		size_t desc_al = PULSE_ALIGN((size_t)descsz, 4);

		off += 12;
		/* Compare against what is left so a huge size cannot wrap. */
		if (name_al > size - off || desc_al > size - (off + name_al))
			return -EBADMSG;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && descsz > 0 &&
		    !memcmp(p + off, "GNU", 4)) {
			set_id(id, len, p + off + name_al, descsz);
			return 0;
		}
		off += name_al + desc_al;
	}
	return -ENODATA;
}

int pulse_build_id__read_notes(const char *path, unsigned char id[PULSE_BUILD_ID_SIZE],
			       size_t *len)
{
	size_t alloc = 4096, used = 0;
	char *buf = NULL;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs reports a size that need not match the contents: read to EOF. */
	for (;;) {
		ssize_t n;

		if (used == alloc || !buf) {
			char *nb;

			if (buf)
				alloc *= 2;
			if (alloc > NOTES_MAX) {
				err = -EFBIG;
				goto out;
			}
			nb = realloc(buf, alloc);
			if (!nb) {
				err = -ENOMEM;
				goto out;
			}
			buf = nb;
		}
		n = read(fd, buf + used, alloc - used);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			goto out;
		}
		if (!n)
			break;
		used += n;
	}
	err = pulse_build_id__parse_notes(buf, used, id, len);
	if (err == -EBADMSG)
		pr_warn("build-id: %s: malformed note\n", path);
out:
	free(buf);
	close(fd);
	return err;
}

int pulse_build_id__read_kernel(unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len)
{
	return pulse_build_id__read_notes("/sys/kernel/notes", id, len);
}

int pulse_build_id__hex(const unsigned char *id, size_t len, char *buf, size_t size)
{
	static const char digits[] = "0123456789abcdef";

	if (size < 2 * len + 1)
		return -ENOSPC;
	for (size_t i = 0; i < len; i++) {
		buf[2 * i] = digits[id[i] >> 4];
		buf[2 * i + 1] = digits[id[i] & 15];
	}
	buf[2 * len] = '\0';
	return (int)(2 * len);
}
