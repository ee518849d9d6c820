// SPDX-License-Identifier: GPL-2.0
/*
 * bench/aux-capture: how fast AUX area data goes from the area into a
 * perf.data file, on the model PMU (lib/ring/model-aux.c), against a plain
 * memcpy of the same bytes (bench/aux-capture.sh runs it).
 *
 *   aux-capture [MIB] [AREA_KIB] [FILE]   (default 512 MiB, 4096 KiB, /tmp)
 *
 * The model PMU fills half the area, then the consumer (lib/ring/aux.c)
 * takes [aux_tail, aux_head) as one or two iovecs and the file output
 * (lib/record/output-file.c) writes a PERF_RECORD_AUXTRACE and the bytes
 * with one writev, as lib/record/aux.c does in pulse record; only the
 * consumer side is timed. The references time, on the same pieces of the
 * same area: memcpy into a buffer, and write(2) of the piece to a file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/uio.h>
#include <pulse/perf-abi.h>
#include <pulse/record-output.h>
#include <pulse/ring-aux.h>
#include <pulse/ring-model.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct rig {
	struct pulse_ring_model *rm;
	struct pulse_aux_model *am;
	struct pulse_aux aux;
	struct pulse_mmap ring;
	unsigned char *src;
	size_t piece;
};

static int rig_init(struct rig *g, size_t area)
{
	memset(g, 0, sizeof(*g));
	g->piece = area / 2;
	g->src = malloc(g->piece);
	if (!g->src || pulse_ring_model__new(&g->rm, 1 << 20, false) ||
	    pulse_aux_model__new(&g->am, g->rm, area, false) ||
	    pulse_aux__init_mem(&g->aux, pulse_ring_model__base(g->rm),
				pulse_aux_model__data(g->am), area, false) ||
	    pulse_mmap__init_mem(&g->ring, pulse_ring_model__base(g->rm), PULSE_RING_MODEL_PAGE,
				 1 << 20, false))
		return -1;
	for (size_t i = 0; i < g->piece; i++)
		g->src[i] = (unsigned char)(i * 131 + (i >> 9));
	return 0;
}

/* the PMU writes a piece (untimed); its AUX record is dropped from the ring */
static int produce(struct rig *g)
{
	if (pulse_aux_model__write(g->am, g->src, g->piece, 0) != g->piece)
		return -1;
	if (pulse_mmap__read_init(&g->ring) == 0)
		pulse_mmap__read_done(&g->ring);
	return 0;
}

enum how { CAPTURE, MEMCPY, WRITE };

static double run(enum how how, size_t total, size_t area, const char *path)
{
	struct rig g;
	struct pulse_record_output *out = NULL;
	struct pulse_data_attr attr = { .attr = { .type = 8, .size = sizeof(struct perf_event_attr),
						  .sample_id_all = 1 }, .name = "intel_pt//" };
	struct pulse_record_output_info info = { .sz = sizeof(info), .attrs = &attr, .nr_attrs = 1,
						 .no_buildid = true };
	unsigned char *dst = NULL;
	double t = 0;
	int fd = -1;

	if (rig_init(&g, area))
		return -1;
	if (how != MEMCPY) {
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			return -1;
	}
	if (how == CAPTURE && (pulse_record_output__new_file(&out, fd) ||
			       pulse_record_output__start(out, &info)))
		return -1;
	if (how == MEMCPY && !(dst = malloc(g.piece)))
		return -1;
	for (size_t done = 0; done < total; done += g.piece) {
		struct pulse_aux_chunk c;
		double t0;

		if (produce(&g))
			return -1;
		t0 = now_s();
		if (pulse_aux__read(&g.aux, &c))
			return -1;
		if (how == CAPTURE) {
			struct {
				struct perf_event_header h;
				__u64 size, offset, reference;
				__u32 idx, tid, cpu, reserved;
			} ev = { { PERF_RECORD_AUXTRACE, 0, sizeof(ev) }, c.size, c.offset, 0, 0,
				 (__u32)-1, 0, 0 };

			if (pulse_record_output__write_aux(out, &ev, sizeof(ev), c.iov, c.cnt))
				return -1;
		} else if (how == MEMCPY) {
			size_t off = 0;

			for (int i = 0; i < c.cnt; i++) {
				memcpy(dst + off, c.iov[i].iov_base, c.iov[i].iov_len);
				off += c.iov[i].iov_len;
			}
			__asm__ volatile("" : : "r"(dst) : "memory");
		} else if (writev(fd, c.iov, c.cnt) != (ssize_t)c.size) {
			return -1;
		}
		pulse_aux__consume(&g.aux, &c);
		t += now_s() - t0;
	}
	if (out && pulse_record_output__finish(out))
		return -1;
	pulse_record_output__delete(out);
	if (fd >= 0)
		close(fd);
	unlink(path);
	free(dst);
	free(g.src);
	pulse_aux_model__delete(g.am);
	pulse_ring_model__delete(g.rm);
	return t;
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 512;
	size_t area = (argc > 2 ? strtoul(argv[2], NULL, 10) : 4096) * 1024;
	const char *dir = argc > 3 ? argv[3] : "/tmp";
	size_t total = mib << 20;
	char path[4096];
	double cap, cpy, wr;

	snprintf(path, sizeof(path), "%s/pulse-aux-bench.%d", dir, (int)getpid());
	cap = run(CAPTURE, total, area, path);
	cpy = run(MEMCPY, total, area, path);
	wr = run(WRITE, total, area, path);
	if (cap <= 0 || cpy <= 0 || wr <= 0) {
		fprintf(stderr, "aux-capture: a run failed\n");
		return 1;
	}
	printf("AUX capture on the model PMU: %zu MiB in %zu KiB pieces of a %zu KiB area\n", mib,
	       area / 2048, area / 1024);
	printf("  %-44s %8.0f MB/s\n", "capture (AUXTRACE + writev to perf.data)", total / cap / 1e6);
	printf("  %-44s %8.0f MB/s\n", "memcpy of the same pieces", total / cpy / 1e6);
	printf("  %-44s %8.0f MB/s\n", "write(2) of the same pieces to a file", total / wr / 1e6);
	printf("  capture/memcpy %.2f, capture/write(2) %.2f\n", cpy / cap, wr / cap);
	return 0;
}
