// SPDX-License-Identifier: GPL-2.0
/*
 * Big appends straight to the disk. A flight recorder's snapshot writes
 * tens of MiB at once; buffered, each page of it is a new page-cache page,
 * and on a VM whose free memory went back to the host that costs more
 * than the disk: 32 MiB took 60-100 ms buffered and 13-15 ms with
 * O_DIRECT here (dd, and the snapshot itself). The pages at both ends
 * that O_DIRECT cannot write (alignment) go the buffered way; the kernel
 * keeps the two coherent, as they never share a block.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/internal.h"
#include "data/direct.h"

#define BLOCK 4096
#define DIRECT_BOUNCE (1u << 20)

static int pwrite_all(int fd, const void *buf, size_t len, __u64 pos)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, pos);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -ENOSPC;
		p += n;
		len -= n;
		pos += n;
	}
	return 0;
}

int pulse_direct__append(struct pulse_direct *d, int fd, __u64 pos, const struct iovec *iov,
			 int cnt, size_t total)
{
	size_t head = (BLOCK - pos % BLOCK) % BLOCK, off = 0, left = total;
	int i = 0, ret;

	if (!d->bounce && posix_memalign((void **)&d->bounce, BLOCK, DIRECT_BOUNCE))
		return -ENOMEM;
	if (head > left)
		head = left;
	if (head) {
		pulse_iov__gather(iov, cnt, &i, &off, d->bounce, head);
		ret = pwrite_all(fd, d->bounce, head, pos);
		if (ret)
			return ret;
		pos += head;
		left -= head;
	}
	while (left >= BLOCK) {
		size_t n = left < DIRECT_BOUNCE ? left / BLOCK * BLOCK : DIRECT_BOUNCE;

		pulse_iov__gather(iov, cnt, &i, &off, d->bounce, n);
		ret = pwrite_all(d->fd, d->bounce, n, pos);
		if (ret)
			return ret;
		pos += n;
		left -= n;
	}
	if (left) {
		pulse_iov__gather(iov, cnt, &i, &off, d->bounce, left);
		ret = pwrite_all(fd, d->bounce, left, pos);
		if (ret)
			return ret;
		pos += left;
	}
	return lseek(fd, pos, SEEK_SET) < 0 ? -errno : 0;
}

void pulse_direct__exit(struct pulse_direct *d)
{
	free(d->bounce);
	d->bounce = NULL;
}
