/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data: layout, writer and sample parsing.
 *
 * Checked against perf 6.1 (Debian linux-perf) on kernel 6.18; sources:
 * tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h. All fields are native-endian; a reader
 * detects a byte-swapped file from the magic.
 *
 * File mode, as pulse writes it:
 *
 *   offset            size             what
 *   0                 104              struct pulse_file_header
 *   104               8 * nr_ids       u64 ids of every attr, attr by attr
 *   attrs.offset      nr * 144         struct pulse_file_attr (attr 128 B + ids section)
 *   (gap)             reserve          feature payloads written at close
 *   data.offset       data.size        records, 8-aligned (COMPRESSED excepted)
 *   data.offset+size  16 * nr_feat     struct pulse_file_section per set feature bit
 *   ...               ...              feature payloads that did not fit the gap
 *
 * The gap keeps the room the closing features need, so a full disk still
 * leaves a file whose header and features could be written. While recording,
 * the header is rewritten with data.size and no feature bits, so a killed
 * recorder leaves a file readable up to the last rewrite.
 *
 * Pipe mode: struct pulse_pipe_header then HEADER_ATTR, HEADER_FEATURE and
 * HEADER_TRACING_DATA records in-band, then the record stream.
 */
#ifndef PULSE_DATA_H
#define PULSE_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <linux/types.h>
#include <pulse/buf.h>
#include <pulse/perf-abi.h>

#define PULSE_FILE_MAGIC 0x32454c4946524550ULL	   /* "PERFILE2" */
#define PULSE_FILE_MAGIC_SWAPPED 0x50455246494c4532ULL
/* a build-id in perf.data (BUILD_ID entries, MMAP2): room for a SHA-1 only */
#define PULSE_BUILD_ID_SIZE 20
#define PULSE_FILE_ATTR_SIZE 128	/* attr.size pulse writes: VER7, what perf 6.1 knows */

struct pulse_file_section {
	__u64 offset;	/* absolute file offset */
	__u64 size;	/* bytes */
};

struct pulse_file_header {
	__u64 magic;				/* PULSE_FILE_MAGIC */
	__u64 size;				/* sizeof(struct pulse_file_header) = 104 */
	__u64 attr_size;			/* attr.size + 16 */
	struct pulse_file_section attrs;	/* @24 */
	struct pulse_file_section data;		/* @40 */
	struct pulse_file_section event_types;	/* @56, legacy: {0,0} */
	__u64 adds_features[4];			/* @72: feature bitmap, bit 0 reserved */
};

struct pulse_file_attr {
	struct perf_event_attr attr;		/* attr.size bytes; 128 here */
	struct pulse_file_section ids;		/* this attr's u64 ids */
};

struct pulse_pipe_header {
	__u64 magic;	/* PULSE_FILE_MAGIC */
	__u64 size;	/* 16 */
};

/* Feature bits (HEADER_* in perf's header.h). */
enum pulse_feature {
	PULSE_FEAT_RESERVED = 0,
	PULSE_FEAT_TRACING_DATA = 1,
	PULSE_FEAT_BUILD_ID,
	PULSE_FEAT_HOSTNAME,
	PULSE_FEAT_OSRELEASE,
	PULSE_FEAT_VERSION,
	PULSE_FEAT_ARCH,
	PULSE_FEAT_NRCPUS,
	PULSE_FEAT_CPUDESC,
	PULSE_FEAT_CPUID,
	PULSE_FEAT_TOTAL_MEM,
	PULSE_FEAT_CMDLINE,
	PULSE_FEAT_EVENT_DESC,
	PULSE_FEAT_CPU_TOPOLOGY,
	PULSE_FEAT_NUMA_TOPOLOGY,
	PULSE_FEAT_BRANCH_STACK,
	PULSE_FEAT_PMU_MAPPINGS,
	PULSE_FEAT_GROUP_DESC,
	PULSE_FEAT_AUXTRACE,
	PULSE_FEAT_STAT,
	PULSE_FEAT_CACHE,
	PULSE_FEAT_SAMPLE_TIME,
	PULSE_FEAT_MEM_TOPOLOGY,
	PULSE_FEAT_CLOCKID,
	PULSE_FEAT_DIR_FORMAT,
	PULSE_FEAT_BPF_PROG_INFO,
	PULSE_FEAT_BPF_BTF,
	PULSE_FEAT_COMPRESSED,
	PULSE_FEAT_CPU_PMU_CAPS,
	PULSE_FEAT_CLOCK_DATA,
	PULSE_FEAT_HYBRID_TOPOLOGY,
	PULSE_FEAT_PMU_CAPS,
	PULSE_FEAT_LAST_KNOWN_BY_PERF61 = PULSE_FEAT_PMU_CAPS,
	PULSE_FEAT_MAX = 256,
};

/* One BUILD_ID feature entry / HEADER_BUILD_ID record (perf_record_header_build_id). */
struct pulse_build_id_event {
	struct perf_event_header header; /* misc = cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE */
	__s32 pid;			 /* -1 for the kernel */
	__u8 build_id[20];		 /* padded with zeroes */
	__u8 size;			 /* valid bytes in build_id */
	__u8 reserved1;
	__u16 reserved2;
	char filename[];		 /* NUL-padded to 64 (NAME_ALIGN) */
};

/*
 * struct pulse_sample - the fields of one SAMPLE record, or of the sample_id
 * trailer of another record, decoded by pulse_sample__parse(). Pointers
 * point into the record bytes and are valid while those bytes are; they are
 * not aligned for you: read them with memcpy.
 */
struct pulse_sample {
	__u64 id;		/* IDENTIFIER or ID, 0 when absent */
	__u64 ip;
	__u32 pid, tid;
	__u64 time;
	__u64 addr;
	__u64 stream_id;
	__u32 cpu;
	__u64 period;
	const void *read;	/* read_format values */
	size_t read_size;
	__u64 callchain_nr;
	const void *callchain;	/* callchain_nr u64 */
	__u32 raw_size;
	const void *raw;	/* tracepoint record */
	__u64 branch_nr;
	__u64 branch_hw_idx;	/* with PERF_SAMPLE_BRANCH_HW_INDEX, else 0 */
	const void *branch;	/* branch entries, 24 B each: pulse_branch__entry() */
	__u64 user_abi;		/* REGS_USER abi, 0 if none */
	const void *user_regs;	/* one u64 per bit of sample_regs_user, NULL if abi is 0 */
	__u64 intr_abi;		/* REGS_INTR abi, 0 if none */
	const void *intr_regs;	/* likewise, sample_regs_intr */
	__u64 user_stack_size;	/* STACK_USER's dyn_size: the bytes copied, 0 for none */
	const void *user_stack;	/* the stack copy (sample_stack_user bytes of room) */
	__u64 weight;
	__u64 data_src;
	__u64 transaction;
	__u64 phys_addr;
	__u64 cgroup;
	__u64 data_page_size, code_page_size;
	__u16 misc;		/* header.misc of the record */
	__u32 type;		/* header.type of the record */
};

/**
 * pulse_sample__parse - decode a SAMPLE record or another record's sample_id
 * @rec: the record bytes, starting with its perf_event_header
 * @size: bytes available at @rec (at least header.size)
 * @attr: the attr the record belongs to (sample_type, read_format, ...)
 * @out: filled in; fields absent from sample_type are zero
 *
 * For non-SAMPLE records the trailer is parsed only when attr->sample_id_all.
 *
 * Return: 0, or -EBADMSG when a length inside the record points past its end.
 */
int pulse_sample__parse(const void *rec, size_t size, const struct perf_event_attr *attr,
			struct pulse_sample *out);

/**
 * pulse_sample__time - the time pulse_sample__parse() would find in a record,
 * for less: the common layouts are read at a fixed offset after the same size
 * checks. Return: 0; -EBADMSG when the header does not fit @size; -ENOENT
 * when the record has no time (no TIME bit, or a non-SAMPLE record without
 * sample_id_all); -EBADMSG when the parse would reject the record.
 */
int pulse_sample__time(const void *rec, size_t size, const struct perf_event_attr *attr,
		       __u64 *time);

/**
 * pulse_sample__id_size - size of the sample_id trailer that non-SAMPLE
 * records carry for this attr (perf's id_hdr_size); 0 without sample_id_all.
 */
size_t pulse_sample__id_size(const struct perf_event_attr *attr);

/**
 * pulse_sample__id_offset - where the event id sits, for routing a record to
 * its attr before knowing the attr. Return: byte offset from the record start
 * for SAMPLE records (@is_sample) or a negative offset from the record end for
 * others; INT32_MIN when the sample_type carries no id.
 */
int pulse_sample__id_offset(__u64 sample_type, bool is_sample);

/* ---- writer ------------------------------------------------------------ */

struct pulse_data_writer;

/* One event as the writer stores it: attr (written with size 128), ids, name. */
struct pulse_data_attr {
	struct perf_event_attr attr;
	const char *name;	/* for EVENT_DESC; NULL: none */
	const __u64 *ids;
	size_t nr_ids;
	/*
	 * GROUP_DESC: on a group's leader, its events, itself included (the
	 * members are the attrs after it); 0 or 1: no group
	 */
	__u32 nr_members;
	const char *group_name;	/* a named group's; NULL: "{anon_group}" */
};

struct pulse_data_writer_opts {
	size_t sz;		/* sizeof(struct pulse_data_writer_opts) */
	bool pipe;		/* pipe mode: everything in-band */
	size_t reserve;		/* bytes kept before data for the closing features */
	/*
	 * The same file opened O_DIRECT too (not owned): appends of 1 MiB and
	 * more go to the disk through it, not into new page-cache pages
	 */
	bool direct;
	int direct_fd;
	/*
	 * 0: attrs of PULSE_FILE_ATTR_SIZE bytes; else an older perf's
	 * layout: attrs cut to this size (64..PULSE_FILE_ATTR_SIZE, a
	 * multiple of 8; perf's PERF_ATTR_SIZE_VER0..), in the header's
	 * attr_size, the attrs section and a pipe's HEADER_ATTRs alike
	 */
	size_t attr_size;
};

/**
 * pulse_data_writer__new - start a perf.data on an open fd
 * @out: set to the writer (caller owns; free with pulse_data_writer__delete());
 *       NULL on failure
 * @fd: the output (a regular file for file mode, anything for pipe mode);
 *      the writer does not own it
 * @attrs, @nr_attrs: the events; copied
 * @opts: may be NULL
 *
 * Writes the pipe header and HEADER_ATTR records in pipe mode; in file mode
 * nothing is written before the first record or pulse_data_writer__finish().
 *
 * Return: 0; -ENOMEM; -EINVAL for a bad opts->attr_size; -errno from
 * writing the pipe prologue.
 */
int pulse_data_writer__new(struct pulse_data_writer **out, int fd,
			   const struct pulse_data_attr *attrs, size_t nr_attrs,
			   const struct pulse_data_writer_opts *opts);

/**
 * pulse_data_writer__writev - append whole records to the data section
 *
 * Return: 0; -ENOSPC when the disk is full (the file is cut back to the end
 * of the last whole write, nothing partial stays); other -errno.
 */
int pulse_data_writer__writev(struct pulse_data_writer *w, const struct iovec *iov, int cnt);
int pulse_data_writer__write(struct pulse_data_writer *w, const void *buf, size_t len);

/*
 * Bytes of the last writev that are in the file: all of it on success; on
 * -ENOSPC the whole records that fitted (a torn record is cut away).
 */
__u64 pulse_data_writer__last_kept(const struct pulse_data_writer *w);

/**
 * pulse_data_writer__add_feature - set a feature section's payload
 *
 * In file mode the payload is kept and written by pulse_data_writer__finish();
 * in pipe mode it is written at once as a HEADER_FEATURE record (ids above
 * perf 6.1's last known feature are not written: perf report aborts on them).
 * The writer copies @buf.
 */
int pulse_data_writer__add_feature(struct pulse_data_writer *w, int feat, const void *buf,
				   size_t len);

/**
 * pulse_data_writer__sync_header - rewrite the header with the current
 * data.size and no feature bits (file mode; no-op in pipe mode), so that a
 * recorder killed from here on leaves a readable file.
 */
int pulse_data_writer__sync_header(struct pulse_data_writer *w);

/**
 * pulse_data_writer__finish - write the feature sections and the final header
 *
 * On -ENOSPC the writer drops trailing records (whole ones, from the newest)
 * until the feature table fits, so the file stays readable.
 */
int pulse_data_writer__finish(struct pulse_data_writer *w);

/* Bytes of data written so far (data.size). */
__u64 pulse_data_writer__data_size(const struct pulse_data_writer *w);
/* File offset of the data section (file mode, once the first record is written), else 0. */
__u64 pulse_data_writer__data_offset(const struct pulse_data_writer *w);

/* Free the writer (the fd stays open); NULL is fine. */
void pulse_data_writer__delete(struct pulse_data_writer *w);

/* ---- feature payload builders (lib/data/feat.c) ------------------------ */

/* Encode a perf_header_string: u32 len; char s[len], len = strlen+1 rounded up to 64. */
int pulse_buf__add_string(struct pulse_buf *b, const char *s);

#endif
