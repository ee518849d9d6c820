/* SPDX-License-Identifier: GPL-2.0 */
/* The features an output writes at its start and its end; internal to lib/record. */
#ifndef PULSE_RECORD_FEATURES_H
#define PULSE_RECORD_FEATURES_H

#include <pulse/data.h>
#include <pulse/record-output.h>
#include "record/track.h"

/*
 * TRACING_DATA (from @info), then the features read from the machine
 * (hostname ... EVENT_DESC); one the machine cannot say is left out.
 * Return: 0 or the writer's -errno.
 */
int pulse_record_features__write_start(struct pulse_data_writer *w,
				       const struct pulse_record_output_info *info);

/* BUILD_ID of the DSOs @t saw hit, SAMPLE_TIME when it saw samples. */
int pulse_record_features__write_finish(struct pulse_data_writer *w,
					const struct pulse_record_track *t, bool build_id);

/* -z: COMPRESSED (zstd, @level, perf's rounded @ratio, one ring's @mmap_len). */
int pulse_record_features__write_compressed(struct pulse_data_writer *w, int level, __u32 ratio,
					    size_t mmap_len);

#endif
