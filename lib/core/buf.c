// SPDX-License-Identifier: GPL-2.0
/* struct pulse_buf: a growable byte buffer; see include/pulse/buf.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pulse/buf.h>

static int buf_reserve(struct pulse_buf *b, size_t len)
{
	size_t na = b->alloc ? b->alloc : 256;
	char *np;

	if (len > SIZE_MAX - b->len)
		return -ENOMEM;
	if (b->len + len <= b->alloc)
		return 0;
	while (na < b->len + len) {
		if (na > SIZE_MAX / 2)
			return -ENOMEM;
		na *= 2;
	}
	np = realloc(b->p, na);
	if (!np)
		return -ENOMEM;
	b->p = np;
	b->alloc = na;
	return 0;
}

int pulse_buf__add(struct pulse_buf *b, const void *data, size_t len)
{
	int err;

	if (!len)
		return 0;
	err = buf_reserve(b, len);
	if (err)
		return err;
	if (data)
		memcpy(b->p + b->len, data, len);
	else
		memset(b->p + b->len, 0, len);
	b->len += len;
	return 0;
}

long pulse_buf__read_file(struct pulse_buf *b, const char *path, size_t max)
{
	size_t start = b->len;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		/* room for a read and the trailing NUL */
		if ((err = buf_reserve(b, 4096 + 1)))
			break;
		n = read(fd, b->p + b->len, b->alloc - b->len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		if (!n)
			break;
		b->len += n;
		if (max && b->len - start > max) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (err) {
		b->len = start;
		return err;
	}
	b->p[b->len] = '\0';
	return (long)(b->len - start);
}

void pulse_buf__release(struct pulse_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->alloc = 0;
}
