// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer: the bytes it lays down (header, ids, attrs, data,
 * feature table), the periodic header rewrite, pipe mode, and a real full
 * disk (a 256 KiB tmpfs in a private mount namespace, root only).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pulse/data.h>
#include "test.h"

static __u32 get_type(const unsigned char *p)
{
	__u32 t;

	memcpy(&t, p, 4);
	return t;
}

static const __u64 ids0[] = { 7, 8 };
static const __u64 ids1[] = { 9 };

static void make_attrs(struct pulse_data_attr a[2])
{
	memset(a, 0, 2 * sizeof(*a));
	a[0].attr.type = PERF_TYPE_SOFTWARE;
	a[0].attr.size = sizeof(a[0].attr);
	a[0].attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a[0].attr.sample_id_all = 1;
	a[0].ids = ids0;
	a[0].nr_ids = 2;
	a[0].name = "cpu-clock";
	a[1] = a[0];
	a[1].attr.config = PERF_COUNT_SW_DUMMY;
	a[1].ids = ids1;
	a[1].nr_ids = 1;
	a[1].name = "dummy";
}

/* A 32-byte SAMPLE: identifier, ip, pid/tid. */
static void make_sample(unsigned char rec[32], __u64 seq)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 32 };
	__u64 id = 7, ip = 0x400000 + seq;
	__u32 pid = 42, tid = 43;

	memcpy(rec, &h, 8);
	memcpy(rec + 8, &id, 8);
	memcpy(rec + 16, &ip, 8);
	memcpy(rec + 24, &pid, 4);
	memcpy(rec + 28, &tid, 4);
}

static int tmpfile_fd(char *path)
{
	strcpy(path, "/tmp/pulse-writer-XXXXXX");
	return mkstemp(path);
}

static void read_header(int fd, struct pulse_file_header *h)
{
	if (pread(fd, h, sizeof(*h), 0) != sizeof(*h))
		memset(h, 0, sizeof(*h));
}

static void test_writer__file_layout(void)
{
	struct pulse_data_attr a[2];
	struct pulse_file_header h;
	struct pulse_file_attr fa;
	struct pulse_file_section sec[2];
	unsigned char rec[32], buf[64];
	char path[64];
	int fd = tmpfile_fd(path);
	__u64 ids[3];

	make_attrs(a);
	struct pulse_data_writer *w;

	ASSERT_EQ(pulse_data_writer__new(&w, fd, a, 2, NULL), 0);
	ASSERT_TRUE(w);
	ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_HOSTNAME, "host\0\0\0\0", 8), 0);
	for (int i = 0; i < 5; i++) {
		make_sample(rec, i);
		ASSERT_EQ(pulse_data_writer__write(w, rec, sizeof(rec)), 0);
	}
	/* mid-recording: data.size covers what was written, no feature bits */
	ASSERT_EQ(pulse_data_writer__sync_header(w), 0);
	read_header(fd, &h);
	ASSERT_EQ(h.magic, PULSE_FILE_MAGIC);
	ASSERT_EQ(h.data.size, 5 * 32);
	ASSERT_EQ(h.adds_features[0], 0);
	ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_SAMPLE_TIME,
						 "\1\0\0\0\0\0\0\0\2\0\0\0\0\0\0\0", 16), 0);
	ASSERT_EQ(pulse_data_writer__finish(w), 0);
	pulse_data_writer__delete(w);

	read_header(fd, &h);
	ASSERT_EQ(h.size, 104);
	ASSERT_EQ(h.attr_size, 144);
	ASSERT_EQ(h.attrs.size, 2 * 144);
	ASSERT_EQ(h.data.size, 5 * 32);
	ASSERT_EQ(h.data.offset % 8, 0);
	ASSERT_EQ(h.adds_features[0], (1ULL << PULSE_FEAT_HOSTNAME) | (1ULL << PULSE_FEAT_SAMPLE_TIME));
	/* ids right after the header, in attr order */
	ASSERT_EQ(pread(fd, ids, sizeof(ids), 104), sizeof(ids));
	ASSERT_EQ(ids[0], 7);
	ASSERT_EQ(ids[2], 9);
	ASSERT_EQ(pread(fd, &fa, sizeof(fa), h.attrs.offset + 144), sizeof(fa));
	ASSERT_EQ(fa.attr.size, 128);
	ASSERT_EQ(fa.attr.config, PERF_COUNT_SW_DUMMY);
	ASSERT_EQ(fa.ids.offset, 104 + 16);
	ASSERT_EQ(fa.ids.size, 8);
	/* the table sits right after the data, payloads where it says */
	ASSERT_EQ(pread(fd, sec, sizeof(sec), h.data.offset + h.data.size), sizeof(sec));
	ASSERT_EQ(sec[0].size, 8);
	ASSERT_EQ(pread(fd, buf, 8, sec[0].offset), 8);
	ASSERT_MEMEQ(buf, "host", 5);
	ASSERT_EQ(sec[1].size, 16);
	ASSERT_EQ(pread(fd, buf, 16, sec[1].offset), 16);
	ASSERT_EQ(buf[8], 2);
	ASSERT_EQ(pread(fd, buf, 32, h.data.offset + 4 * 32), 32);
	make_sample(rec, 4);
	ASSERT_MEMEQ(buf, rec, 32);
	close(fd);
	unlink(path);
}

static void test_writer__pipe_mode(void)
{
	struct pulse_data_writer_opts o = { .sz = sizeof(o), .pipe = true };
	struct pulse_data_attr a[2];
	unsigned char rec[32], buf[4096];
	char path[64];
	int fd = tmpfile_fd(path);
	ssize_t n;

	make_attrs(a);
	struct pulse_data_writer *w;

	ASSERT_EQ(pulse_data_writer__new(&w, fd, a, 2, &o), 0);
	ASSERT_TRUE(w);
	ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_HOSTNAME, "host\0\0\0\0", 8), 0);
	/* a feature perf 6.1 does not know is not written (perf report would abort) */
	ASSERT_EQ(pulse_data_writer__add_feature(w, 40, "x\0\0\0\0\0\0\0", 8), 0);
	ASSERT_EQ(pulse_data_writer__add_feature(w, PULSE_FEAT_TRACING_DATA, "abc", 3), 0);
	make_sample(rec, 0);
	ASSERT_EQ(pulse_data_writer__write(w, rec, sizeof(rec)), 0);
	ASSERT_EQ(pulse_data_writer__finish(w), 0);
	pulse_data_writer__delete(w);
	n = pread(fd, buf, sizeof(buf), 0);
	/* 16 header + 2 HEADER_ATTR (8+128+16, 8+128+8) + feature (8+8+8) + tracing (16+8) + 32 */
	ASSERT_EQ(n, 16 + 152 + 144 + 24 + 24 + 32);
	ASSERT_EQ(get_type(buf + 16), PERF_RECORD_HEADER_ATTR);
	ASSERT_EQ(get_type(buf + 16 + 152 + 144), PERF_RECORD_HEADER_FEATURE);
	ASSERT_EQ(get_type(buf + 16 + 152 + 144 + 24), PERF_RECORD_HEADER_TRACING_DATA);
	ASSERT_MEMEQ(buf + n - 32, rec, 32);
	close(fd);
	unlink(path);
}

/* Fill a tiny tmpfs: the file must end with whole records and a valid table. */
static int disk_full_child(void)
{
	char dir[] = "/tmp/pulse-enospc-XXXXXX";
	struct pulse_data_writer_opts o = { .sz = sizeof(o), .reserve = 8192 };
	struct pulse_data_attr a[2];
	struct pulse_file_header h;
	struct pulse_file_section sec[3];
	unsigned char rec[32];
	char path[128], host[64 + 4] = "host";
	struct stat st;
	int fd, ret = 0, i;

	if (!mkdtemp(dir))
		return 10;
	if (unshare(CLONE_NEWNS) || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", dir, "tmpfs", 0, "size=256k")) {
		rmdir(dir);
		return 77;
	}
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	make_attrs(a);
	struct pulse_data_writer *w;

	if (pulse_data_writer__new(&w, fd, a, 2, &o))
		return 11;
	pulse_data_writer__add_feature(w, PULSE_FEAT_TRACING_DATA, host, sizeof(host));
	for (i = 0; i < 100000; i++) {
		make_sample(rec, i);
		ret = pulse_data_writer__write(w, rec, sizeof(rec));
		if (ret)
			break;
	}
	if (ret != -ENOSPC)
		return 12;
	/* a feature added after the disk filled: must not break the file */
	pulse_data_writer__add_feature(w, PULSE_FEAT_HOSTNAME, host, sizeof(host));
	pulse_data_writer__add_feature(w, PULSE_FEAT_CMDLINE, host, sizeof(host));
	if (pulse_data_writer__finish(w))
		return 13;
	pulse_data_writer__delete(w);
	read_header(fd, &h);
	fstat(fd, &st);
	if (h.data.size % 32 || h.data.size < 100 * 1024)
		return 14;
	if (!(h.adds_features[0] & (1ULL << PULSE_FEAT_TRACING_DATA)))
		return 15;
	int nr = __builtin_popcountll(h.adds_features[0]);

	if (pread(fd, sec, nr * sizeof(sec[0]), h.data.offset + h.data.size) !=
	    (ssize_t)(nr * sizeof(sec[0])))
		return 16;
	for (int k = 0; k < nr; k++)
		if (sec[k].offset + sec[k].size > (__u64)st.st_size || sec[k].size != sizeof(host))
			return 17;
	close(fd);
	umount(dir);
	rmdir(dir);
	return 0;
}

static void test_writer__disk_full(void)
{
	int status;
	pid_t pid;

	if (geteuid()) {
		test__skip = "needs root for a private tmpfs";
		return;
	}
	pid = fork();
	if (pid == 0)
		_exit(disk_full_child());
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		test__skip = "cannot mount a private tmpfs here";
		return;
	}
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(WEXITSTATUS(status), 0);
}

/*
 * Big appends through an O_DIRECT fd (a flight snapshot's): the bytes on
 * disk are the records, in order, around the unaligned ends, and the
 * buffered writes before and after them land where they should. The
 * append is bigger than the bounce slots together, so the writing thread
 * frees slots that are filled again. With @fail_direct the O_DIRECT fd
 * cannot write (opened read-only): the writer writes it all buffered.
 */
static void direct_appends(bool fail_direct)
{
	struct pulse_data_writer_opts wo = { .sz = sizeof(wo) };
	struct pulse_data_attr a[2];
	struct pulse_file_header h;
	struct pulse_data_writer *w;
	size_t big = 9 * 1024 * 1024 + 4096 + 32 * 7, cut = 1000003 & ~31UL;
	unsigned char rec[32], *buf = malloc(big), *back = malloc(big + 64);
	struct iovec iov[2];
	char path[64];
	int fd, dfd;

	ASSERT_TRUE(buf && back);
	/* the test's own directory: /tmp may be a tmpfs, which has no O_DIRECT */
	strcpy(path, "pulse-direct-XXXXXX");
	fd = mkstemp(path);
	ASSERT_TRUE(fd >= 0);
	dfd = open(path, (fail_direct ? O_RDONLY : O_WRONLY) | O_DIRECT);
	if (dfd < 0) {
		close(fd);
		unlink(path);
		free(buf);
		free(back);
		test__skip = "no O_DIRECT on this file system";
		return;
	}
	for (size_t i = 0; i < big / 32; i++) {
		make_sample(rec, i);
		memcpy(buf + i * 32, rec, 32);
	}
	make_attrs(a);
	wo.direct = true;
	wo.direct_fd = dfd;
	ASSERT_EQ(pulse_data_writer__new(&w, fd, a, 2, &wo), 0);
	make_sample(rec, 99);
	ASSERT_EQ(pulse_data_writer__write(w, rec, 32), 0);	/* buffered, unaligned end */
	iov[0].iov_base = buf;
	iov[0].iov_len = cut;
	iov[1].iov_base = buf + cut;
	iov[1].iov_len = big - cut;
	ASSERT_EQ(pulse_data_writer__writev(w, iov, 2), 0);	/* direct, in the middle */
	ASSERT_EQ(pulse_data_writer__last_kept(w), big);
	ASSERT_EQ(pulse_data_writer__write(w, rec, 32), 0);	/* buffered again */
	ASSERT_EQ(pulse_data_writer__writev(w, iov, 2), 0);	/* and a second big one */
	ASSERT_EQ(pulse_data_writer__finish(w), 0);
	pulse_data_writer__delete(w);
	read_header(fd, &h);
	ASSERT_EQ(h.data.size, 2 * big + 64);
	ASSERT_EQ(pread(fd, back, big + 64, h.data.offset), (ssize_t)(big + 64));
	ASSERT_MEMEQ(back, rec, 32);
	ASSERT_MEMEQ(back + 32, buf, big);
	ASSERT_MEMEQ(back + 32 + big, rec, 32);
	ASSERT_EQ(pread(fd, back, big, h.data.offset + big + 64), (ssize_t)big);
	ASSERT_MEMEQ(back, buf, big);
	close(dfd);
	close(fd);
	unlink(path);
	free(buf);
	free(back);
}

static void test_writer__direct_appends(void)
{
	direct_appends(false);
}

static void test_writer__direct_fails(void)
{
	direct_appends(true);
}

/* An older perf's attr layout: attr_size and the attrs section follow it; bad sizes refused. */
static void test_writer__older_attr_layout(void)
{
	struct pulse_data_writer_opts wo = { .sz = sizeof(wo), .attr_size = 96 };
	struct pulse_data_attr a[2];
	struct pulse_file_header h;
	struct pulse_data_writer *w;
	char path[] = "/tmp/pulse-test-oldattr.XXXXXX";
	unsigned char attr[96];
	__u32 size;
	int fd = mkstemp(path);

	ASSERT_TRUE(fd >= 0);
	unlink(path);
	make_attrs(a);
	ASSERT_EQ(pulse_data_writer__new(&w, fd, a, 2, &wo), 0);
	ASSERT_EQ(pulse_data_writer__finish(w), 0);
	pulse_data_writer__delete(w);
	read_header(fd, &h);
	ASSERT_EQ(h.attr_size, 96 + 16);
	ASSERT_EQ(h.attrs.size, 2 * (96 + 16));
	/* the second attr starts 112 bytes after the first, with its size 96 */
	ASSERT_EQ(pread(fd, attr, sizeof(attr), h.attrs.offset + 112), (ssize_t)sizeof(attr));
	memcpy(&size, attr + 4, 4);
	ASSERT_EQ(size, 96);
	ASSERT_EQ(get_type(attr), a[1].attr.type);
	close(fd);
	for (size_t bad = 56; bad <= 136; bad += 4) {
		if (bad >= 64 && bad <= 128 && bad % 8 == 0)
			continue;
		wo.attr_size = bad;
		ASSERT_EQ(pulse_data_writer__new(&w, -1, a, 2, &wo), -EINVAL);
	}
}

TEST_MAIN(TEST(test_writer__file_layout), TEST(test_writer__direct_appends),
	  TEST(test_writer__direct_fails),
	  TEST(test_writer__older_attr_layout), TEST(test_writer__pipe_mode),
	  TEST(test_writer__disk_full))
