// SPDX-License-Identifier: GPL-2.0
/*
 * The reader's attrs: each event's attr (copied from any attr.size into a
 * full struct), its sample ids and its name (EVENT_DESC, EVENT_UPDATE),
 * and routing a record to its attr by the id its sample_type puts in it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "data/reader-internal.h"

/* ---- attrs and ids ------------------------------------------------------ */

/* Rebuild the id index and the id-position fast path. */
int pulse_data__index_ids(struct pulse_data *d)
{
	struct pulse_id_index ids;
	size_t n = 0;
	int err;

	/* built aside: on -ENOMEM the reader keeps its old index */
	pulse_id_index__init(&ids);
	for (size_t i = 0; i < d->nr_attrs; i++)
		n += d->attrs[i]->nr_ids;
	err = pulse_id_index__reserve(&ids, n);
	for (size_t i = 0; i < d->nr_attrs && !err; i++)
		for (size_t j = 0; j < d->attrs[i]->nr_ids && !err; j++)
			err = pulse_id_index__add(&ids, d->attrs[i]->ids[j], i);
	if (err) {
		pulse_id_index__exit(&ids);
		return err;
	}
	pulse_id_index__sort(&ids);
	pulse_id_index__exit(&d->ids);
	d->ids = ids;

	d->same_id_pos = true;
	for (size_t i = 1; i < d->nr_attrs; i++) {
		const struct perf_event_attr *a = &d->attrs[0]->attr, *b = &d->attrs[i]->attr;

		if (pulse_sample__id_offset(a->sample_type, true) !=
			    pulse_sample__id_offset(b->sample_type, true) ||
		    a->sample_id_all != b->sample_id_all ||
		    (a->sample_id_all &&
		     pulse_sample__id_offset(a->sample_type, false) !=
			     pulse_sample__id_offset(b->sample_type, false)))
			d->same_id_pos = false;
	}
	/* looked up for every record: computed once here */
	if (d->nr_attrs) {
		const struct perf_event_attr *a = &d->attrs[0]->attr;

		d->id_pos[true] = pulse_sample__id_offset(a->sample_type, true);
		d->id_pos[false] = a->sample_id_all ? pulse_sample__id_offset(a->sample_type, false)
						    : INT32_MIN;
	}
	return 0;
}

/*
 * Copy an on-disk attr of any size into a full struct. Smaller attrs are
 * older ABIs (the missing fields are zero by definition); larger ones are
 * fine as long as the fields we do not know are zero.
 */
int pulse_data__copy_attr(struct perf_event_attr *dst, const unsigned char *src, size_t avail,
			  __u64 off, size_t *used)
{
	__u32 sz;

	if (avail < ATTR_SIZE_VER0)
		return PULSE_CORRUPT(off, "attr cut short");
	sz = get_u32(src + offsetof(struct perf_event_attr, size));
	if (!sz)
		sz = ATTR_SIZE_VER0;
	if (sz < ATTR_SIZE_VER0 || sz > avail)
		return PULSE_CORRUPT(off, "bad attr.size");
	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, sz < sizeof(*dst) ? sz : sizeof(*dst));
	for (size_t i = sizeof(*dst); i < sz; i++) {
		if (src[i]) {
			pr_warn("perf.data: the attr at offset %#llx is %u bytes with fields this "
				"pulse does not know (byte %zu is not zero); not supported\n",
				(unsigned long long)off, sz, i);
			return -EOPNOTSUPP;
		}
	}
	dst->size = sizeof(*dst);
	*used = sz;
	return 0;
}

int pulse_data__add_attr(struct pulse_data *d, const struct perf_event_attr *attr,
			 const unsigned char *ids, size_t nr_ids)
{
	struct attr_ent *a;

	struct attr_ent **v;

	/* entries stay put: pointers handed out survive later HEADER_ATTRs */
	v = realloc(d->attrs, (d->nr_attrs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	d->attrs = v;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->attr = *attr;
	if (nr_ids) {
		a->ids = malloc(nr_ids * sizeof(__u64));
		if (!a->ids) {
			free(a);
			return -ENOMEM;
		}
		memcpy(a->ids, ids, nr_ids * sizeof(__u64));
		a->nr_ids = nr_ids;
	}
	d->attrs[d->nr_attrs++] = a;
	return 0;
}

int pulse_data__add_synth_attr(struct pulse_data *d, const struct perf_event_attr *attr,
			       uint64_t id, const char *name)
{
	__u64 ids[1] = { id };
	int err;

	err = pulse_data__add_attr(d, attr, (const unsigned char *)ids, 1);
	if (err)
		return err;
	d->attrs[d->nr_attrs - 1]->name = strdup(name);
	if (!d->attrs[d->nr_attrs - 1]->name)
		return -ENOMEM;
	return pulse_data__index_ids(d);
}

static void set_name(struct pulse_data *d, __u64 id, size_t fallback_idx, const char *name,
		     size_t len)
{
	int idx = id ? pulse_data__attr_of_id(d, id) : -ENOENT;
	struct attr_ent *a;

	if (idx < 0) {
		if (fallback_idx >= d->nr_attrs)
			return;
		idx = fallback_idx;
	}
	a = d->attrs[idx];
	if (a->name)
		return;
	a->name = strndup(name, len);
}

/*
 * EVENT_DESC: u32 nr, u32 attr_size, then per event the attr, u32 nr_ids,
 * a perf_header_string name (u32 len; char[len]) and the ids. Names are
 * matched to attrs by their first id, as perf does. A malformed payload
 * only loses the names.
 */
void pulse_data__parse_event_desc(struct pulse_data *d, const unsigned char *p, size_t len,
				  __u64 off)
{
	size_t pos = 8;
	__u32 nr, asz;

	if (len < 8)
		goto bad;
	nr = get_u32(p);
	asz = get_u32(p + 4);
	if (asz < ATTR_SIZE_VER0)
		goto bad;
	for (__u32 i = 0; i < nr; i++) {
		__u32 nr_ids, slen;
		const char *name;

		if (asz > len - pos || len - pos - asz < 8)
			goto bad;
		pos += asz;
		nr_ids = get_u32(p + pos);
		slen = get_u32(p + pos + 4);
		pos += 8;
		if (slen > len - pos)
			goto bad;
		name = (const char *)p + pos;
		pos += slen;
		if (nr_ids > (len - pos) / 8)
			goto bad;
		set_name(d, nr_ids ? get_u64(p + pos) : 0, i, name, strnlen(name, slen));
		pos += (size_t)nr_ids * 8;
	}
	return;
bad:
	pr_warn("perf.data: malformed EVENT_DESC at offset %#llx, event names ignored\n",
		(unsigned long long)off);
}

/* ---- accessors ------------------------------------------------------------ */

size_t pulse_data__nr_attrs(const struct pulse_data *d)
{
	return d->nr_attrs;
}

const struct perf_event_attr *pulse_data__attr(const struct pulse_data *d, size_t idx)
{
	return idx < d->nr_attrs ? &d->attrs[idx]->attr : NULL;
}

const __u64 *pulse_data__attr_ids(const struct pulse_data *d, size_t idx, size_t *nr)
{
	if (idx >= d->nr_attrs) {
		*nr = 0;
		return NULL;
	}
	*nr = d->attrs[idx]->nr_ids;
	return d->attrs[idx]->ids;
}

const char *pulse_data__attr_name(const struct pulse_data *d, size_t idx)
{
	return idx < d->nr_attrs ? d->attrs[idx]->name : NULL;
}

int pulse_data__attr_of_id(const struct pulse_data *d, __u64 id)
{
	return pulse_id_index__find(&d->ids, id);
}

/* The attr of the id found at @off (pulse_sample__id_offset()); 0 when none. */
static int attr_of_id_at(const struct pulse_data *d, const unsigned char *rec, size_t hsize,
			 int off, bool swap)
{
	__u64 id;

	if (off == INT32_MIN)
		return 0;
	if (off >= 0) {
		if ((size_t)off + 8 > hsize)
			return -EBADMSG;
	} else if ((size_t)-off > hsize - sizeof(struct perf_event_header)) {
		return -EBADMSG;
	}
	id = bswap64_if(swap, get_u64(rec + (off >= 0 ? (size_t)off : hsize + off)));
	return id ? pulse_data__attr_of_id(d, id) : 0;
}

/* The attr of the id found where @attr's layout puts it; 0 when it has none. */
static int attr_of_layout(const struct pulse_data *d, const unsigned char *rec, size_t hsize,
			  bool is_sample, const struct perf_event_attr *attr, bool swap)
{
	if (!is_sample && !attr->sample_id_all)
		return 0;
	return attr_of_id_at(d, rec, hsize, pulse_sample__id_offset(attr->sample_type, is_sample),
			     swap);
}

/* pulse_data__attr_of() of a native record or, with @swap, of a foreign one */
int pulse_data__attr_of_swap(const struct pulse_data *d, const unsigned char *r, size_t size,
			     bool swap)
{
	size_t hsize;
	__u32 type;
	bool is_sample;

	if (!d->nr_attrs)
		return -ENOENT;
	if (d->nr_attrs == 1)
		return 0;
	if (size < sizeof(struct perf_event_header))
		return -EBADMSG;
	type = get_u32(r);
	hsize = get_u16(r + 6);
	if (swap) {
		type = __builtin_bswap32(type);
		hsize = __builtin_bswap16(hsize);
	}
	if (hsize < sizeof(struct perf_event_header) || hsize > size)
		return -EBADMSG;
	if (type >= PERF_RECORD_USER_TYPE_START)
		return 0;
	is_sample = type == PERF_RECORD_SAMPLE;
	if (d->same_id_pos)
		return attr_of_id_at(d, r, hsize, d->id_pos[is_sample], swap);
	/* mixed layouts: the right attr is the one whose layout finds its own id */
	for (size_t i = 0; i < d->nr_attrs; i++)
		if (attr_of_layout(d, r, hsize, is_sample, &d->attrs[i]->attr, swap) == (int)i)
			return i;
	return -ENOENT;
}

int pulse_data__attr_of(const struct pulse_data *d, const void *rec, size_t size)
{
	return pulse_data__attr_of_swap(d, rec, size, false);
}
