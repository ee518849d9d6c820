/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Build ids: the NT_GNU_BUILD_ID note of an ELF file or of the running
 * kernel, which the BUILD_ID feature and HEADER_BUILD_ID records carry so a
 * report can match a profile to the exact binaries it was taken on.
 *
 * Ids longer than PULSE_BUILD_ID_SIZE are cut to it, as perf does: perf.data
 * has room for 20 bytes (a SHA-1) only.
 */
#ifndef PULSE_BUILD_ID_H
#define PULSE_BUILD_ID_H

#include <stddef.h>
#include <pulse/data.h>		/* PULSE_BUILD_ID_SIZE: what perf.data has room for */

/* Hex form plus NUL. */
#define PULSE_BUILD_ID_HEX_SIZE (2 * PULSE_BUILD_ID_SIZE + 1)

/**
 * pulse_build_id__read_file - build id of an ELF file
 * @path: the file
 * @id: filled with the id, zero-padded to PULSE_BUILD_ID_SIZE
 * @len: set to the valid bytes in @id
 *
 * Looks in the PT_NOTE segments first, then in SHT_NOTE sections (a
 * separate debug file has sections but its segments are stale).
 *
 * Return: 0; -ENOENT/-EACCES/... from open(); -ENOEXEC when not ELF;
 * -ENODATA when the file has no GNU build-id note.
 */
int pulse_build_id__read_file(const char *path, unsigned char id[PULSE_BUILD_ID_SIZE],
			      size_t *len);

/**
 * pulse_build_id__read_mem - build id of an ELF image in memory (the vDSO)
 * Return: as pulse_build_id__read_file().
 */
int pulse_build_id__read_mem(const void *image, size_t size,
			     unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len);

/**
 * pulse_build_id__read_notes - build id from a file of raw ELF notes
 * @path: e.g. /sys/kernel/notes or /sys/module/<m>/notes/.note.gnu.build-id
 *
 * Return: as pulse_build_id__read_file(); -EBADMSG for a malformed note.
 */
int pulse_build_id__read_notes(const char *path, unsigned char id[PULSE_BUILD_ID_SIZE],
			       size_t *len);

/**
 * pulse_build_id__read_kernel - build id of the running kernel, from
 * /sys/kernel/notes. Return: as pulse_build_id__read_notes().
 */
int pulse_build_id__read_kernel(unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len);

/**
 * pulse_build_id__parse_notes - find the GNU build-id in a buffer of ELF
 * notes (Elf_Nhdr, name, desc, each padded to 4 bytes), native-endian.
 *
 * Return: 0; -ENODATA when there is none; -EBADMSG when a note's sizes
 * point past the buffer.
 */
int pulse_build_id__parse_notes(const void *buf, size_t size,
				unsigned char id[PULSE_BUILD_ID_SIZE], size_t *len);

/**
 * pulse_build_id__hex - format an id as lower-case hex, as perf prints it
 * @buf: receives 2 * @len characters and a NUL
 *
 * Return: the characters written (without the NUL), or -ENOSPC when @size
 * is too small.
 */
int pulse_build_id__hex(const unsigned char *id, size_t len, char *buf, size_t size);

#endif
