// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof writer's gzip stream, deflated at the far end of a pipe
 * (pprof-pipe.c): the writer packs messages into one chunk while the
 * second thread deflates the one before, so packing and deflate overlap.
 * Chunks are large so that zlib is called a few hundred times rather than
 * once per message (each call has a fixed cost). One gzip member, as one
 * thread would write it.
 */
#include <errno.h>
#include <stdlib.h>
#include <zlib.h>
#include "convert/pprof-int.h"

#define PP_GZ_CHUNK (1 << 20)

struct pp_gz {
	z_stream z;
	FILE *out;
	struct pp_pipe *pipe;
	uint64_t bytes;		/* compressed bytes written */
	unsigned char zbuf[1 << 16];
};

/* The pipe's consumer: one chunk into the stream; the last one ends it. */
static int gz__deflate(void *arg, const uint8_t *data, size_t len, bool last)
{
	struct pp_gz *g = arg;
	int flush = last ? Z_FINISH : Z_NO_FLUSH;

	g->z.next_in = (Bytef *)data;
	g->z.avail_in = len;
	for (;;) {
		size_t n;
		int ret;

		g->z.next_out = g->zbuf;
		g->z.avail_out = sizeof(g->zbuf);
		ret = deflate(&g->z, flush);
		if (ret == Z_STREAM_ERROR)
			return -EIO;
		n = sizeof(g->zbuf) - g->z.avail_out;
		if (n && fwrite(g->zbuf, 1, n, g->out) != n)
			return -EIO;
		g->bytes += n;
		/* Z_FINISH: until the trailer is out; else until zlib took all */
		if (last ? ret == Z_STREAM_END : g->z.avail_out != 0)
			return 0;
	}
}

int pp_gz__new(struct pp_gz **out, FILE *f, int level)
{
	struct pp_gz *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return -ENOMEM;
	g->out = f;
	/* windowBits 15 + 16: a gzip wrapper, as pprof's reader wants */
	if (deflateInit2(&g->z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g);
		return -ENOMEM;
	}
	if (pp_pipe__new(&g->pipe, PP_GZ_CHUNK, gz__deflate, g)) {
		deflateEnd(&g->z);
		free(g);
		return -ENOMEM;
	}
	*out = g;
	return 0;
}

int pp_gz__write(struct pp_gz *g, const void *data, size_t len)
{
	return pp_pipe__write(g->pipe, data, len);
}

int pp_gz__finish(struct pp_gz *g, uint64_t *bytes)
{
	int err = pp_pipe__finish(g->pipe);

	*bytes = g->bytes;
	return err;
}

void pp_gz__delete(struct pp_gz *g)
{
	if (!g)
		return;
	/* the thread stopped first: it may be inside deflate() */
	pp_pipe__delete(g->pipe);
	deflateEnd(&g->z);
	free(g);
}
