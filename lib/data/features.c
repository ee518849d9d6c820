// SPDX-License-Identifier: GPL-2.0
/*
 * Feature section payloads, laid out as perf 6.1's header.c writes them:
 * strings are perf_header_strings (u32 len; len bytes, NUL-padded to a
 * multiple of 64), numbers native-endian, and the system facts are read
 * from the same places perf reads them, so that the same machine gives
 * the same bytes.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/features.h>
#include "core/internal.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define NAME_ALIGN 64		/* perf's alignment of perf_header_string */

static int buf_add_u32(struct pulse_buf *b, __u32 v)
{
	return pulse_buf__add(b, &v, sizeof(v));
}

static int buf_add_u64(struct pulse_buf *b, __u64 v)
{
	return pulse_buf__add(b, &v, sizeof(v));
}

/* @s followed by zeroes up to @padded bytes. */
static int buf_add_padded(struct pulse_buf *b, const char *s, size_t len, size_t padded)
{
	int err = pulse_buf__add(b, s, len);

	return err ? err : pulse_buf__add(b, NULL, padded - len);
}

int pulse_buf__add_string(struct pulse_buf *b, const char *s)
{
	size_t olen = strlen(s) + 1, len = PULSE_ALIGN(olen, NAME_ALIGN);
	int err;

	if (len > UINT32_MAX)
		return -EINVAL;
	err = buf_add_u32(b, (__u32)len);
	return err ? err : buf_add_padded(b, s, olen, len);
}

/* Read a small text file whole into a malloc'ed, NUL-terminated buffer. */
static int read_text(const char *path, char **out)
{
	struct pulse_buf b = { 0 };
	long n = pulse_buf__read_file(&b, path, 0);

	if (n < 0) {
		pulse_buf__release(&b);
		return (int)n;
	}
	if (!b.p && pulse_buf__add(&b, "", 1))
		return -ENOMEM;
	*out = b.p;
	return 0;
}

static const char *ctx_proc(const struct pulse_feat_ctx *ctx)
{
	return ctx && ctx->proc ? ctx->proc : "/proc";
}

static const char *ctx_sysfs(const struct pulse_feat_ctx *ctx)
{
	return ctx && ctx->sysfs ? ctx->sysfs : "/sys";
}

/*
 * Walk a cpu list ("0-3,8\n") and return the number of cpus and the
 * highest one; -EINVAL when it is not a cpu list.
 */
static int parse_cpu_list(const char *s, long *count, long *max)
{
	*count = 0;
	*max = -1;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0)
			return -EINVAL;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -EINVAL;
			s = end;
		}
		*count += b - a + 1;
		if (b > *max)
			*max = b;
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return *max >= 0 ? 0 : -EINVAL;
}

static int read_cpu_list(const struct pulse_feat_ctx *ctx, const char *which, long *count,
			 long *max)
{
	char path[PATH_MAX], *buf;
	int err;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/%s", ctx_sysfs(ctx), which);
	err = read_text(path, &buf);
	if (err)
		return err;
	err = parse_cpu_list(buf, count, max);
	free(buf);
	return err;
}

/*
 * u32 nr_cpus_available, u32 nr_cpus_online. perf's "available" is the
 * highest present cpu + 1 (cpu__max_present_cpu()), its online count is
 * sysconf(_SC_NPROCESSORS_ONLN), which glibc takes from the online list.
 */
static int build_nrcpus(struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	long count, max, avail, online;
	int err;

	if (!read_cpu_list(ctx, "present", &count, &max))
		avail = max + 1;
	else
		avail = sysconf(_SC_NPROCESSORS_CONF);
	if (!read_cpu_list(ctx, "online", &count, &max))
		online = count;
	else
		online = sysconf(_SC_NPROCESSORS_ONLN);
	if (avail <= 0 || online <= 0)
		return -ENOENT;
	err = buf_add_u32(b, (__u32)avail);
	return err ? err : buf_add_u32(b, (__u32)online);
}

/* The value of the first "key<space/tab>*: value" line of a text, or NULL. */
static char *find_key(char *text, const char *key)
{
	size_t klen = strlen(key);

	for (char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen))
			return p;
	}
	return NULL;
}

/*
 * The "model name" of /proc/cpuinfo with runs of white space squashed to
 * one blank, as perf does to vendors' padded branding strings.
 */
static int build_cpudesc(struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
#if defined(__powerpc__)
	static const char *const keys[] = { "cpu" };
#elif defined(__s390__)
	static const char *const keys[] = { "vendor_id" };
#else
	static const char *const keys[] = { "model name", "Processor" };
#endif
	char path[PATH_MAX], *text, *line = NULL, *val, *r, *w;
	int err;

	snprintf(path, sizeof(path), "%s/cpuinfo", ctx_proc(ctx));
	err = read_text(path, &text);
	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(keys) && !line; i++)
		line = find_key(text, keys[i]);
	if (!line) {
		free(text);
		return -ENOENT;
	}
	line[strcspn(line, "\n")] = '\0';
	val = line;
	r = strchr(line, ':');
	if (r && r[1] == ' ' && r[2])
		val = r + 2;
	for (r = w = val; *r; r++) {
		if (isspace((unsigned char)*r)) {
			*w++ = ' ';
			while (isspace((unsigned char)r[1]))
				r++;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
	err = pulse_buf__add_string(b, val);
	free(text);
	return err;
}

/*
 * perf's x86 cpuid string: "vendor,family,model,stepping" with the
 * extended family added for family 0xf and the extended model for
 * family >= 6 (what /proc/cpuinfo prints as "cpu family" and "model").
 * arm64: MIDR_EL1 of the first cpu as "0x%016lx", as perf reads it.
 */
static int build_cpuid(struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	char s[128];

#if defined(__x86_64__) || defined(__i386__)
	unsigned int lvl, eax, ebx, ecx, edx, family = 0, model = 0, step = 0;
	char vendor[13];

	if (!__get_cpuid(0, &lvl, &ebx, &ecx, &edx))
		return -EOPNOTSUPP;
	memcpy(vendor, &ebx, 4);
	memcpy(vendor + 4, &edx, 4);
	memcpy(vendor + 8, &ecx, 4);
	vendor[12] = '\0';
	if (lvl >= 1 && __get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
		family = (eax >> 8) & 0xf;
		model = (eax >> 4) & 0xf;
		step = eax & 0xf;
		if (family == 0xf)
			family += (eax >> 20) & 0xff;
		if (family >= 6)
			model += ((eax >> 16) & 0xf) << 4;
	}
	snprintf(s, sizeof(s), "%s,%u,%u,%u", vendor, family, model, step);
#elif defined(__aarch64__)
	char path[PATH_MAX], *text;
	unsigned long long midr;
	int err, cpu = 0;

	/* The list starts with the lowest online cpu. */
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", ctx_sysfs(ctx));
	if (!read_text(path, &text)) {
		cpu = atoi(text);
		free(text);
	}
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 ctx_sysfs(ctx), cpu);
	err = read_text(path, &text);
	if (err)
		return err;
	midr = strtoull(text, NULL, 16);
	free(text);
	snprintf(s, sizeof(s), "0x%016llx", midr);
#else
	(void)ctx;
	return -EOPNOTSUPP;
#endif
	return pulse_buf__add_string(b, s);
}

/* u64 MemTotal in kB, from meminfo. */
static int build_total_mem(struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	char path[PATH_MAX], *text, *line, *end;
	unsigned long long kb;
	int err;

	snprintf(path, sizeof(path), "%s/meminfo", ctx_proc(ctx));
	err = read_text(path, &text);
	if (err)
		return err;
	line = find_key(text, "MemTotal:");
	if (!line) {
		free(text);
		return -ENOENT;
	}
	errno = 0;
	kb = strtoull(line + 9, &end, 0);
	if (end == line + 9 || errno) {
		free(text);
		return -ENOENT;
	}
	free(text);
	return buf_add_u64(b, kb);
}

static int build_uname(int feat, struct pulse_buf *b)
{
	struct utsname u;

	if (uname(&u))
		return -errno;
	switch (feat) {
	case PULSE_FEAT_HOSTNAME:
		return pulse_buf__add_string(b, u.nodename);
	case PULSE_FEAT_OSRELEASE:
		return pulse_buf__add_string(b, u.release);
	default:
		return pulse_buf__add_string(b, u.machine);
	}
}

/*
 * u32 nr; nr strings: the path of the running executable (perf writes
 * its own, from /proc/self/exe), then the arguments after the program name.
 */
static int build_cmdline(struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	char exe[PATH_MAX];
	ssize_t n;
	int err;

	if (!ctx || ctx->argc < 0 || (ctx->argc && !ctx->argv))
		return -EINVAL;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		snprintf(exe, sizeof(exe), "pulse");
	else
		exe[n] = '\0';
	err = buf_add_u32(b, (__u32)ctx->argc + 1);
	if (!err)
		err = pulse_buf__add_string(b, exe);
	for (int i = 0; i < ctx->argc && !err; i++)
		err = pulse_buf__add_string(b, ctx->argv[i] ? ctx->argv[i] : "");
	return err;
}

/*
 * u32 nr, u32 attr_size; per event: the attr (attr_size bytes), u32 nr_ids,
 * string name, u64 ids[nr_ids]. The attr is written as perf 6.1 knows it:
 * 128 bytes with attr.size saying so.
 */
static int build_event_desc(struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	int err;

	if (!ctx || (ctx->nr_attrs && !ctx->attrs) || ctx->nr_attrs > UINT32_MAX)
		return -EINVAL;
	err = buf_add_u32(b, (__u32)ctx->nr_attrs);
	if (!err)
		err = buf_add_u32(b, PULSE_FILE_ATTR_SIZE);
	for (size_t i = 0; i < ctx->nr_attrs && !err; i++) {
		const struct pulse_data_attr *a = &ctx->attrs[i];
		unsigned char attr[PULSE_FILE_ATTR_SIZE] = { 0 };
		size_t n = sizeof(a->attr) < sizeof(attr) ? sizeof(a->attr) : sizeof(attr);
		__u32 size = PULSE_FILE_ATTR_SIZE;

		if ((a->nr_ids && !a->ids) || a->nr_ids > UINT32_MAX)
			return -EINVAL;
		memcpy(attr, &a->attr, n);
		memcpy(attr + offsetof(struct perf_event_attr, size), &size, sizeof(size));
		err = pulse_buf__add(b, attr, sizeof(attr));
		if (!err)
			err = buf_add_u32(b, (__u32)a->nr_ids);
		if (!err)
			err = pulse_buf__add_string(b, a->name ? a->name : "");
		if (!err)
			err = pulse_buf__add(b, a->ids, a->nr_ids * sizeof(__u64));
	}
	return err;
}

/*
 * One perf_record_header_build_id per entry, as perf's write_buildid():
 * header.type 0, misc = cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE, the
 * filename NUL-padded to a multiple of 64 and header.size covering it all
 * (so entries are 4- but not 8-aligned: 36 + 64 * k bytes).
 */
static int build_build_id(struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
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

int pulse_feat__build(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	size_t start = b->len;
	int err;

	switch (feat) {
	case PULSE_FEAT_HOSTNAME:
	case PULSE_FEAT_OSRELEASE:
	case PULSE_FEAT_ARCH:
		err = build_uname(feat, b);
		break;
	case PULSE_FEAT_VERSION:
		err = pulse_buf__add_string(b, PULSE_VERSION);
		break;
	case PULSE_FEAT_NRCPUS:
		err = build_nrcpus(b, ctx);
		break;
	case PULSE_FEAT_CPUDESC:
		err = build_cpudesc(b, ctx);
		break;
	case PULSE_FEAT_CPUID:
		err = build_cpuid(b, ctx);
		break;
	case PULSE_FEAT_TOTAL_MEM:
		err = build_total_mem(b, ctx);
		break;
	case PULSE_FEAT_CMDLINE:
		err = build_cmdline(b, ctx);
		break;
	case PULSE_FEAT_EVENT_DESC:
		err = build_event_desc(b, ctx);
		break;
	case PULSE_FEAT_SAMPLE_TIME:
		if (!ctx)
			return -EINVAL;
		err = buf_add_u64(b, ctx->first_time);
		if (!err)
			err = buf_add_u64(b, ctx->last_time);
		break;
	case PULSE_FEAT_BUILD_ID:
		err = build_build_id(b, ctx);
		break;
	default:
		return -EOPNOTSUPP;
	}
	/* Leave no half-built payload behind for the caller to write. */
	if (err)
		b->len = start;
	return err;
}
