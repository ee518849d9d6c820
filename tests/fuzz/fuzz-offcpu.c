// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the off-CPU bookkeeping (lib/offcpu): the input is
 * cut into records by their header sizes, as a ring hands them over, and
 * each goes to pulse_offcpu__add_record() under pulse record's sched_switch
 * layout (IDENTIFIER|TID|TIME|CALLCHAIN|RAW, sample_id_all), a flush every
 * 16 records; then the totals are written as offcpu-time samples. Nothing
 * may read past a record or crash, whatever the sizes, callchain lengths,
 * RAW sizes and times say. Built by `make build-fuzz/fuzz-offcpu`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/offcpu.h>

static int drop(void *arg, const void *rec, size_t size)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_TRACEPOINT };
	struct perf_event_attr w = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE };
	struct pulse_offcpu_opts o = { .sz = sizeof(o), .attr = &a, .state_offset = 32,
				       .state_size = 8 };
	struct pulse_offcpu *oc;
	uint8_t *rec;
	size_t off = 0;
	int n = 0;

	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW;
	a.sample_id_all = 1;
	w.sample_type = PULSE_OFFCPU_SAMPLE_TYPES;
	if (pulse_offcpu__new(&oc, &o))
		return 0;
	while (off + 8 <= size) {
		uint16_t len;

		memcpy(&len, data + off + 6, 2);
		if (len < 8 || len > size - off)
			len = size - off;
		/*
		 * a heap copy of exactly the record: ASan sees a read one byte
		 * past it (in a larger stack buffer such a read stays inside)
		 */
		rec = malloc(len);
		if (!rec)
			break;
		memcpy(rec, data + off, len);
		pulse_offcpu__add_record(oc, rec, len);
		free(rec);
		off += len;
		if (++n % 16 == 0)
			pulse_offcpu__flush(oc);
	}
	pulse_offcpu__flush(oc);
	pulse_offcpu__write(oc, &w, 1, drop, NULL);
	pulse_offcpu__delete(oc);
	return 0;
}
