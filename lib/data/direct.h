/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Big appends to a perf.data written straight to the disk (O_DIRECT)
 * instead of into new page-cache pages (lib/data/direct.c); private to
 * the writer.
 */
#ifndef PULSE_DATA_DIRECT_H
#define PULSE_DATA_DIRECT_H

#include <stddef.h>
#include <sys/uio.h>
#include <linux/types.h>

struct pulse_direct {
	int fd;				/* the file opened O_DIRECT; not owned */
	unsigned char *bounce;		/* DIRECT_BOUNCE bytes, page aligned */
};

/* Appends at least this big go straight to the disk. */
#define PULSE_DIRECT_MIN (1u << 20)

/*
 * Write @total bytes of @iov at @pos of the file: the unaligned head and
 * tail through @fd (buffered), the aligned middle through d->fd; leaves
 * @fd's offset at @pos + @total. Return: 0, or -errno (nothing is cut: the
 * caller writes it all again the buffered way).
 */
int pulse_direct__append(struct pulse_direct *d, int fd, __u64 pos, const struct iovec *iov,
			 int cnt, size_t total);
void pulse_direct__exit(struct pulse_direct *d);

#endif
