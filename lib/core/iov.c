// SPDX-License-Identifier: GPL-2.0
/* Records laid over iovecs: a ring's batch comes in one or two pieces. */
#include <string.h>
#include <sys/uio.h>
#include "core/internal.h"

void pulse_iov__gather(const struct iovec *iov, int cnt, int *i, size_t *off, void *dst,
		       size_t len)
{
	unsigned char *d = dst;

	while (len && *i < cnt) {
		size_t n = iov[*i].iov_len - *off;

		if (n > len)
			n = len;
		memcpy(d, (const unsigned char *)iov[*i].iov_base + *off, n);
		d += n;
		len -= n;
		*off += n;
		if (*off == iov[*i].iov_len) {
			(*i)++;
			*off = 0;
		}
	}
}

const void *pulse_iov__at(const struct iovec *iov, int cnt, size_t pos, size_t n, void *buf)
{
	size_t got = 0;
	int i = 0;

	while (i < cnt && pos >= iov[i].iov_len)
		pos -= iov[i++].iov_len;
	if (i == cnt)
		return NULL;
	if (pos + n <= iov[i].iov_len)
		return (const char *)iov[i].iov_base + pos;
	for (; i < cnt && got < n; i++, pos = 0) {
		size_t k = iov[i].iov_len - pos;

		if (k > n - got)
			k = n - got;
		memcpy((char *)buf + got, (const char *)iov[i].iov_base + pos, k);
		got += k;
	}
	return got == n ? buf : NULL;
}
