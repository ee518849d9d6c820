// SPDX-License-Identifier: GPL-2.0
/*
 * The pprof tables written as profile.proto, gzipped (pprof reads gzip or
 * plain; the format document says gzip). Messages are packed by protoc-c's
 * generated code one repeated element at a time and streamed through
 * zlib (pprof-gz.c, in a second thread):
 * a Profile message is its fields one after another, in any order, and a
 * repeated message field is simply the field once per element, so the
 * samples never exist as one big message tree in memory. The scalar
 * fields go as one Profile message holding only them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/convert-pprof.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/session.h>
#include "profile.pb-c.h"
#include "convert/pprof-int.h"

struct pw {
	struct pp_gz *gz;
	uint8_t *buf;		/* one packed message */
	size_t alloc;
};

static size_t varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)v | 0x80;
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

/* Field @field (wire type 2) holding @len bytes at @data. */
static int pw__bytes(struct pw *w, uint32_t field, const void *data, size_t len)
{
	uint8_t hdr[20];
	size_t n = varint(hdr, (uint64_t)field << 3 | 2);
	int err;

	n += varint(hdr + n, len);
	err = pp_gz__write(w->gz, hdr, n);
	return err ? err : pp_gz__write(w->gz, data, len);
}

/* w->buf made at least @len bytes. Return: 0 or -ENOMEM. */
static int pw__room(struct pw *w, size_t len)
{
	size_t n = w->alloc ? w->alloc : 4096;
	uint8_t *b;

	while (n < len)
		n *= 2;
	b = realloc(w->buf, n);
	if (!b)
		return -ENOMEM;
	w->buf = b;
	w->alloc = n;
	return 0;
}

/* Field @field holding a packed @msg. */
static int pw__msg(struct pw *w, uint32_t field, const ProtobufCMessage *msg)
{
	size_t len = protobuf_c_message_get_packed_size(msg);

	if (len > w->alloc && pw__room(w, len))
		return -ENOMEM;
	protobuf_c_message_pack(msg, w->buf);
	return pw__bytes(w, field, w->buf, len);
}

static int write_header(struct pw *w, struct pprof *p)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType period_type = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
	struct pulse_clock_data cd;
	uint8_t hdr[128];
	size_t len;
	int err;

	for (size_t c = 0; c < p->nr_columns; c++) {
		Perftools__Profiles__ValueType vt = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;

		vt.type = p->columns[c].type;
		vt.unit = p->columns[c].unit;
		err = pw__msg(w, 1, &vt.base);
		if (err)
			return err;
	}
	if (p->nr_columns > 1) {
		/* pprof shows the default type: the first event's, weighed by period */
		period_type.type = p->columns[1].type;
		period_type.unit = p->columns[1].unit;
		prof.period_type = &period_type;
		prof.period = p->columns[1].period;
		prof.default_sample_type = p->columns[1].type;
	}
	if (p->last_time > p->first_time)
		prof.duration_nanos = p->last_time - p->first_time;
	if (!pulse_data__clock_data(pulse_session__data(p->session), &cd) && p->first_time)
		prof.time_nanos = cd.tod_ns + (p->first_time - cd.clockid_ns);
	else if (p->opts_time)
		prof.time_nanos = p->opts_time - prof.duration_nanos;
	/* only scalars and a 2-field message: a handful of varints */
	len = protobuf_c_message_get_packed_size(&prof.base);
	if (len > sizeof(hdr))
		return -EINVAL;
	protobuf_c_message_pack(&prof.base, hdr);
	return pp_gz__write(w->gz, hdr, len);
}

/* A varint field of a proto3 message: left out when zero, as protoc-c's code does. */
static size_t field_varint(uint8_t *b, uint32_t field, uint64_t v)
{
	size_t n;

	if (!v)
		return 0;
	n = varint(b, (uint64_t)field << 3);
	return n + varint(b + n, v);
}

/* A Label {key, str, num} as field 3 of a Sample. */
static size_t encode_label(uint8_t *b, int64_t key, int64_t str, int64_t num)
{
	uint8_t m[40];
	size_t n = field_varint(m, 1, key);
	size_t h;

	n += field_varint(m + n, 2, str);
	n += field_varint(m + n, 3, num);
	h = varint(b, 3 << 3 | 2);
	h += varint(b + h, n);
	memcpy(b + h, m, n);
	return h + n;
}

/*
 * A packed repeated varint field: the length comes first, so the values
 * go at the widest the length can take and move down after it.
 */
static size_t encode_packed(uint8_t *b, uint32_t field, size_t nr, uint64_t (*at)(const void *, size_t),
			    const void *arg)
{
	size_t h = varint(b, (uint64_t)field << 3 | 2), n = 0, l;
	uint8_t *v = b + h + 10;

	if (!nr)
		return 0;
	for (size_t i = 0; i < nr; i++)
		n += varint(v + n, at(arg, i));
	l = varint(b + h, n);
	memmove(b + h + l, v, n);
	return h + l + n;
}

static uint64_t loc_at(const void *arg, size_t i)
{
	return ((const uint32_t *)arg)[i];
}

static uint64_t value_at(const void *arg, size_t i)
{
	return (uint64_t)((const int64_t *)arg)[i];
}

/*
 * The samples, by hand: protoc-c's generic packing walks the descriptors
 * field by field, and with half a million samples that was a tenth of
 * the conversion. The bytes are the ones it writes (the unit test unpacks
 * them with protoc-c's code).
 */
static int write_samples(struct pw *w, struct pprof *p, int64_t keys[3])
{
	int64_t *values = calloc(p->nr_columns, sizeof(*values));
	int err = values ? 0 : -ENOMEM;

	for (size_t i = 0; i < p->nr_samples && !err; i++) {
		const struct pp_sample *e = &p->samples[i];
		/* per varint at most 10 bytes; 3 labels of 3 varints and headers */
		size_t max = 32 + 10 * (e->nr_locs + p->nr_columns) + 3 * 48, n;

		if (max > w->alloc) {
			err = pw__room(w, max);
			if (err)
				break;
		}
		memset(values, 0, p->nr_columns * sizeof(*values));
		values[0] = e->count;
		values[e->column] += e->value;
		n = encode_packed(w->buf, 1, e->nr_locs, loc_at, p->stack + e->locs);
		n += encode_packed(w->buf + n, 2, p->nr_columns, value_at, values);
		n += encode_label(w->buf + n, keys[0], e->comm, 0);
		n += encode_label(w->buf + n, keys[1], 0, e->pid);
		n += encode_label(w->buf + n, keys[2], 0, e->tid);
		err = pw__bytes(w, 2, w->buf, n);
	}
	free(values);
	return err;
}

static int write_tables(struct pw *w, struct pprof *p)
{
	int err = 0;

	for (size_t i = 0; i < p->nr_mappings && !err; i++) {
		Perftools__Profiles__Mapping m = PERFTOOLS__PROFILES__MAPPING__INIT;
		const struct pp_mapping *e = &p->mappings[i];

		m.id = i + 1;
		m.memory_start = e->start;
		m.memory_limit = e->limit;
		m.file_offset = e->offset;
		m.filename = e->filename;
		m.build_id = e->build_id;
		/* symbolized here: pprof must not look the addresses up again */
		m.has_functions = true;
		m.has_filenames = e->has_lines;
		m.has_line_numbers = e->has_lines;
		err = pw__msg(w, 3, &m.base);
	}
	for (size_t i = 0; i < p->nr_locations && !err; i++) {
		Perftools__Profiles__Location loc = PERFTOOLS__PROFILES__LOCATION__INIT;
		Perftools__Profiles__Line lines[PP_MAX_INLINE], *lp[PP_MAX_INLINE];
		const struct pp_location *e = &p->locations[i];

		loc.id = i + 1;
		loc.mapping_id = e->mapping;
		loc.address = e->address;
		/* innermost first: pprof's order, and ours */
		for (size_t l = 0; l < e->nr_lines && l < PP_MAX_INLINE; l++) {
			perftools__profiles__line__init(&lines[l]);
			lines[l].function_id = p->lines[e->line0 + l].function;
			lines[l].line = p->lines[e->line0 + l].line;
			lp[l] = &lines[l];
		}
		loc.n_line = e->nr_lines < PP_MAX_INLINE ? e->nr_lines : PP_MAX_INLINE;
		loc.line = lp;
		err = pw__msg(w, 4, &loc.base);
	}
	for (size_t i = 0; i < p->nr_functions && !err; i++) {
		Perftools__Profiles__Function f = PERFTOOLS__PROFILES__FUNCTION__INIT;

		f.id = i + 1;
		f.name = p->functions[i].name;
		f.system_name = p->functions[i].name;
		f.filename = p->functions[i].filename;
		f.start_line = p->functions[i].start_line;
		err = pw__msg(w, 5, &f.base);
	}
	for (size_t i = 0; i < p->strs.nr && !err; i++)
		err = pw__bytes(w, 6, p->strs.strs[i], strlen(p->strs.strs[i]));
	return err;
}

/*
 * pprof takes mapping 1 for the main binary (its "File:" and "Build ID:"
 * lines): the executable (not a .so) that most samples end in becomes it,
 * changing ids with the mapping that had 1.
 */
static void pick_main_mapping(struct pprof *p)
{
	uint64_t *hits = calloc(p->nr_mappings + 1, sizeof(*hits)), best_hits = 0;
	uint32_t best = 0;

	if (!hits)
		return;	/* only the order of the list is lost */
	for (size_t i = 0; i < p->nr_samples; i++)
		if (p->samples[i].nr_locs)
			hits[p->locations[p->stack[p->samples[i].locs] - 1].mapping] +=
				p->samples[i].count;
	for (size_t m = 1; m <= p->nr_mappings; m++) {
		const struct pulse_dso *dso = p->mappings[m - 1].dso;

		if (dso->kind == PULSE_DSO_USER && !strstr(dso->short_name, ".so") &&
		    hits[m] > best_hits) {
			best = m;
			best_hits = hits[m];
		}
	}
	free(hits);
	if (best <= 1)
		return;
	for (size_t i = 0; i < p->nr_locations; i++) {
		if (p->locations[i].mapping == best)
			p->locations[i].mapping = 1;
		else if (p->locations[i].mapping == 1)
			p->locations[i].mapping = best;
	}
	{
		struct pp_mapping t = p->mappings[0];

		p->mappings[0] = p->mappings[best - 1];
		p->mappings[best - 1] = t;
	}
}

int pprof__write(struct pprof *p, FILE *out, const struct pulse_pprof_opts *opts)
{
	struct pw *w = calloc(1, sizeof(*w));
	int64_t keys[3];
	int level = opts && opts->gzip_level ? opts->gzip_level : 1;
	int err;

	if (!w)
		return -ENOMEM;
	keys[0] = pp_strings__intern(&p->strs, "comm", false);
	keys[1] = pp_strings__intern(&p->strs, "pid", false);
	keys[2] = pp_strings__intern(&p->strs, "tid", false);
	if (keys[0] < 0 || keys[1] < 0 || keys[2] < 0) {
		free(w);
		return -ENOMEM;
	}
	p->opts_time = opts ? opts->end_time_nanos : 0;
	if (pp_gz__new(&w->gz, out, level)) {
		free(w);
		return -ENOMEM;
	}
	pick_main_mapping(p);
	err = write_header(w, p);
	if (!err)
		err = write_samples(w, p, keys);
	if (!err)
		err = write_tables(w, p);
	if (!err)
		err = pp_gz__finish(w->gz, &p->st.bytes);
	pp_gz__delete(w->gz);
	p->st.nr_pprof_samples = p->nr_samples;
	p->st.nr_locations = p->nr_locations;
	p->st.nr_functions = p->nr_functions;
	p->st.nr_mappings = p->nr_mappings;
	free(w->buf);
	free(w);
	return err;
}
