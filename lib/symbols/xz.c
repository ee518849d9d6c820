// SPDX-License-Identifier: GPL-2.0
/*
 * Whole .xz streams unpacked through liblzma, loaded with dlopen() (see
 * below): the MiniDebugInfo of .gnu_debugdata.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <pulse/symbols.h>
#include "core/internal.h"

/* ---- .gnu_debugdata (MiniDebugInfo) ---------------------------------------
 *
 * Fedora-style binaries keep, in .gnu_debugdata, an xz-compressed ELF whose
 * .symtab holds the function symbols .dynsym lacks. libelf does not unpack
 * it, so liblzma does: loaded with dlopen() on first use, so that pulse
 * neither links it nor needs its headers to build, and a system without
 * it merely goes without those symbols.
 */
typedef int (*lzma_buffer_decode_fn)(uint64_t *memlimit, uint32_t flags, const void *allocator,
				     const uint8_t *in, size_t *in_pos, size_t in_size,
				     uint8_t *out, size_t *out_pos, size_t out_size);
#define LZMA_OK_ 0
#define LZMA_STREAM_END_ 1
#define LZMA_BUF_ERROR_ 10
#define DEBUGDATA_MAX (256u << 20)

static lzma_buffer_decode_fn lzma_fn;
static pthread_once_t lzma_once = PTHREAD_ONCE_INIT;

static void lzma_load(void)
{
	void *h = dlopen("liblzma.so.5", RTLD_NOW | RTLD_LOCAL);

	if (h)
		lzma_fn = (lzma_buffer_decode_fn)dlsym(h, "lzma_stream_buffer_decode");
	if (!lzma_fn)
		pr_debug("symbols: no liblzma.so.5: .gnu_debugdata is not read\n");
}

/* once per process, and safe when sessions on several threads (diff) ask first */
static lzma_buffer_decode_fn lzma_decoder(void)
{
	pthread_once(&lzma_once, lzma_load);
	return lzma_fn;
}

/**
 * pulse_xz__decode - unpack a whole .xz stream
 * @in: the stream
 * @len: its length
 * @out: set to a malloc()ed buffer on success
 * @out_len: set to its length
 *
 * Return: 0, -ENOSYS without liblzma, -EBADMSG for a corrupt stream, -EFBIG
 * past 256 MiB, -ENOMEM.
 */
int pulse_xz__decode(const void *in, size_t len, void **out, size_t *out_len)
{
	lzma_buffer_decode_fn decode = lzma_decoder();
	size_t cap = len * 8 > 4096 ? len * 8 : 4096;

	if (!decode)
		return -ENOSYS;
	for (;;) {
		uint64_t memlimit = UINT64_MAX;
		size_t in_pos = 0, out_pos = 0;
		uint8_t *buf = malloc(cap);
		int ret;

		if (!buf)
			return -ENOMEM;
		ret = decode(&memlimit, 0, NULL, in, &in_pos, len, buf, &out_pos, cap);
		if (ret == LZMA_OK_ || ret == LZMA_STREAM_END_) {
			*out = buf;
			*out_len = out_pos;
			return 0;
		}
		free(buf);
		if (ret != LZMA_BUF_ERROR_)
			return -EBADMSG;
		if (cap >= DEBUGDATA_MAX)
			return -EFBIG;
		cap *= 2;
	}
}
