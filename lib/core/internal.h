/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by every lib/ module; not part of the public API. */
#ifndef PULSE_INTERNAL_H
#define PULSE_INTERNAL_H

#include <pulse/core.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void pulse_print(enum pulse_print_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_warn(fmt, ...)  pulse_print(PULSE_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)  pulse_print(PULSE_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) pulse_print(PULSE_DEBUG, fmt, ##__VA_ARGS__)

/*
 * PULSE_CORRUPT - report malformed input and return -EBADMSG. The message
 * names the offset in the file, after SQLite's SQLITE_CORRUPT_BKPT.
 */
#define PULSE_CORRUPT(off, what)                                               \
	(pr_warn("perf.data: %s at offset %#llx\n", (what),                     \
		 (unsigned long long)(off)), -EBADMSG)

#ifndef container_of
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PULSE_ALIGN(x, a) (((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))

/* Unaligned-safe loads from record bytes (records are not aligned for us). */
static inline uint64_t get_u64(const void *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static inline uint32_t get_u32(const void *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint16_t get_u16(const void *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/*
 * Copy @len bytes of the records laid over @iov[@cnt], from iovec *@i at
 * offset *@off on, to @dst, advancing both (lib/core/iov.c)
 */
struct iovec;
void pulse_iov__gather(const struct iovec *iov, int cnt, int *i, size_t *off, void *dst,
		       size_t len);
/*
 * A walk over the whole records laid over @iov[@cnt] for @len bytes
 * (lib/core/iov.c): peek() reads the next record's header (1), says the
 * walk is over (0) or that a size is no record's (-EINVAL: pos stops
 * short of len); take() then gives the record in place, or joined in
 * @buf when it straddles two iovecs, and moves past it; skip() only moves.
 */
struct perf_event_header;
struct pulse_iov_walk {
	const struct iovec *iov;
	int cnt;
	int i;		/* the iovec the next record starts in */
	size_t off;	/* and where */
	size_t pos;	/* bytes walked */
	size_t len;	/* bytes to walk */
};
void pulse_iov_walk__init(struct pulse_iov_walk *w, const struct iovec *iov, int cnt, size_t len);
int pulse_iov_walk__peek(struct pulse_iov_walk *w, struct perf_event_header *h);
const void *pulse_iov_walk__take(struct pulse_iov_walk *w, size_t size, void *buf);
void pulse_iov_walk__skip(struct pulse_iov_walk *w, size_t size);

#endif
