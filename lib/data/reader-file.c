// SPDX-License-Identifier: GPL-2.0
/*
 * File mode: the header, the attr table and the feature table, each checked
 * against the file size; a byte-swapped file's are swapped on private
 * copies. A header never finalised (a killed recorder) switches the reader
 * to recovery: records are read past data.size up to the end of the file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pulse/features.h>
#include "data/reader-internal.h"

static bool section_ok(const struct pulse_file_section *s, __u64 file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

static bool feat_bit(const struct pulse_file_header *h, unsigned int bit)
{
	return h->adds_features[bit / 64] >> (bit % 64) & 1;
}

static int read_attrs(struct pulse_data *d)
{
	const struct pulse_file_header *h = &d->hdr;
	size_t nr;

	if (!section_ok(&h->attrs, d->file_size))
		return PULSE_CORRUPT(24, "attrs section outside the file");
	if (!h->attrs.size)
		return 0;
	if (h->attr_size < ATTR_SIZE_VER0 + sizeof(struct pulse_file_section) ||
	    h->attr_size > h->attrs.size || h->attrs.size % h->attr_size)
		return PULSE_CORRUPT(16, "bad attr_size");
	nr = h->attrs.size / h->attr_size;
	for (size_t i = 0; i < nr; i++) {
		__u64 off = h->attrs.offset + i * h->attr_size;
		const unsigned char *p = d->mem + off;
		struct pulse_file_section ids;
		struct perf_event_attr attr;
		size_t used;
		int err;

		if (d->swapped) {
			unsigned char *tmp = malloc(h->attr_size);

			if (!tmp)
				return -ENOMEM;
			memcpy(tmp, p, h->attr_size);
			err = pulse_attr__swap(tmp, h->attr_size - sizeof(ids), true);
			if (!err)
				err = pulse_data__copy_attr(&attr, tmp, h->attr_size - sizeof(ids),
							    off, &used);
			free(tmp);
			if (err == -EBADMSG && !pulse_data__has_error())
				err = PULSE_CORRUPT(off, "bad attr.size");
		} else {
			err = pulse_data__copy_attr(&attr, p, h->attr_size - sizeof(ids), off,
						    &used);
		}
		if (err)
			return err;
		/* perf reads the ids section right after attr.size bytes */
		memcpy(&ids, p + used, sizeof(ids));
		ids.offset = bswap64_if(d->swapped, ids.offset);
		ids.size = bswap64_if(d->swapped, ids.size);
		if (!section_ok(&ids, d->file_size) || ids.size % 8)
			return PULSE_CORRUPT(off + used, "attr ids section outside the file");
		err = pulse_data__add_attr(d, &attr, d->mem + ids.offset, ids.size / 8);
		if (err)
			return err;
		if (d->swapped)
			for (size_t j = 0; j < d->attrs[d->nr_attrs - 1]->nr_ids; j++)
				d->attrs[d->nr_attrs - 1]->ids[j] =
					__builtin_bswap64(d->attrs[d->nr_attrs - 1]->ids[j]);
	}
	return 0;
}

static int read_features(struct pulse_data *d)
{
	const struct pulse_file_header *h = &d->hdr;
	__u64 table = d->data_offset + d->data_size;
	size_t nr = 0, k = 0;

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++)
		nr += feat_bit(h, bit);
	if (!nr)
		return 0;
	if (d->data_cut) {
		pr_warn("%s: data section runs past the end of the file; "
			"the features after it are lost\n", d->path ? d->path : "perf.data");
		return 0;
	}
	if (table > d->file_size || nr * sizeof(struct pulse_file_section) > d->file_size - table)
		return PULSE_CORRUPT(table, "feature table outside the file");

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++) {
		__u64 off = table + k * sizeof(struct pulse_file_section);
		struct pulse_file_section s;

		if (!feat_bit(h, bit))
			continue;
		k++;
		memcpy(&s, d->mem + off, sizeof(s));
		s.offset = bswap64_if(d->swapped, s.offset);
		s.size = bswap64_if(d->swapped, s.size);
		if (!section_ok(&s, d->file_size))
			return PULSE_CORRUPT(off, "feature section outside the file");
		if (d->swapped && bit != PULSE_FEAT_TRACING_DATA) {
			void *copy = malloc(s.size ? s.size : 1);

			if (!copy)
				return -ENOMEM;
			memcpy(copy, d->mem + s.offset, s.size);
			if (pulse_feat__swap(bit, copy, s.size, true)) {
				pr_debug("perf.data: feature %u of a byte-swapped file dropped: "
					 "unknown or damaged layout\n", bit);
				free(copy);
				continue;
			}
			d->feats[bit] = (struct feat_ent){ copy, s.size, true };
			continue;
		}
		d->feats[bit] = (struct feat_ent){ d->mem + s.offset, s.size, false };
	}
	if (d->feats[PULSE_FEAT_TRACING_DATA].p) {
		d->tracing = d->feats[PULSE_FEAT_TRACING_DATA].p;
		d->tracing_len = d->feats[PULSE_FEAT_TRACING_DATA].len;
	}
	if (d->feats[PULSE_FEAT_EVENT_DESC].p)
		pulse_data__parse_event_desc(d, d->feats[PULSE_FEAT_EVENT_DESC].p,
				 d->feats[PULSE_FEAT_EVENT_DESC].len,
				 d->feats[PULSE_FEAT_EVENT_DESC].owned ? 0 :
				 (const unsigned char *)d->feats[PULSE_FEAT_EVENT_DESC].p - d->mem);
	return 0;
}

/* Does a whole, in-file feature table sit at @table? (no side effects) */
static bool feature_table_ok(const struct pulse_data *d, __u64 table)
{
	size_t nr = 0;

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++)
		nr += feat_bit(&d->hdr, bit);
	if (table > d->file_size || nr * sizeof(struct pulse_file_section) > d->file_size - table)
		return false;
	for (size_t k = 0; k < nr; k++) {
		struct pulse_file_section s;

		memcpy(&s, d->mem + table + k * sizeof(s), sizeof(s));
		s.offset = bswap64_if(d->swapped, s.offset);
		s.size = bswap64_if(d->swapped, s.size);
		if (!section_ok(&s, d->file_size))
			return false;
	}
	return true;
}

int pulse_data__open_file(struct pulse_data *d)
{
	struct pulse_file_header *h = &d->hdr;
	bool any_feat = false;
	int err;

	if (d->mem_len < FILE_HEADER_SIZE_OLD)
		return PULSE_CORRUPT(0, "file header cut short");
	memset(h, 0, sizeof(*h));
	memcpy(h, d->mem, FILE_HEADER_SIZE_OLD);
	if (bswap64_if(d->swapped, h->size) == FILE_HEADER_SIZE) {
		if (d->mem_len < FILE_HEADER_SIZE)
			return PULSE_CORRUPT(0, "file header cut short");
		memcpy(h, d->mem, FILE_HEADER_SIZE);
	}
	if (d->swapped) {
		/* every header field is a u64; so is each word of the feature bitmap */
		__u64 *w = (__u64 *)h;

		for (size_t i = 0; i < sizeof(*h) / 8; i++)
			w[i] = __builtin_bswap64(w[i]);
	}
	if (h->size != FILE_HEADER_SIZE && h->size != FILE_HEADER_SIZE_OLD) {
		return PULSE_CORRUPT(8, "bad file header size");
	}
	d->file_size = d->mem_len;
	d->data_offset = h->data.offset;
	d->data_size = h->data.size;
	if (h->data.offset > d->file_size || h->data.offset < h->size)
		return PULSE_CORRUPT(40, "data section outside the file");
	if (h->data.size > UINT64_MAX - h->data.offset)
		return PULSE_CORRUPT(48, "bad data section size");

	err = read_attrs(d);
	if (err)
		return err;
	err = pulse_data__index_ids(d);
	if (err)
		return err;

	for (unsigned int bit = 1; bit < PULSE_FEAT_MAX; bit++)
		any_feat |= feat_bit(h, bit);
	/*
	 * A recorder killed before its final header rewrite leaves either no
	 * feature bits (pulse's periodic rewrite) or data.size 0 (perf's
	 * first header, whose feature bits point at a table never written).
	 * A finished file without records has data.size 0 too, but then its
	 * feature table is where it belongs.
	 */
	if ((h->data.size == 0 && !(any_feat && feature_table_ok(d, h->data.offset))) ||
	    (!any_feat && d->file_size > h->data.offset + h->data.size)) {
		d->recovering = true;
		d->declared_end = d->file_size;
		pr_debug("perf.data: header never finalised: reading records up to EOF\n");
		return 0;
	}
	d->declared_end = h->data.offset + h->data.size;
	d->data_cut = d->declared_end > d->file_size;
	return read_features(d);
}
