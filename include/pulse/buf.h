/* SPDX-License-Identifier: GPL-2.0 */
/* A growable byte buffer (lib/core/buf.c), for payloads and whole files. */
#ifndef PULSE_BUF_H
#define PULSE_BUF_H

#include <stddef.h>

struct pulse_buf {
	char *p;	/* owned, free() or pulse_buf__release() */
	size_t len;	/* bytes used */
	size_t alloc;	/* bytes allocated */
};

/* Append @len bytes of @data (zeroes when @data is NULL). Return: 0 or -ENOMEM. */
int pulse_buf__add(struct pulse_buf *b, const void *data, size_t len);

/**
 * pulse_buf__read_file - append a whole file, read until EOF
 * @max: give up with -EFBIG past this many bytes (0: no limit)
 *
 * Files in /proc and tracefs report size 0 and can change while being read,
 * so their size is never trusted. A NUL follows the data in the buffer (not
 * counted in len), so text can be parsed in place.
 * Return: bytes read, or -errno (the buffer keeps what it held before).
 */
long pulse_buf__read_file(struct pulse_buf *b, const char *path, size_t max);

void pulse_buf__release(struct pulse_buf *b);

#endif
