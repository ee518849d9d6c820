// SPDX-License-Identifier: GPL-2.0
/*
 * Feature payloads, tracing data and build ids, checked against what perf
 * 6.1 writes and against independent readers (readelf, libtraceevent).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>
#include <pulse/build-id.h>
#include <pulse/core.h>
#include <pulse/data.h>
#include <pulse/features.h>
#include <pulse/trace.h>
#include <event-parse.h>
#include <trace-seq.h>
#include "test.h"

static const char *data_path(const char *rel)
{
	static char path[PATH_MAX / 2];
	const char *top = getenv("PULSE_TOP");

	snprintf(path, sizeof(path), "%s/tests/data/%s", top ? top : ".", rel);
	return path;
}

static char tmpdir[PATH_MAX / 2];

static const char *tmp_path(const char *name)
{
	static char path[PATH_MAX];

	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/pulse-test-features-XXXXXX");
		if (!mkdtemp(tmpdir))
			return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	return path;
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Compile a trivial program with the given linker build-id option. */
static int build_prog(const char *out, const char *build_id_opt)
{
	char cmd[PATH_MAX * 2];
	const char *src = tmp_path("prog.c");
	FILE *f = fopen(src, "w");

	if (!f)
		return -1;
	fputs("int main(void) { return 0; }\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cc -o %s %s -Wl,--build-id=%s 2>/dev/null", out,
		 tmp_path("prog.c"), build_id_opt);
	return run(cmd);
}

static bool have_cc(void)
{
	return run("cc --version >/dev/null 2>&1") == 0;
}

static void test_build_id__file_known_id(void)
{
	static const unsigned char want[20] = {
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc,
		0xba, 0x98, 0x76, 0x54, 0x32, 0x10, 0x00, 0x11, 0x22, 0x33,
	};
	unsigned char id[20];
	char out[PATH_MAX];
	size_t len = 0;

	if (!have_cc()) {
		test__skip = "no C compiler";
		return;
	}
	snprintf(out, sizeof(out), "%s", tmp_path("prog-sha"));
	ASSERT_EQ(build_prog(out, "0x0123456789abcdeffedcba987654321000112233"), 0);
	ASSERT_EQ(pulse_build_id__read_file(out, id, &len), 0);
	ASSERT_EQ(len, 20);
	ASSERT_MEMEQ(id, want, 20);

	/* A 16-byte (md5-sized) id leaves the tail zeroed. */
	snprintf(out, sizeof(out), "%s", tmp_path("prog-16"));
	ASSERT_EQ(build_prog(out, "0x0123456789abcdeffedcba9876543210"), 0);
	memset(id, 0xaa, sizeof(id));
	ASSERT_EQ(pulse_build_id__read_file(out, id, &len), 0);
	ASSERT_EQ(len, 16);
	ASSERT_MEMEQ(id, want, 16);
	ASSERT_MEMEQ(id + 16, "\0\0\0\0", 4);

	/* Longer ids are cut to the 20 bytes perf.data has room for. */
	snprintf(out, sizeof(out), "%s", tmp_path("prog-24"));
	ASSERT_EQ(build_prog(out, "0x0123456789abcdeffedcba987654321000112233deadbeef"), 0);
	ASSERT_EQ(pulse_build_id__read_file(out, id, &len), 0);
	ASSERT_EQ(len, 20);
	ASSERT_MEMEQ(id, want, 20);

	snprintf(out, sizeof(out), "%s", tmp_path("prog-none"));
	ASSERT_EQ(build_prog(out, "none"), 0);
	ASSERT_EQ(pulse_build_id__read_file(out, id, &len), -ENODATA);
}

/* A separate debug file: the note is found through its sections. */
static void test_build_id__debug_file(void)
{
	static const unsigned char want[4] = { 0xca, 0xfe, 0xf0, 0x0d };
	unsigned char id[20];
	char out[PATH_MAX], dbg[PATH_MAX], cmd[3 * PATH_MAX];
	size_t len = 0;

	if (!have_cc() || run("objcopy --version >/dev/null 2>&1")) {
		test__skip = "no C compiler or objcopy";
		return;
	}
	snprintf(out, sizeof(out), "%s", tmp_path("prog-dbg"));
	snprintf(dbg, sizeof(dbg), "%s", tmp_path("prog-dbg.debug"));
	ASSERT_EQ(build_prog(out, "0xcafef00d"), 0);
	snprintf(cmd, sizeof(cmd), "objcopy --only-keep-debug %s %s", out, dbg);
	ASSERT_EQ(run(cmd), 0);
	ASSERT_EQ(pulse_build_id__read_file(dbg, id, &len), 0);
	ASSERT_EQ(len, 4);
	ASSERT_MEMEQ(id, want, 4);
}

/* Our own executable, against readelf's "Build ID:" line. */
static void test_build_id__self_vs_readelf(void)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 64], line[256], hex[PULSE_BUILD_ID_HEX_SIZE];
	char want[128] = "";
	unsigned char id[20];
	size_t len = 0;
	ssize_t n;
	FILE *p;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_TRUE(n > 0);
	exe[n] = '\0';
	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", exe);
	p = popen(cmd, "r");
	ASSERT_TRUE(p);
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, "Build ID: ");

		if (s)
			sscanf(s + 10, "%127s", want);
	}
	pclose(p);
	if (!want[0]) {
		test__skip = "readelf missing or no build id on the test binary";
		return;
	}
	ASSERT_EQ(pulse_build_id__read_file(exe, id, &len), 0);
	ASSERT_EQ(pulse_build_id__hex(id, len, hex, sizeof(hex)), 2 * len);
	ASSERT_STREQ(hex, want);
}

static void test_build_id__errors(void)
{
	unsigned char id[20];
	size_t len;
	const char *path = tmp_path("not-elf");
	FILE *f = fopen(path, "w");

	ASSERT_TRUE(f);
	fputs("#!/bin/sh\necho this is not ELF\n", f);
	fclose(f);
	ASSERT_EQ(pulse_build_id__read_file(path, id, &len), -ENOEXEC);
	ASSERT_EQ(pulse_build_id__read_file(tmp_path("missing"), id, &len), -ENOENT);
	ASSERT_EQ(pulse_build_id__read_notes(tmp_path("missing"), id, &len), -ENOENT);
}

static size_t put_note(unsigned char *p, uint32_t type, const char *name, uint32_t namesz,
		       const void *desc, uint32_t descsz)
{
	size_t off = 12;

	memcpy(p, &namesz, 4);
	memcpy(p + 4, &descsz, 4);
	memcpy(p + 8, &type, 4);
	memset(p + off, 0, (namesz + 3) & ~3u);
	memcpy(p + off, name, namesz);
	off += (namesz + 3) & ~3u;
	memset(p + off, 0, (descsz + 3) & ~3u);
	memcpy(p + off, desc, descsz);
	return off + ((descsz + 3) & ~3u);
}

static void test_build_id__parse_notes(void)
{
	static const unsigned char gid[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					       11, 12, 13, 14, 15, 16, 17, 18, 19, 20 };
	unsigned char buf[256], id[20];
	size_t n = 0, len = 0;
	uint32_t v = 0x0101;

	/* A note whose name and desc need padding comes first, as in the kernel's. */
	n += put_note(buf + n, 0x100, "Linux", 6, &v, 1);
	n += put_note(buf + n, 3, "Xen", 4, &v, 4);	/* type 3 but not GNU */
	ASSERT_EQ(pulse_build_id__parse_notes(buf, n, id, &len), -ENODATA);
	n += put_note(buf + n, 3, "GNU", 4, gid, 20);
	ASSERT_EQ(pulse_build_id__parse_notes(buf, n, id, &len), 0);
	ASSERT_EQ(len, 20);
	ASSERT_MEMEQ(id, gid, 20);
	/* Cut inside the desc: a malformed note, not a short id. */
	ASSERT_EQ(pulse_build_id__parse_notes(buf, n - 4, id, &len), -EBADMSG);
	/* A size that would wrap around. */
	v = 0xfffffffd;
	memcpy(buf + 4, &v, 4);
	ASSERT_EQ(pulse_build_id__parse_notes(buf, n, id, &len), -EBADMSG);
}

/* The running kernel, against perf's reading of the same notes when perf is there. */
static void test_build_id__kernel(void)
{
	char hex[PULSE_BUILD_ID_HEX_SIZE], want[128] = "";
	unsigned char id[20];
	size_t len = 0;
	int err;
	FILE *p;

	err = pulse_build_id__read_kernel(id, &len);
	if (err == -ENOENT || err == -EACCES) {
		test__skip = "no /sys/kernel/notes";
		return;
	}
	ASSERT_EQ(err, 0);
	ASSERT_TRUE(len > 0);
	ASSERT_EQ(pulse_build_id__hex(id, len, hex, sizeof(hex)), 2 * len);
	p = popen("perf buildid-list -k 2>/dev/null", "r");
	if (p) {
		if (!fgets(want, sizeof(want), p))
			want[0] = '\0';
		pclose(p);
	}
	want[strcspn(want, "\n")] = '\0';
	if (!want[0]) {
		test__skip = "perf not installed: kernel id read but not cross-checked";
		return;
	}
	ASSERT_STREQ(hex, want);
}

static void test_build_id__hex(void)
{
	static const unsigned char id[3] = { 0x00, 0xab, 0x7f };
	char buf[7];

	ASSERT_EQ(pulse_build_id__hex(id, 3, buf, sizeof(buf)), 6);
	ASSERT_STREQ(buf, "00ab7f");
	ASSERT_EQ(pulse_build_id__hex(id, 3, buf, 6), -ENOSPC);
}

/* ---- struct pulse_buf and feature payloads ------------------------------ */

/* A perf_header_string as expected at p: u32 len, s, zeroes to len. */
static bool is_header_string(const char *p, size_t avail, const char *s, size_t want_len)
{
	uint32_t len;

	if (avail < 4)
		return false;
	memcpy(&len, p, 4);
	if (len != want_len || avail < 4 + len || strcmp(p + 4, s))
		return false;
	for (size_t i = strlen(s); i < len; i++)
		if (p[4 + i])
			return false;
	return true;
}

static void test_buf__strings(void)
{
	struct pulse_buf b = { 0 };
	char s63[64], s64[65];

	memset(s63, 'a', 63);
	s63[63] = '\0';
	memset(s64, 'b', 64);
	s64[64] = '\0';
	ASSERT_EQ(pulse_buf__add(&b, "\x01\x02\x03", 3), 0);
	ASSERT_EQ(pulse_buf__add_string(&b, "vm"), 0);
	ASSERT_EQ(b.len, 3 + 4 + 64);
	ASSERT_MEMEQ(b.p, "\x01\x02\x03\x40\0\0\0vm\0", 10);
	ASSERT_TRUE(is_header_string(b.p + 3, b.len - 3, "vm", 64));
	/* strlen + 1 is what gets rounded up: 63 chars still fit 64 */
	ASSERT_EQ(pulse_buf__add_string(&b, s63), 0);
	ASSERT_TRUE(is_header_string(b.p + 71, b.len - 71, s63, 64));
	ASSERT_EQ(pulse_buf__add_string(&b, s64), 0);
	ASSERT_TRUE(is_header_string(b.p + 139, b.len - 139, s64, 128));
	ASSERT_EQ(pulse_buf__add_string(&b, ""), 0);
	ASSERT_TRUE(is_header_string(b.p + 271, b.len - 271, "", 64));
	ASSERT_EQ(b.len, 271 + 68);
	pulse_buf__release(&b);
	ASSERT_TRUE(!b.p && !b.len && !b.alloc);
}

static void test_feat__uname_version(void)
{
	struct pulse_buf b = { 0 };
	struct utsname u;

	ASSERT_EQ(uname(&u), 0);
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_HOSTNAME, &b, NULL), 0);
	ASSERT_TRUE(is_header_string(b.p, b.len, u.nodename, ((strlen(u.nodename) + 64) & ~63ul)));
	ASSERT_EQ(b.len, 4 + ((strlen(u.nodename) + 64) & ~63ul));
	b.len = 0;
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_OSRELEASE, &b, NULL), 0);
	ASSERT_STREQ(b.p + 4, u.release);
	b.len = 0;
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_ARCH, &b, NULL), 0);
	ASSERT_STREQ(b.p + 4, u.machine);
	b.len = 0;
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_VERSION, &b, NULL), 0);
	ASSERT_TRUE(is_header_string(b.p, b.len, PULSE_VERSION, 64));
	b.len = 0;
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_TRACING_DATA, &b, NULL), -EOPNOTSUPP);
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CPU_TOPOLOGY, &b, NULL), -EOPNOTSUPP);
	ASSERT_EQ(b.len, 0);
	pulse_buf__release(&b);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

static void test_feat__fake_system(void)
{
	struct pulse_feat_ctx ctx = { .proc = data_path("proc-fake") };
	struct pulse_buf b = { 0 };
	char sys[PATH_MAX], cmd[PATH_MAX + 32];
	uint32_t nr[2];
	uint64_t mem;

	snprintf(sys, sizeof(sys), "%s", tmp_path("sys"));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/devices/system/cpu", sys);
	ASSERT_EQ(run(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/devices/system/cpu/present", sys);
	ASSERT_EQ(write_file(cmd, "0-3,8\n"), 0);
	snprintf(cmd, sizeof(cmd), "%s/devices/system/cpu/online", sys);
	ASSERT_EQ(write_file(cmd, "0-2,8\n"), 0);
	ctx.sysfs = sys;

	/* available = highest present + 1 (perf's cpu__max_present_cpu), online = count */
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_NRCPUS, &b, &ctx), 0);
	ASSERT_EQ(b.len, 8);
	memcpy(nr, b.p, 8);
	ASSERT_EQ(nr[0], 9);
	ASSERT_EQ(nr[1], 4);
	b.len = 0;
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CPUDESC, &b, &ctx), 0);
	ASSERT_TRUE(is_header_string(b.p, b.len, "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz", 64));
	b.len = 0;
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_TOTAL_MEM, &b, &ctx), 0);
	ASSERT_EQ(b.len, 8);
	memcpy(&mem, b.p, 8);
	ASSERT_EQ(mem, 24684084);
	b.len = 0;

	/* A system that does not say: nothing is appended. */
	ctx.proc = data_path("proc-fake/100");
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CPUDESC, &b, &ctx), -ENOENT);
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_TOTAL_MEM, &b, &ctx), -ENOENT);
	ASSERT_EQ(b.len, 0);
	pulse_buf__release(&b);
}

static void test_feat__cpuid(void)
{
#if defined(__x86_64__) || defined(__i386__)
	char line[256], vendor[64] = "", want[128];
	int family = -1, model = -1, step = -1;
	struct pulse_buf b = { 0 };
	FILE *f = fopen("/proc/cpuinfo", "r");

	ASSERT_TRUE(f);
	while (fgets(line, sizeof(line), f) && (family < 0 || model < 0 || step < 0 || !vendor[0])) {
		sscanf(line, "vendor_id : %63s", vendor);
		sscanf(line, "cpu family : %d", &family);
		sscanf(line, "model : %d", &model);
		sscanf(line, "stepping : %d", &step);
	}
	fclose(f);
	/* /proc/cpuinfo prints the same decoding perf uses */
	snprintf(want, sizeof(want), "%s,%d,%d,%d", vendor, family, model, step);
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CPUID, &b, NULL), 0);
	ASSERT_TRUE(is_header_string(b.p, b.len, want, 64));
	pulse_buf__release(&b);
#else
	test__skip = "x86 only";
#endif
}

static void test_feat__cmdline(void)
{
	static const char *const argv[] = { "record", "-o", "my file.data", "--", "true" };
	struct pulse_feat_ctx ctx = { .argc = 5, .argv = argv };
	struct pulse_buf b = { 0 };
	char exe[PATH_MAX];
	uint32_t nr, len;
	size_t off = 4;
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ASSERT_TRUE(n > 0);
	exe[n] = '\0';
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CMDLINE, &b, &ctx), 0);
	memcpy(&nr, b.p, 4);
	ASSERT_EQ(nr, 6);
	ASSERT_STREQ(b.p + off + 4, exe);
	memcpy(&len, b.p + off, 4);
	off += 4 + len;
	for (int i = 0; i < 5; i++) {
		ASSERT_TRUE(is_header_string(b.p + off, b.len - off, argv[i], 64));
		off += 4 + 64;
	}
	ASSERT_EQ(off, b.len);
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CMDLINE, &b, NULL), -EINVAL);
	pulse_buf__release(&b);
}

static void test_feat__event_desc(void)
{
	static const __u64 ids1[] = { 912, 913 };
	struct pulse_data_attr attrs[2] = {
		{ .attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_CPU_CLOCK,
			    .size = sizeof(struct perf_event_attr), .sample_freq = 4000,
			    .freq = 1, .sample_id_all = 1 },
		  .name = "cpu-clock", .ids = ids1, .nr_ids = 2 },
		{ .attr = { .type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY },
		  .name = NULL, .ids = NULL, .nr_ids = 0 },
	};
	struct pulse_feat_ctx ctx = { .attrs = attrs, .nr_attrs = 2 };
	struct pulse_buf b = { 0 };
	struct perf_event_attr a;
	uint32_t v[2];
	uint64_t ids[2];
	const char *p;

	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_EVENT_DESC, &b, &ctx), 0);
	ASSERT_EQ(b.len, 8 + (128 + 4 + 68 + 16) + (128 + 4 + 68));
	memcpy(v, b.p, 8);
	ASSERT_EQ(v[0], 2);
	ASSERT_EQ(v[1], 128);
	p = b.p + 8;
	memset(&a, 0, sizeof(a));
	memcpy(&a, p, 128);
	ASSERT_EQ(a.size, 128);	/* whatever the attr said: perf 6.1's size */
	ASSERT_EQ(a.type, PERF_TYPE_SOFTWARE);
	ASSERT_EQ(a.sample_freq, 4000);
	ASSERT_TRUE(a.freq && a.sample_id_all);
	memcpy(v, p + 128, 4);
	ASSERT_EQ(v[0], 2);
	ASSERT_TRUE(is_header_string(p + 132, 68, "cpu-clock", 64));
	memcpy(ids, p + 200, 16);
	ASSERT_EQ(ids[0], 912);
	ASSERT_EQ(ids[1], 913);
	p += 216;
	memcpy(&a, p, 128);
	ASSERT_EQ(a.config, PERF_COUNT_SW_DUMMY);
	ASSERT_EQ(a.size, 128);
	memcpy(v, p + 128, 4);
	ASSERT_EQ(v[0], 0);
	ASSERT_TRUE(is_header_string(p + 132, 68, "", 64));

	attrs[1].nr_ids = 1;	/* ids missing */
	b.len = 0;
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_EVENT_DESC, &b, &ctx), -EINVAL);
	ASSERT_EQ(b.len, 0);
	pulse_buf__release(&b);
}

static void test_feat__sample_time_build_id(void)
{
	static const unsigned char kid[20] = { 0x4a, 0x5a, 0x9b, 0x0a, 0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc,
					       0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9 };
	/* The first entry of a BUILD_ID section perf 6.1 wrote on this project's VM. */
	static const unsigned char perf_kernel_entry[100] = {
		0x00, 0x00, 0x00, 0x00, 0x01, 0x80, 0x64, 0x00, 0xff, 0xff, 0xff, 0xff, 0x4a, 0x5a, 0x9b, 0x0a,
		0xff, 0xb6, 0x6c, 0x43, 0x7a, 0xbc, 0xd4, 0x55, 0xd2, 0x73, 0x8a, 0xf8, 0x79, 0x98, 0x5f, 0xa9,
		0x14, 0x00, 0x00, 0x00, '[', 'k', 'e', 'r', 'n', 'e', 'l', '.', 'k', 'a', 'l', 'l',
		's', 'y', 'm', 's', ']',
	};
	struct pulse_build_id_entry e[2] = {
		{ .pid = -1, .misc = PERF_RECORD_MISC_KERNEL, .size = 20,
		  .filename = "[kernel.kallsyms]" },
		{ .pid = -1, .misc = PERF_RECORD_MISC_USER, .size = 4, .id = { 1, 2, 3, 4 },
		  .filename = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2/and/a/longer/path" },
	};
	struct pulse_feat_ctx ctx = { .first_time = 460759532000ull, .last_time = 460791781000ull,
				      .build_ids = e, .nr_build_ids = 2 };
	struct pulse_build_id_event ev;
	struct pulse_buf b = { 0 };
	uint64_t t[2];

	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_SAMPLE_TIME, &b, &ctx), 0);
	ASSERT_EQ(b.len, 16);
	memcpy(t, b.p, 16);
	ASSERT_EQ(t[0], 460759532000ull);
	ASSERT_EQ(t[1], 460791781000ull);
	b.len = 0;

	memcpy(e[0].id, kid, 20);
	ASSERT_EQ(pulse_feat__build(PULSE_FEAT_BUILD_ID, &b, &ctx), 0);
	ASSERT_EQ(b.len, 100 + 36 + 128);
	ASSERT_MEMEQ(b.p, perf_kernel_entry, 100);
	memcpy(&ev, b.p + 100, sizeof(ev));
	ASSERT_EQ(ev.header.type, 0);
	ASSERT_EQ(ev.header.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE);
	ASSERT_EQ(ev.header.size, 36 + 128);
	ASSERT_EQ(ev.pid, -1);
	ASSERT_EQ(ev.size, 4);
	ASSERT_MEMEQ(ev.build_id, "\x01\x02\x03\x04\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20);
	ASSERT_STREQ(b.p + 136, e[1].filename);
	for (size_t i = 136 + strlen(e[1].filename); i < b.len; i++)
		ASSERT_EQ(b.p[i], 0);
	pulse_buf__release(&b);
}

/* ---- against perf's own file --------------------------------------------- */

struct perf_file {
	unsigned char *p;
	size_t len;
	struct { uint64_t off, size; } sec[256];
};

static int perf_file__load(struct perf_file *f, const char *path)
{
	uint64_t data_off, data_size, bits[4], table;
	int n = 0;
	FILE *fp = fopen(path, "rb");
	long sz;

	memset(f, 0, sizeof(*f));
	if (!fp)
		return -1;
	fseek(fp, 0, SEEK_END);
	sz = ftell(fp);
	rewind(fp);
	f->p = malloc(sz);
	f->len = fread(f->p, 1, sz, fp);
	fclose(fp);
	if (f->len < 104)
		return -1;
	memcpy(&data_off, f->p + 40, 8);
	memcpy(&data_size, f->p + 48, 8);
	memcpy(bits, f->p + 72, 32);
	table = data_off + data_size;
	for (int i = 0; i < 256; i++) {
		if (!(bits[i / 64] >> (i % 64) & 1))
			continue;
		if (table + 16 * (n + 1) > f->len)
			return -1;
		memcpy(&f->sec[i].off, f->p + table + 16 * n, 8);
		memcpy(&f->sec[i].size, f->p + table + 16 * n + 8, 8);
		if (f->sec[i].off + f->sec[i].size > f->len)
			return -1;
		n++;
	}
	return 0;
}

#define SEC(f, i) ((f)->p + (f)->sec[i].off)

static void expect_same(struct perf_file *f, int feat, const struct pulse_feat_ctx *ctx)
{
	struct pulse_buf b = { 0 };

	ASSERT_EQ(pulse_feat__build(feat, &b, ctx), 0);
	if (b.len != f->sec[feat].size || memcmp(b.p, SEC(f, feat), b.len))
		printf("#   feature %d differs from perf's\n", feat);
	ASSERT_EQ(b.len, f->sec[feat].size);
	ASSERT_MEMEQ(b.p, SEC(f, feat), b.len);
	pulse_buf__release(&b);
}

static void test_feat__same_as_perf(void)
{
	static const int same[] = { PULSE_FEAT_HOSTNAME, PULSE_FEAT_OSRELEASE, PULSE_FEAT_ARCH,
				    PULSE_FEAT_NRCPUS, PULSE_FEAT_CPUDESC, PULSE_FEAT_CPUID,
				    PULSE_FEAT_TOTAL_MEM };
	struct pulse_data_attr attrs[8];
	struct pulse_build_id_entry ents[64];
	struct pulse_feat_ctx ctx = { 0 };
	const char *argv[64];
	struct perf_file f;
	char cmd[2 * PATH_MAX], data[PATH_MAX];
	unsigned char *p, *end;
	uint32_t nr, sz, len;

	if (run("perf --version >/dev/null 2>&1")) {
		test__skip = "perf not installed";
		return;
	}
	snprintf(data, sizeof(data), "%s", tmp_path("perf.data"));
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -o %s -e cpu-clock -c 100000 -- sh -c "
		 "'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1", data);
	if (run(cmd)) {
		test__skip = "perf record failed here";
		return;
	}
	ASSERT_EQ(perf_file__load(&f, data), 0);
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		if (!f.sec[same[i]].size)
			continue;	/* perf could not say either */
		expect_same(&f, same[i], NULL);
		if (test__failed)
			goto out;
	}

	/* CMDLINE: same arguments give the same bytes after the executable's path. */
	p = SEC(&f, PULSE_FEAT_CMDLINE);
	memcpy(&nr, p, 4);
	ASSERT_TRUE(nr >= 2 && nr < 64);
	memcpy(&len, p + 4, 4);
	p += 8 + len;
	for (uint32_t i = 0; i + 1 < nr; i++) {
		argv[i] = (const char *)p + 4;
		memcpy(&len, p, 4);
		p += 4 + len;
	}
	ctx.argc = nr - 1;
	ctx.argv = argv;
	{
		struct pulse_buf b = { 0 };
		size_t tail_perf, ours_skip;

		ASSERT_EQ(pulse_feat__build(PULSE_FEAT_CMDLINE, &b, &ctx), 0);
		memcpy(&len, SEC(&f, PULSE_FEAT_CMDLINE) + 4, 4);
		tail_perf = f.sec[PULSE_FEAT_CMDLINE].size - 8 - len;
		memcpy(&len, b.p + 4, 4);
		ours_skip = 8 + len;
		ASSERT_EQ(b.len - ours_skip, tail_perf);
		ASSERT_MEMEQ(b.p, SEC(&f, PULSE_FEAT_CMDLINE), 4);
		ASSERT_MEMEQ(b.p + ours_skip, SEC(&f, PULSE_FEAT_CMDLINE) +
			     f.sec[PULSE_FEAT_CMDLINE].size - tail_perf, tail_perf);
		pulse_buf__release(&b);
	}

	/* EVENT_DESC: perf's events fed back give perf's bytes. */
	memset(&ctx, 0, sizeof(ctx));
	p = SEC(&f, PULSE_FEAT_EVENT_DESC);
	memcpy(&nr, p, 4);
	memcpy(&sz, p + 4, 4);
	ASSERT_EQ(sz, 128);
	ASSERT_TRUE(nr > 0 && nr <= 8);
	p += 8;
	memset(attrs, 0, sizeof(attrs));
	for (uint32_t i = 0; i < nr; i++) {
		memcpy(&attrs[i].attr, p, 128);
		memcpy(&len, p + 128, 4);
		attrs[i].nr_ids = len;
		memcpy(&len, p + 132, 4);
		attrs[i].name = (const char *)p + 136;
		p += 136 + len;
		attrs[i].ids = (const __u64 *)p;	/* 8-aligned within this file */
		p += 8 * attrs[i].nr_ids;
	}
	ctx.attrs = attrs;
	ctx.nr_attrs = nr;
	expect_same(&f, PULSE_FEAT_EVENT_DESC, &ctx);

	/* BUILD_ID: perf's entries fed back give perf's bytes. */
	memset(&ctx, 0, sizeof(ctx));
	p = SEC(&f, PULSE_FEAT_BUILD_ID);
	end = p + f.sec[PULSE_FEAT_BUILD_ID].size;
	nr = 0;
	while (p + 36 <= end && nr < 64) {
		struct pulse_build_id_event ev;

		memcpy(&ev, p, sizeof(ev));
		ASSERT_TRUE(ev.header.size > 36 && p + ev.header.size <= end);
		ents[nr].pid = ev.pid;
		ents[nr].misc = ev.header.misc & ~PERF_RECORD_MISC_BUILD_ID_SIZE;
		memcpy(ents[nr].id, ev.build_id, 20);
		ents[nr].size = ev.size;
		ents[nr].filename = (const char *)p + 36;
		nr++;
		p += ev.header.size;
	}
	ctx.build_ids = ents;
	ctx.nr_build_ids = nr;
	expect_same(&f, PULSE_FEAT_BUILD_ID, &ctx);
	/* perf's kernel entry carries the id pulse reads from /sys/kernel/notes */
	for (uint32_t i = 0; i < nr; i++) {
		unsigned char kid[20];
		size_t klen;

		if (strcmp(ents[i].filename, "[kernel.kallsyms]"))
			continue;
		ASSERT_EQ(pulse_build_id__read_kernel(kid, &klen), 0);
		ASSERT_EQ(klen, ents[i].size);
		ASSERT_MEMEQ(kid, ents[i].id, klen);
	}
out:
	free(f.p);
}

/* ---- tracing data -------------------------------------------------------- */

/* Append a whole file, read with stdio, after a @hdr-byte size. */
static int x_add_file(struct pulse_buf *b, const char *path, int hdr)
{
	char chunk[4096];
	uint64_t size = 0;
	size_t pos = b->len, n;
	FILE *f = fopen(path, "rb");

	if (!f)
		return -1;
	pulse_buf__add(b, &size, hdr);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		pulse_buf__add(b, chunk, n);
		size += n;
	}
	fclose(f);
	if (hdr == 4) {
		uint32_t v = size;

		memcpy(b->p + pos, &v, 4);
	} else {
		memcpy(b->p + pos, &size, 8);
	}
	return 0;
}

static void x_add_u32(struct pulse_buf *b, uint32_t v)
{
	pulse_buf__add(b, &v, 4);
}

static const char *fake_tracefs(const char *rel)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s%s", data_path("tracefs-fake"), rel);
	return path;
}

static void test_tracing__fake_exact(void)
{
	static const char *const sys[] = { "sched", "syscalls", "sched", "ftrace", "sched" };
	static const char *const ev[] = { "sched_switch", "sys_enter_getppid", "sched_process_exec",
					  "function", "sched_switch" };
	struct pulse_buf got = { 0 }, want = { 0 };
	uint32_t page = sysconf(_SC_PAGESIZE);
	unsigned char flags[2] = { 0, sizeof(long) };

	ASSERT_EQ(pulse_buf__add(&got, "prefix", 6), 0);
	ASSERT_EQ(pulse_tracing_data__build(&got, fake_tracefs(""), sys, ev, 5), 0);

	pulse_buf__add(&want, "prefix", 6);
	pulse_buf__add(&want, "\x17\x08\x44tracing0.6", 14);
	pulse_buf__add(&want, flags, 2);
	pulse_buf__add(&want, &page, 4);
	pulse_buf__add(&want, "header_page", 12);
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/events/header_page"), 8), 0);
	pulse_buf__add(&want, "header_event", 13);
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/events/header_event"), 8), 0);
	x_add_u32(&want, 1);	/* ftrace formats */
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/events/ftrace/function/format"), 8), 0);
	x_add_u32(&want, 2);	/* systems, first-seen order, duplicates once */
	pulse_buf__add(&want, "sched", 6);
	x_add_u32(&want, 2);
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/events/sched/sched_switch/format"), 8), 0);
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/events/sched/sched_process_exec/format"), 8), 0);
	pulse_buf__add(&want, "syscalls", 9);
	x_add_u32(&want, 1);
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/events/syscalls/sys_enter_getppid/format"), 8), 0);
	x_add_u32(&want, 0);	/* kallsyms */
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/printk_formats"), 4), 0);
	ASSERT_EQ(x_add_file(&want, fake_tracefs("/saved_cmdlines"), 8), 0);

	ASSERT_EQ(got.len, want.len);
	ASSERT_MEMEQ(got.p, want.p, want.len);
	pulse_buf__release(&got);
	pulse_buf__release(&want);
}

static void test_tracing__errors(void)
{
	static const char *const sys[] = { "sched", "sched" };
	static const char *const ev[] = { "sched_switch", "no_such_event" };
	static const char *const bad[] = { ".." };
	struct pulse_buf b = { 0 };

	ASSERT_EQ(pulse_buf__add(&b, "x", 1), 0);
	ASSERT_EQ(pulse_tracing_data__build(&b, fake_tracefs(""), sys, ev, 2), -ENOENT);
	ASSERT_EQ(b.len, 1);
	ASSERT_EQ(pulse_tracing_data__build(&b, fake_tracefs(""), bad, ev, 1), -EINVAL);
	ASSERT_EQ(pulse_tracing_data__build(&b, fake_tracefs(""), sys, NULL, 1), -EINVAL);
	ASSERT_EQ(b.len, 1);
	/* No events: a valid blob with no systems. */
	ASSERT_EQ(pulse_tracing_data__build(&b, fake_tracefs(""), NULL, NULL, 0), 0);
	ASSERT_TRUE(b.len > 1 + 30);
	pulse_buf__release(&b);
}

/*
 * Load a blob into libtraceevent the way perf's trace-event-read.c walks
 * it. Return: 0 when every part parsed and nothing is left over.
 */
static int tep_load_blob(struct tep_handle *tep, const char *p, size_t n)
{
	const char *end = p + n;
	uint32_t page, cnt, nsys, sz32;
	uint64_t sz;
	int long_size;

#define NEED(k) do { if ((size_t)(end - p) < (size_t)(k)) return -1; } while (0)
	NEED(10 + 4 + 2 + 4);
	if (memcmp(p, "\x17\x08\x44tracing", 10) || memcmp(p + 10, "0.6", 4))
		return -2;
	p += 14;
	tep_set_file_bigendian(tep, p[0] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	long_size = p[1];
	tep_set_long_size(tep, long_size);
	memcpy(&page, p + 2, 4);
	tep_set_page_size(tep, page);
	p += 6;
	NEED(12 + 8);
	if (memcmp(p, "header_page", 12))
		return -3;
	memcpy(&sz, p + 12, 8);
	p += 20;
	NEED(sz);
	if (tep_parse_header_page(tep, (char *)p, sz, long_size))
		return -4;
	p += sz;
	NEED(13 + 8);
	if (memcmp(p, "header_event", 13))
		return -5;
	memcpy(&sz, p + 13, 8);
	p += 21 + sz;
	NEED(4);
	memcpy(&cnt, p, 4);
	p += 4;
	for (uint32_t i = 0; i < cnt; i++) {
		NEED(8);
		memcpy(&sz, p, 8);
		NEED(8 + sz);
		if (tep_parse_event(tep, p + 8, sz, "ftrace"))
			return -6;
		p += 8 + sz;
	}
	NEED(4);
	memcpy(&nsys, p, 4);
	p += 4;
	for (uint32_t s = 0; s < nsys; s++) {
		const char *sys = p;

		p += strnlen(p, end - p) + 1;
		NEED(4);
		memcpy(&cnt, p, 4);
		p += 4;
		for (uint32_t i = 0; i < cnt; i++) {
			NEED(8);
			memcpy(&sz, p, 8);
			NEED(8 + sz);
			if (tep_parse_event(tep, p + 8, sz, sys))
				return -7;
			p += 8 + sz;
		}
	}
	NEED(4);
	memcpy(&sz32, p, 4);
	p += 4 + sz32;
	NEED(4);
	memcpy(&sz32, p, 4);
	NEED(4 + sz32);
	if (sz32) {
		char *t = strndup(p + 4, sz32);
		int r = tep_parse_printk_formats(tep, t);

		free(t);
		if (r)
			return -8;
	}
	p += 4 + sz32;
	NEED(8);
	memcpy(&sz, p, 8);
	NEED(8 + sz);
	if (sz) {
		char *t = strndup(p + 8, sz);
		int r = tep_parse_saved_cmdlines(tep, t);

		free(t);
		if (r)
			return -9;
	}
	p += 8 + sz;
#undef NEED
	return p == end ? 0 : -10;
}

static void test_tracing__libtraceevent_reads_it(void)
{
	static const char *const sys[] = { "sched", "syscalls", "ftrace" };
	static const char *const ev[] = { "sched_switch", "sys_enter_getppid", "function" };
	struct pulse_buf b = { 0 };
	struct tep_handle *tep = tep_alloc();
	struct tep_event *e;

	ASSERT_TRUE(tep);
	ASSERT_EQ(pulse_tracing_data__build(&b, fake_tracefs(""), sys, ev, 3), 0);
	ASSERT_EQ(tep_load_blob(tep, b.p, b.len), 0);
	ASSERT_EQ(tep_get_long_size(tep), sizeof(long));
	ASSERT_EQ(tep_get_page_size(tep), sysconf(_SC_PAGESIZE));
	ASSERT_TRUE(tep_get_header_page_size(tep) > 0);
	e = tep_find_event_by_name(tep, "sched", "sched_switch");
	ASSERT_TRUE(e && tep_find_field(e, "next_pid") && tep_find_field(e, "prev_comm"));
	e = tep_find_event_by_name(tep, "syscalls", "sys_enter_getppid");
	ASSERT_TRUE(e && tep_find_field(e, "__syscall_nr"));
	e = tep_find_event_by_name(tep, "ftrace", "function");
	ASSERT_TRUE(e && tep_find_field(e, "parent_ip"));
	ASSERT_STREQ(tep_data_comm_from_pid(tep, 42), "bash");
	tep_free(tep);
	pulse_buf__release(&b);
}

/* perf.data attrs: the attr of the event with this id (any, with one attr). */
static const struct perf_event_attr *perf_file__attr(struct perf_file *f, uint64_t id, size_t *nr)
{
	uint64_t attr_size, off, size, ids_off, ids_size;

	memcpy(&attr_size, f->p + 16, 8);
	memcpy(&off, f->p + 24, 8);
	memcpy(&size, f->p + 32, 8);
	*nr = size / attr_size;
	for (size_t i = 0; i < *nr; i++) {
		const unsigned char *a = f->p + off + i * attr_size;

		memcpy(&ids_off, a + attr_size - 16, 8);
		memcpy(&ids_size, a + attr_size - 8, 8);
		for (size_t k = 0; k < ids_size / 8; k++) {
			uint64_t v;

			memcpy(&v, f->p + ids_off + 8 * k, 8);
			if (v == id || *nr == 1)
				return (const struct perf_event_attr *)a;
		}
	}
	return *nr == 1 ? (const struct perf_event_attr *)(f->p + off) : NULL;
}

/*
 * perf writes the same blob for the same event, and a raw sample perf
 * recorded decodes with pulse's blob.
 */
static void test_tracing__same_as_perf_and_decodes(void)
{
	static const char *const sys[] = { "sched" };
	static const char *const ev[] = { "sched_process_exec" };
	char cmd[2 * PATH_MAX], data[PATH_MAX];
	struct pulse_buf b = { 0 };
	struct tep_handle *tep;
	struct perf_file f;
	uint64_t doff, dsize, pos;
	size_t decoded = 0;
	int err;

	if (run("perf --version >/dev/null 2>&1")) {
		test__skip = "perf not installed";
		return;
	}
	err = pulse_tracing_data__build(&b, "/sys/kernel/tracing", sys, ev, 1);
	if (err == -ENOENT || err == -EACCES) {
		test__skip = "no readable tracefs at /sys/kernel/tracing";
		return;
	}
	ASSERT_EQ(err, 0);
	snprintf(data, sizeof(data), "%s", tmp_path("trace.data"));
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -o %s -e sched:sched_process_exec -- /bin/true >/dev/null 2>&1",
		 data);
	if (run(cmd)) {
		test__skip = "perf record of a tracepoint failed here";
		pulse_buf__release(&b);
		return;
	}
	ASSERT_EQ(perf_file__load(&f, data), 0);
	ASSERT_EQ(f.sec[PULSE_FEAT_TRACING_DATA].size, b.len);
	ASSERT_MEMEQ(SEC(&f, PULSE_FEAT_TRACING_DATA), b.p, b.len);

	tep = tep_alloc();
	ASSERT_TRUE(tep);
	ASSERT_EQ(tep_load_blob(tep, b.p, b.len), 0);
	memcpy(&doff, f.p + 40, 8);
	memcpy(&dsize, f.p + 48, 8);
	for (pos = doff; pos + 8 <= doff + dsize && pos + 8 <= f.len;) {
		struct perf_event_header h;
		const struct perf_event_attr *attr;
		struct pulse_sample s;
		struct tep_record rec = { 0 };
		struct tep_event *e;
		struct trace_seq seq;
		uint64_t id = 0;
		size_t nr;

		memcpy(&h, f.p + pos, sizeof(h));
		ASSERT_TRUE(h.size >= 8);
		if (h.type == PERF_RECORD_SAMPLE) {
			if (h.size >= 16)
				memcpy(&id, f.p + pos + 8, 8);	/* IDENTIFIER, if any */
			attr = perf_file__attr(&f, id, &nr);
			ASSERT_TRUE(attr);
			ASSERT_EQ(pulse_sample__parse(f.p + pos, h.size, attr, &s), 0);
			if (attr->type == PERF_TYPE_TRACEPOINT && s.raw) {
				rec.data = (void *)s.raw;
				rec.size = s.raw_size;
				e = tep_find_event_by_record(tep, &rec);
				ASSERT_TRUE(e);
				ASSERT_STREQ(e->name, "sched_process_exec");
				trace_seq_init(&seq);
				tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
				trace_seq_terminate(&seq);
				if (!strstr(seq.buffer, "filename=/") || !strstr(seq.buffer, "true"))
					printf("#   decoded: %s\n", seq.buffer);
				ASSERT_TRUE(strstr(seq.buffer, "filename=/") != NULL);
				ASSERT_TRUE(strstr(seq.buffer, "true") != NULL);
				trace_seq_destroy(&seq);
				decoded++;
			}
		}
		pos += h.size;
	}
	ASSERT_TRUE(decoded >= 1);
	tep_free(tep);
	free(f.p);
	pulse_buf__release(&b);
}

static void test_cleanup(void)
{
	char cmd[PATH_MAX];

	if (tmpdir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		ASSERT_EQ(run(cmd), 0);
	}
}

TEST_MAIN(TEST(test_build_id__file_known_id), TEST(test_build_id__debug_file),
	  TEST(test_build_id__self_vs_readelf), TEST(test_build_id__errors),
	  TEST(test_build_id__parse_notes), TEST(test_build_id__kernel), TEST(test_build_id__hex),
	  TEST(test_buf__strings), TEST(test_feat__uname_version), TEST(test_feat__fake_system),
	  TEST(test_feat__cpuid), TEST(test_feat__cmdline), TEST(test_feat__event_desc),
	  TEST(test_feat__sample_time_build_id), TEST(test_feat__same_as_perf),
	  TEST(test_tracing__fake_exact), TEST(test_tracing__errors),
	  TEST(test_tracing__libtraceevent_reads_it), TEST(test_tracing__same_as_perf_and_decodes),
	  TEST(test_cleanup))
