// SPDX-License-Identifier: GPL-2.0
/*
 * BUILD_ID: the build-ids of the DSOs with samples, one
 * perf_record_header_build_id after the other (perf's write_buildid()),
 * and reading them back entry by entry with every length checked. perf
 * prints nothing for it in the header.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <pulse/reader.h>
#include "data/feat.h"

/*
 * One perf_record_header_build_id per entry, as perf's write_buildid():
 * header.type 0, misc = cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE, the
 * filename NUL-padded to a multiple of 64 and header.size covering it all
 * (so entries are 4- but not 8-aligned: 36 + 64 * k bytes).
 */
static int write_build_id(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	int err = 0;

	if (!ctx || (ctx->nr_build_ids && !ctx->build_ids))
		return -EINVAL;
	for (size_t i = 0; i < ctx->nr_build_ids && !err; i++) {
		const struct pulse_build_id_entry *e = &ctx->build_ids[i];
		struct pulse_build_id_event ev;
		size_t olen, len;

		if (!e->filename || e->size > PULSE_BUILD_ID_SIZE)
			return -EINVAL;
		olen = strlen(e->filename) + 1;
		len = PULSE_ALIGN(olen, NAME_ALIGN);
		if (sizeof(ev) + len > UINT16_MAX)
			return -ENAMETOOLONG;
		memset(&ev, 0, sizeof(ev));
		ev.header.type = 0;
		ev.header.misc = e->misc | PERF_RECORD_MISC_BUILD_ID_SIZE;
		ev.header.size = (__u16)(sizeof(ev) + len);
		ev.pid = e->pid;
		memcpy(ev.build_id, e->id, e->size);
		ev.size = (__u8)e->size;
		err = pulse_buf__add(b, &ev, sizeof(ev));
		if (!err)
			err = buf_add_padded(b, e->filename, olen, len);
	}
	return err;
}

static int swap_build_id(struct swc *c)
{
	while (c->left >= 8) {
		__u16 size;
		struct swc r;

		if (sw_u32(c, NULL) || sw_u16(c, NULL) || sw_u16(c, &size))
			return -EBADMSG;
		if (size < 8 || size - 8 > c->left)
			return -EBADMSG;
		r = (struct swc){ c->p, size - 8, c->to_native };
		sw_layout(&r, "4B112");
		sw_skip(c, size - 8);
	}
	return 0;
}

const struct pulse_feat_ops pulse_feat_build_id = {
	.name = "BUILD_ID", .write = write_build_id, .swap = swap_build_id,
};

/* header (8), pid (4), build_id[20], size (1), reserved (3), then the name */
#define BUILD_ID_FIXED 36

int pulse_data__build_id_next(const struct pulse_data *d, size_t *pos,
			      struct pulse_build_id_entry *e)
{
	struct perf_event_header hdr;
	const unsigned char *p, *ent;
	size_t len, off = *pos;

	p = pulse_data__feat(d, PULSE_FEAT_BUILD_ID, &len);
	/* an entry is more than its fixed part: perf pads names to 64 */
	if (!p || off >= len || len - off <= BUILD_ID_FIXED)
		return -ENOENT;
	ent = p + off;
	memcpy(&hdr, ent, sizeof(hdr));
	if (hdr.size < BUILD_ID_FIXED || hdr.size > len - off)
		return -EBADMSG;
	memset(e, 0, sizeof(*e));
	e->pid = (int)get_u32(ent + 8);
	e->misc = hdr.misc;
	e->size = PULSE_BUILD_ID_SIZE;
	if (hdr.misc & PERF_RECORD_MISC_BUILD_ID_SIZE)
		e->size = ent[32] <= PULSE_BUILD_ID_SIZE ? ent[32] : PULSE_BUILD_ID_SIZE;
	memcpy(e->id, ent + 12, PULSE_BUILD_ID_SIZE);
	e->filename = (const char *)ent + BUILD_ID_FIXED;
	e->filename_len = strnlen(e->filename, hdr.size - BUILD_ID_FIXED);
	*pos = off + hdr.size;
	return 0;
}
