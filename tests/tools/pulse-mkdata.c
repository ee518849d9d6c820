// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-mkdata: writes synthetic variants of a perf.data file for the
 * format tests, things perf on this machine cannot record:
 *
 *   pulse-mkdata swap IN OUT       the file as a machine of the other byte
 *                                  order would have written it (file or
 *                                  pipe mode; features whose layout pulse
 *                                  does not know are dropped)
 *   pulse-mkdata auxtrace IN OUT N an AUXTRACE record with N payload bytes
 *                                  (0x5a) at the end of the data section
 *   pulse-mkdata pipe IN OUT       a file-mode file as a pipe-mode stream:
 *                                  HEADER_ATTRs, tracing data, then the
 *                                  records (COMPRESSED ones unpacked)
 *   pulse-mkdata dump IN -         what the reader makes of IN: attrs, ids,
 *                                  features and every record, byte by byte
 *                                  (hashed), to compare two variants
 *
 * It reads IN with the library, so IN must be undamaged.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/reader.h>

static unsigned char *out;
static size_t out_len;
static unsigned char *in;
static size_t in_len;

static void die(const char *what)
{
	fprintf(stderr, "pulse-mkdata: %s\n", what);
	exit(1);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	struct stat st;

	if (!f || fstat(fileno(f), &st))
		die("cannot open the input");
	buf = malloc(st.st_size + 1);
	if (!buf || fread(buf, 1, st.st_size, f) != (size_t)st.st_size)
		die("cannot read the input");
	fclose(f);
	*len = st.st_size;
	return buf;
}

static void spit(const char *path, const void *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		die("cannot write the output");
}

static __u64 rd64(const void *p)
{
	__u64 v;

	memcpy(&v, p, 8);
	return v;
}

static void wr64(void *p, __u64 v)
{
	memcpy(p, &v, 8);
}

static void swap64s(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		wr64(p + 8 * i, __builtin_bswap64(rd64(p + 8 * i)));
}

static int swap_cb(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		   void *arg)
{
	int idx = pulse_data__attr_of(d, rec, rec->size);
	int err;

	if (rec->type == PERF_RECORD_COMPRESSED)
		die("cannot swap COMPRESSED records (unpack with `pipe` first)");
	if (off + rec->size > out_len)
		die("record outside the file");
	memcpy(out + off, rec, rec->size);
	err = pulse_event__swap(out + off, rec->size,
				pulse_data__attr(d, idx < 0 ? 0 : idx), false);
	if (err && !(err == -EOPNOTSUPP && rec->type == PERF_RECORD_HEADER_FEATURE))
		die("a record does not fit its layout");
	return 0;
}

static void do_swap(struct pulse_data *d)
{
	struct pulse_file_header h;
	unsigned char *table;
	size_t nr = 0, kept = 0;

	out = malloc(in_len);
	out_len = in_len;
	memcpy(out, in, in_len);
	if (pulse_data__has_feat(d, PULSE_FEAT_COMPRESSED) && !pulse_data__is_pipe(d))
		die("cannot swap a file with COMPRESSED records (unpack with `pipe` first)");
	if (pulse_data__for_each_record(d, swap_cb, NULL))
		die("cannot walk the records");
	if (pulse_data__is_pipe(d)) {
		swap64s(out, 2);
		return;
	}
	memcpy(&h, in, sizeof(h));
	for (__u64 off = h.attrs.offset; off < h.attrs.offset + h.attrs.size; off += h.attr_size) {
		__u32 asz;
		struct pulse_file_section ids;

		memcpy(&asz, in + off + 4, 4);
		asz = asz ? asz : 64;
		memcpy(&ids, in + off + asz, sizeof(ids));
		swap64s(out + ids.offset, ids.size / 8);
		swap64s(out + off + asz, 2);
		if (pulse_attr__swap(out + off, h.attr_size - 16, false))
			die("bad attr");
	}
	/* the feature table, without the sections that cannot be swapped */
	table = out + h.data.offset + h.data.size;
	for (int bit = 1; bit < PULSE_FEAT_MAX; bit++) {
		struct pulse_file_section s;

		if (!(h.adds_features[bit / 64] >> (bit % 64) & 1))
			continue;
		memcpy(&s, in + h.data.offset + h.data.size + 16 * nr++, sizeof(s));
		if (pulse_feat__swap(bit, out + s.offset, s.size, false)) {
			fprintf(stderr, "pulse-mkdata: feature %d dropped\n", bit);
			h.adds_features[bit / 64] &= ~(1ULL << (bit % 64));
			continue;
		}
		wr64(table + 16 * kept, __builtin_bswap64(s.offset));
		wr64(table + 16 * kept + 8, __builtin_bswap64(s.size));
		kept++;
	}
	memset(table + 16 * kept, 0, 16 * (nr - kept));
	memcpy(out, &h, sizeof(h));
	swap64s(out, sizeof(h) / 8);
}

static void do_auxtrace(struct pulse_data *d, size_t n)
{
	struct pulse_file_header h;
	size_t rec = 48 + ((n + 7) & ~(size_t)7), end;
	unsigned char aux[48] = { 0 };
	__u64 v;

	if (pulse_data__is_pipe(d)) {
		end = in_len;
	} else {
		memcpy(&h, in, sizeof(h));
		end = h.data.offset + h.data.size;
	}
	out_len = in_len + rec;
	out = calloc(1, out_len);
	memcpy(out, in, end);
	memcpy(out + end + rec, in + end, in_len - end);
	/* header; u64 size, offset, reference; u32 idx, tid, cpu, reserved */
	v = PERF_RECORD_AUXTRACE | 48ULL << 48;
	memcpy(aux, &v, 8);
	wr64(aux + 8, (n + 7) & ~(size_t)7);
	memcpy(out + end, aux, 48);
	memset(out + end + 48, 0x5a, n);
	if (pulse_data__is_pipe(d))
		return;
	/* features move by what was inserted */
	for (int bit = 1, k = 0; bit < PULSE_FEAT_MAX; bit++) {
		unsigned char *s;

		if (!(h.adds_features[bit / 64] >> (bit % 64) & 1))
			continue;
		s = out + end + rec + 16 * k++;
		wr64(s, rd64(s) + rec);
	}
	h.data.size += rec;
	memcpy(out, &h, sizeof(h));
}

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static int pipe_cb(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		   void *arg)
{
	if (rec->type == PERF_RECORD_HEADER_TRACING_DATA || rec->type == PERF_RECORD_AUXTRACE ||
	    rec->type == PERF_RECORD_HEADER_ATTR)
		return 0;
	put(arg, rec, rec->size);
	return 0;
}

static void do_pipe(struct pulse_data *d)
{
	struct buf b = { 0 };
	__u64 hdr[2] = { PULSE_FILE_MAGIC, 16 };
	const void *t;
	size_t tlen;

	if (pulse_data__is_pipe(d))
		die("already pipe mode");
	put(&b, hdr, 16);
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++) {
		struct perf_event_attr a = *pulse_data__attr(d, i);
		struct perf_event_header eh = { PERF_RECORD_HEADER_ATTR, 0, 0 };
		size_t nr;
		const __u64 *ids = pulse_data__attr_ids(d, i, &nr);

		a.size = PULSE_FILE_ATTR_SIZE;
		eh.size = 8 + PULSE_FILE_ATTR_SIZE + 8 * nr;
		put(&b, &eh, 8);
		put(&b, &a, PULSE_FILE_ATTR_SIZE);
		put(&b, ids, 8 * nr);
	}
	t = pulse_data__tracing_data(d, &tlen);
	if (t) {
		struct { struct perf_event_header h; __u32 size, pad; } tr = {
			{ PERF_RECORD_HEADER_TRACING_DATA, 0, 16 }, tlen, 0 };
		static const unsigned char zero[8];

		put(&b, &tr, sizeof(tr));
		put(&b, t, tlen);
		put(&b, zero, ((tlen + 7) & ~(size_t)7) - tlen);
	}
	if (pulse_data__for_each_record(d, pipe_cb, &b))
		die("cannot walk the records");
	out = b.p;
	out_len = b.len;
}

/* FNV-1a: enough to tell two records apart in a test's diff */
static unsigned long long fnv(const void *p, size_t n)
{
	unsigned long long h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * 0x100000001b3ULL;
	return h;
}

static int dump_cb(struct pulse_data *d, const struct perf_event_header *rec, __u64 off,
		   void *arg)
{
	printf("record at %#llx type %u size %u %016llx\n", (unsigned long long)off, rec->type,
	       rec->size, fnv(rec, rec->size));
	return 0;
}

static void do_dump(struct pulse_data *d)
{
	for (size_t i = 0; i < pulse_data__nr_attrs(d); i++) {
		size_t nr;
		const __u64 *ids = pulse_data__attr_ids(d, i, &nr);
		const char *name = pulse_data__attr_name(d, i);

		printf("attr %zu %016llx ids %016llx name %s\n", i,
		       fnv(pulse_data__attr(d, i), sizeof(struct perf_event_attr)),
		       fnv(ids, 8 * nr), name ? name : "-");
	}
	for (int f = 1; f < PULSE_FEAT_MAX; f++) {
		size_t len;
		const void *p = pulse_data__feat(d, f, &len);

		if (p)
			printf("feature %d %zu %016llx\n", f, len, fnv(p, len));
	}
	if (pulse_data__for_each_record(d, dump_cb, NULL))
		die("cannot walk the records");
}

int main(int argc, char **argv)
{
	struct pulse_data *d;

	if (argc < 4)
		die("usage: pulse-mkdata swap|auxtrace|pipe IN OUT [N]");
	in = slurp(argv[2], &in_len);
	if (pulse_data__open_mem(&d, in, in_len))
		die("cannot read the input");
	if (!strcmp(argv[1], "swap"))
		do_swap(d);
	else if (!strcmp(argv[1], "auxtrace"))
		do_auxtrace(d, argc > 4 ? strtoul(argv[4], NULL, 0) : 4096);
	else if (!strcmp(argv[1], "pipe"))
		do_pipe(d);
	else if (!strcmp(argv[1], "dump"))
		do_dump(d);
	else
		die("unknown mode");
	if (out)
		spit(argv[3], out, out_len);
	pulse_data__close(d);
	free(in);
	free(out);
	return 0;
}
