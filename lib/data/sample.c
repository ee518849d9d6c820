// SPDX-License-Identifier: GPL-2.0
/*
 * Decoding of SAMPLE records and of the sample_id trailer other records
 * carry. The layout follows the kernel's perf_output_sample(): each field
 * is present when its bit is set in attr.sample_type, in bit order except
 * that IDENTIFIER comes first. Records come straight from files, so every
 * length inside is checked against the record end before it is used, and
 * every load goes through get_u64()/get_u32(): records need not be aligned.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <pulse/data.h>
#include "core/internal.h"

/* Forward cursor over a record; all arithmetic on sizes, never past end. */
struct cursor {
	const unsigned char *p;
	size_t left;
};

static int cur_need(const struct cursor *c, size_t n)
{
	return n <= c->left ? 0 : -EBADMSG;
}

static int cur_u64(struct cursor *c, __u64 *v)
{
	if (cur_need(c, 8))
		return -EBADMSG;
	*v = get_u64(c->p);
	c->p += 8;
	c->left -= 8;
	return 0;
}

static int cur_u32_pair(struct cursor *c, __u32 *a, __u32 *b)
{
	if (cur_need(c, 8))
		return -EBADMSG;
	*a = get_u32(c->p);
	if (b)
		*b = get_u32(c->p + 4);
	c->p += 8;
	c->left -= 8;
	return 0;
}

/* Skip @nr items of @each bytes, checking the product cannot overflow. */
static int cur_skip(struct cursor *c, __u64 nr, size_t each, const void **start)
{
	if (each && nr > c->left / each)
		return -EBADMSG;
	if (start)
		*start = c->p;
	c->p += nr * each;
	c->left -= nr * each;
	return 0;
}

static int parse_read(struct cursor *c, __u64 read_format, struct pulse_sample *s)
{
	const unsigned char *start = c->p;
	size_t each = 8;
	__u64 nr;

	if (read_format & PERF_FORMAT_ID)
		each += 8;
	if (read_format & PERF_FORMAT_LOST)
		each += 8;

	if (read_format & PERF_FORMAT_GROUP) {
		size_t times = 0;

		if (cur_u64(c, &nr))
			return -EBADMSG;
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			times++;
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			times++;
		if (cur_skip(c, times, 8, NULL) || cur_skip(c, nr, each, NULL))
			return -EBADMSG;
	} else {
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			each += 8;
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			each += 8;
		if (cur_skip(c, 1, each, NULL))
			return -EBADMSG;
	}
	s->read = start;
	s->read_size = c->p - start;
	return 0;
}

/* REGS_USER / REGS_INTR: u64 abi, then one u64 per mask bit unless abi is 0. */
static int parse_regs(struct cursor *c, __u64 mask, __u64 *abi, const void **regs)
{
	if (cur_u64(c, abi))
		return -EBADMSG;
	if (!*abi)
		return 0;
	return cur_skip(c, __builtin_popcountll(mask), 8, regs);
}

static int parse_sample(struct cursor *c, const struct perf_event_attr *attr,
			struct pulse_sample *s)
{
	__u64 type = attr->sample_type;
	__u64 v, id = 0, identifier = 0;

	if (type & PERF_SAMPLE_IDENTIFIER && cur_u64(c, &identifier))
		return -EBADMSG;
	if (type & PERF_SAMPLE_IP && cur_u64(c, &s->ip))
		return -EBADMSG;
	if (type & PERF_SAMPLE_TID && cur_u32_pair(c, &s->pid, &s->tid))
		return -EBADMSG;
	if (type & PERF_SAMPLE_TIME && cur_u64(c, &s->time))
		return -EBADMSG;
	if (type & PERF_SAMPLE_ADDR && cur_u64(c, &s->addr))
		return -EBADMSG;
	if (type & PERF_SAMPLE_ID && cur_u64(c, &id))
		return -EBADMSG;
	if (type & PERF_SAMPLE_STREAM_ID && cur_u64(c, &s->stream_id))
		return -EBADMSG;
	if (type & PERF_SAMPLE_CPU && cur_u32_pair(c, &s->cpu, NULL))
		return -EBADMSG;
	if (type & PERF_SAMPLE_PERIOD && cur_u64(c, &s->period))
		return -EBADMSG;
	if (type & PERF_SAMPLE_READ && parse_read(c, attr->read_format, s))
		return -EBADMSG;
	if (type & PERF_SAMPLE_CALLCHAIN) {
		if (cur_u64(c, &s->callchain_nr) ||
		    cur_skip(c, s->callchain_nr, 8, &s->callchain))
			return -EBADMSG;
	}
	if (type & PERF_SAMPLE_RAW) {
		/*
		 * The kernel pads the payload so u32 + data ends 8-aligned;
		 * like perf, trust raw_size as the distance to the next field.
		 */
		if (cur_need(c, 4))
			return -EBADMSG;
		s->raw_size = get_u32(c->p);
		c->p += 4;
		c->left -= 4;
		if (cur_skip(c, s->raw_size, 1, &s->raw))
			return -EBADMSG;
	}
	if (type & PERF_SAMPLE_BRANCH_STACK) {
		if (cur_u64(c, &s->branch_nr))
			return -EBADMSG;
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX &&
		    cur_u64(c, &s->branch_hw_idx))
			return -EBADMSG;
		if (cur_skip(c, s->branch_nr, 24, &s->branch))
			return -EBADMSG;
	}
	if (type & PERF_SAMPLE_REGS_USER &&
	    parse_regs(c, attr->sample_regs_user, &s->user_abi, &s->user_regs))
		return -EBADMSG;
	if (type & PERF_SAMPLE_STACK_USER) {
		__u64 size, dyn;

		if (cur_u64(c, &size))
			return -EBADMSG;
		if (size) {
			if (cur_skip(c, size, 1, &s->user_stack) || cur_u64(c, &dyn))
				return -EBADMSG;
			/*
			 * dyn_size is what the kernel really copied (perf 6.1's
			 * user_stack.size): 0 when it could copy nothing, and
			 * more than the room is a damaged sample
			 */
			if (dyn > size)
				return -EBADMSG;
			s->user_stack_size = dyn;
		}
	}
	if (type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT) &&
	    cur_u64(c, &s->weight))
		return -EBADMSG;
	if (type & PERF_SAMPLE_DATA_SRC && cur_u64(c, &s->data_src))
		return -EBADMSG;
	if (type & PERF_SAMPLE_TRANSACTION && cur_u64(c, &s->transaction))
		return -EBADMSG;
	if (type & PERF_SAMPLE_REGS_INTR &&
	    parse_regs(c, attr->sample_regs_intr, &s->intr_abi, &s->intr_regs))
		return -EBADMSG;
	if (type & PERF_SAMPLE_PHYS_ADDR && cur_u64(c, &s->phys_addr))
		return -EBADMSG;
	if (type & PERF_SAMPLE_CGROUP && cur_u64(c, &s->cgroup))
		return -EBADMSG;
	if (type & PERF_SAMPLE_DATA_PAGE_SIZE && cur_u64(c, &s->data_page_size))
		return -EBADMSG;
	if (type & PERF_SAMPLE_CODE_PAGE_SIZE && cur_u64(c, &s->code_page_size))
		return -EBADMSG;
	if (type & PERF_SAMPLE_AUX) {
		if (cur_u64(c, &v) || cur_skip(c, v, 1, NULL))
			return -EBADMSG;
	}

	s->id = type & PERF_SAMPLE_IDENTIFIER ? identifier : id;
	return 0;
}

/*
 * The trailer is laid out forward as TID, TIME, ID, STREAM_ID, CPU,
 * IDENTIFIER, but its start depends on the record body, so walk it from
 * the end of the record.
 */
static int parse_id_trailer(const unsigned char *rec, size_t end,
			    const struct perf_event_attr *attr, struct pulse_sample *s)
{
	__u64 type = attr->sample_type;
	size_t need = pulse_sample__id_size(attr);
	const unsigned char *p = rec + end;
	__u64 id = 0, identifier = 0;

	if (need > end - sizeof(struct perf_event_header))
		return -EBADMSG;

	if (type & PERF_SAMPLE_IDENTIFIER) {
		p -= 8;
		identifier = get_u64(p);
	}
	if (type & PERF_SAMPLE_CPU) {
		p -= 8;
		s->cpu = get_u32(p);
	}
	if (type & PERF_SAMPLE_STREAM_ID) {
		p -= 8;
		s->stream_id = get_u64(p);
	}
	if (type & PERF_SAMPLE_ID) {
		p -= 8;
		id = get_u64(p);
	}
	if (type & PERF_SAMPLE_TIME) {
		p -= 8;
		s->time = get_u64(p);
	}
	if (type & PERF_SAMPLE_TID) {
		p -= 8;
		s->pid = get_u32(p);
		s->tid = get_u32(p + 4);
	}
	s->id = type & PERF_SAMPLE_IDENTIFIER ? identifier : id;
	return 0;
}

/**
 * pulse_sample__parse - decode a SAMPLE record or another record's sample_id
 * @rec: the record bytes, starting with its perf_event_header
 * @size: bytes available at @rec (at least header.size)
 * @attr: the attr the record belongs to
 * @out: filled in; fields absent from sample_type are zero
 *
 * Return: 0, or -EBADMSG when the header or a length inside the record
 * points past its end.
 */
int pulse_sample__parse(const void *rec, size_t size, const struct perf_event_attr *attr,
			struct pulse_sample *out)
{
	const unsigned char *r = rec;
	struct cursor c;
	size_t end;
	int err;

	memset(out, 0, sizeof(*out));
	if (size < sizeof(struct perf_event_header))
		return -EBADMSG;
	out->type = get_u32(r + offsetof(struct perf_event_header, type));
	out->misc = get_u16(r + offsetof(struct perf_event_header, misc));
	end = get_u16(r + offsetof(struct perf_event_header, size));
	if (end < sizeof(struct perf_event_header) || end > size)
		return -EBADMSG;

	if (out->type != PERF_RECORD_SAMPLE) {
		if (!attr->sample_id_all)
			return 0;
		err = parse_id_trailer(r, end, attr, out);
	} else {
		c.p = r + sizeof(struct perf_event_header);
		c.left = end - sizeof(struct perf_event_header);
		err = parse_sample(&c, attr, out);
	}
	if (err) {
		__u32 type = out->type;
		__u16 misc = out->misc;

		pr_debug("sample: record type %u size %zu does not fit sample_type %#llx\n",
			 type, end, (unsigned long long)attr->sample_type);
		/* Half-filled results must not be mistaken for data. */
		memset(out, 0, sizeof(*out));
		out->type = type;
		out->misc = misc;
	}
	return err;
}

/*
 * Fields that are one u64 each (or none) before and including the
 * callchain: a sample made of only these is whole when its fixed part and
 * callchain_nr u64s fit, which is what parse_sample() finds for it.
 */
#define TIME_FAST_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
			PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | \
			PERF_SAMPLE_CALLCHAIN)

/* Without -mpopcnt, __builtin_popcountll() is a libgcc call per record. */
static unsigned int popcount64(__u64 x)
{
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (x * 0x0101010101010101ULL) >> 56;
}

/**
 * pulse_sample__time - the time of a record, as pulse_sample__parse() finds it
 * @rec: the record bytes, starting with its perf_event_header
 * @size: bytes available at @rec
 * @attr: the attr the record belongs to
 * @time: set on success
 *
 * The ordering needs only the time of every record, then the tool parses
 * the record itself: a whole parse (a 250-byte result cleared and up to 25
 * fields tested) for the time alone was a tenth of a flame graph's walk.
 * The common layouts are read at the time's fixed offset after the same
 * size checks the parse makes; others go through the parse.
 *
 * Return: 0; -EBADMSG when the header does not fit @size; -ENOENT when
 * the record carries no time (whatever the rest of it); -EBADMSG when the
 * parse would reject it.
 */
int pulse_sample__time(const void *rec, size_t size, const struct perf_event_attr *attr,
		       __u64 *time)
{
	const unsigned char *r = rec;
	__u64 type = attr->sample_type, nr;
	struct pulse_sample s;
	size_t end, fixed, off;
	int err;

	if (size < sizeof(struct perf_event_header))
		return -EBADMSG;
	end = get_u16(r + offsetof(struct perf_event_header, size));
	if (end < sizeof(struct perf_event_header) || end > size)
		return -EBADMSG;
	if (!(type & PERF_SAMPLE_TIME))
		return -ENOENT;
	if (get_u32(r) != PERF_RECORD_SAMPLE) {
		if (!attr->sample_id_all)
			return -ENOENT;
		if (pulse_sample__id_size(attr) > end - sizeof(struct perf_event_header))
			return -EBADMSG;
		off = 8;	/* TIME is the trailer's first u64 after TID, from the end */
		if (type & PERF_SAMPLE_ID)
			off += 8;
		if (type & PERF_SAMPLE_STREAM_ID)
			off += 8;
		if (type & PERF_SAMPLE_CPU)
			off += 8;
		if (type & PERF_SAMPLE_IDENTIFIER)
			off += 8;
		*time = get_u64(r + end - off);
		return 0;
	}
	if (type & ~(__u64)TIME_FAST_BITS) {
		err = pulse_sample__parse(rec, size, attr, &s);
		if (!err)
			*time = s.time;
		return err;
	}
	fixed = sizeof(struct perf_event_header) + 8 * popcount64(type);
	if (fixed > end)
		return -EBADMSG;
	if (type & PERF_SAMPLE_CALLCHAIN) {
		/* callchain_nr is the last fixed u64; its ips follow */
		nr = get_u64(r + fixed - 8);
		if (nr > (end - fixed) / 8)
			return -EBADMSG;
	}
	off = sizeof(struct perf_event_header);
	if (type & PERF_SAMPLE_IDENTIFIER)
		off += 8;
	if (type & PERF_SAMPLE_IP)
		off += 8;
	if (type & PERF_SAMPLE_TID)
		off += 8;
	*time = get_u64(r + off);
	return 0;
}

/**
 * pulse_sample__id_size - bytes of the sample_id trailer of non-SAMPLE
 * records (perf's id_hdr_size)
 * @attr: the event
 *
 * Return: the size; 0 without attr->sample_id_all.
 */
size_t pulse_sample__id_size(const struct perf_event_attr *attr)
{
	static const __u64 bits[] = {
		PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
	};
	size_t size = 0;

	if (!attr->sample_id_all)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		if (attr->sample_type & bits[i])
			size += 8;
	return size;
}

/**
 * pulse_sample__id_offset - where the event id sits in a record
 * @sample_type: the attr's sample_type
 * @is_sample: the record is a SAMPLE (else a record with a sample_id trailer)
 *
 * Return: the offset from the record start for samples, a negative offset
 * from the record end for other records; INT32_MIN when there is no id.
 */
int pulse_sample__id_offset(__u64 sample_type, bool is_sample)
{
	int off;

	if (is_sample) {
		if (sample_type & PERF_SAMPLE_IDENTIFIER)
			return sizeof(struct perf_event_header);
		if (!(sample_type & PERF_SAMPLE_ID))
			return INT32_MIN;
		off = sizeof(struct perf_event_header);
		if (sample_type & PERF_SAMPLE_IP)
			off += 8;
		if (sample_type & PERF_SAMPLE_TID)
			off += 8;
		if (sample_type & PERF_SAMPLE_TIME)
			off += 8;
		if (sample_type & PERF_SAMPLE_ADDR)
			off += 8;
		return off;
	}

	if (sample_type & PERF_SAMPLE_IDENTIFIER)
		return -8;
	if (!(sample_type & PERF_SAMPLE_ID))
		return INT32_MIN;
	off = -8;
	if (sample_type & PERF_SAMPLE_STREAM_ID)
		off -= 8;
	if (sample_type & PERF_SAMPLE_CPU)
		off -= 8;
	return off;
}
