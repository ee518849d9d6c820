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
#include <pulse/build-id.h>
#include "test.h"

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
	  TEST(test_cleanup))
