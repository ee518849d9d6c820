// SPDX-License-Identifier: GPL-2.0
/*
 * The string features: HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC and
 * CPUID are one perf_header_string each (u32 len; len bytes, NUL-padded
 * to a multiple of 64), CMDLINE a u32 count and as many strings. Written
 * from the same places perf reads them, so that the same machine gives
 * the same bytes; printed as "# <title> : <string>".
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <pulse/core.h>
#include <pulse/reader.h>
#include "data/feat.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static int write_uname(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
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

static int write_version(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
{
	return pulse_buf__add_string(b, PULSE_VERSION);
}

/*
 * The "model name" of /proc/cpuinfo with runs of white space squashed to
 * one blank, as perf does to vendors' padded branding strings.
 */
static int write_cpudesc(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
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

	snprintf(path, sizeof(path), "%s/cpuinfo", pulse_feat__proc(ctx));
	err = pulse_feat__read_text(path, &text);
	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(keys) && !line; i++)
		line = pulse_feat__find_key(text, keys[i]);
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
static int write_cpuid(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
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
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", pulse_feat__sysfs(ctx));
	if (!pulse_feat__read_text(path, &text)) {
		cpu = atoi(text);
		free(text);
	}
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 pulse_feat__sysfs(ctx), cpu);
	err = pulse_feat__read_text(path, &text);
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

/*
 * u32 nr; nr strings: the path of the running executable (perf writes
 * its own, from /proc/self/exe), then the arguments after the program name.
 */
static int write_cmdline(int feat, struct pulse_buf *b, const struct pulse_feat_ctx *ctx)
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

static int swap_string(struct swc *c)
{
	return sw_str(c);
}

static int swap_cmdline(struct swc *c)
{
	__u32 nr;

	return sw_u32(c, &nr) ?: sw_strs(c, nr);
}

static int print_string(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			const struct pulse_data *d)
{
	static const char *const title[] = {
		[PULSE_FEAT_HOSTNAME] = "hostname", [PULSE_FEAT_OSRELEASE] = "os release",
		[PULSE_FEAT_VERSION] = "perf version", [PULSE_FEAT_ARCH] = "arch",
		[PULSE_FEAT_CPUDESC] = "cpudesc", [PULSE_FEAT_CPUID] = "cpuid",
	};
	char *s = fc_str(c);

	if (!s)
		return -EINVAL;
	fprintf(fp, "# %s : %s\n", title[feat], s);
	if (feat == PULSE_FEAT_ARCH)
		env->no_socket_check = !strncmp(s, "s390", 4) || !strncmp(s, "aarch64", 7);
	free(s);
	return 0;
}

static int print_cmdline(FILE *fp, int feat, struct feat_cur *c, struct pulse_header_env *env,
			 const struct pulse_data *d)
{
	uint32_t nr = fc_u32(c);

	if (c->bad || nr > c->len / 4)
		return -EINVAL;
	fputs("# cmdline : ", fp);
	for (uint32_t i = 0; i < nr; i++) {
		char *s = fc_str(c), *q, *arg = s;

		if (!s)
			return -EINVAL;
		/* perf writes a ' as \'' */
		while ((q = strchr(arg, '\''))) {
			*q = '\0';
			fprintf(fp, "%s\\'", arg);
			arg = q + 1;
		}
		fprintf(fp, "%s ", arg);
		free(s);
	}
	fputc('\n', fp);
	return 0;
}

const struct pulse_feat_ops pulse_feat_hostname = {
	.name = "HOSTNAME", .write = write_uname, .swap = swap_string, .print = print_string,
};

const struct pulse_feat_ops pulse_feat_osrelease = {
	.name = "OSRELEASE", .write = write_uname, .swap = swap_string, .print = print_string,
};

const struct pulse_feat_ops pulse_feat_version = {
	.name = "VERSION", .write = write_version, .swap = swap_string, .print = print_string,
};

const struct pulse_feat_ops pulse_feat_arch = {
	.name = "ARCH", .write = write_uname, .swap = swap_string, .print = print_string,
};

const struct pulse_feat_ops pulse_feat_cpudesc = {
	.name = "CPUDESC", .write = write_cpudesc, .swap = swap_string, .print = print_string,
};

const struct pulse_feat_ops pulse_feat_cpuid = {
	.name = "CPUID", .write = write_cpuid, .swap = swap_string, .print = print_string,
};

const struct pulse_feat_ops pulse_feat_cmdline = {
	.name = "CMDLINE", .write = write_cmdline, .swap = swap_cmdline, .print = print_cmdline,
};

int pulse_data__osrelease(const struct pulse_data *d, const char **s, size_t *len)
{
	size_t plen;
	const unsigned char *p = pulse_data__feat(d, PULSE_FEAT_OSRELEASE, &plen);
	__u32 n;

	*s = NULL;
	*len = 0;
	if (!p)
		return -ENOENT;
	if (plen < 4)
		return -EBADMSG;
	n = get_u32(p);
	if (n > plen - 4)
		n = plen - 4;
	*s = (const char *)p + 4;
	*len = strnlen(*s, n);
	return 0;
}
