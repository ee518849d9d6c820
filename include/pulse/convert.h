/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Converting a perf.data file into other formats (lib/convert/): JSON as
 * perf 6.1's `perf data convert --to-json` writes it (json.c, the samples;
 * json-head.c, the "headers" object; json-out.c, the escaping and the
 * buffered writer). The converter is a tool over a pulse_session: side-band
 * builds the machine, each sample is resolved through it as report and
 * script resolve theirs.
 */
#ifndef PULSE_CONVERT_H
#define PULSE_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct pulse_session;

struct pulse_json_opts {
	size_t sz;		/* sizeof(struct pulse_json_opts) */
	/*
	 * "captured-on": perf prints the input file's mtime (UTC); with
	 * has_mtime false (a pipe, whose mtime is not the capture's) the key
	 * is left out
	 */
	bool has_mtime;
	time_t mtime;
};

/**
 * pulse_convert_json - write a session's samples as perf 6.1's JSON
 * @s: a session whose machine is set up (pulse_session__init_machine())
 * @out: where the JSON goes; the caller opens, checks and closes it
 * @opts: may be NULL (no "captured-on")
 * @nr_samples: set to the samples written
 *
 * The layout is perf's byte for byte: tabs, key order, its string escapes
 * (bytes of 0x80 and above included, which perf writes as "\uffffffXX"
 * because its char is signed). A pipe's headers are written once its
 * header records are read (at the first sample, or the end).
 * Return: 0; what pulse_session__process() returns (-EBADMSG, -ENOMEM);
 * -EIO when writing to @out failed (errno says why).
 */
int pulse_convert_json(struct pulse_session *s, FILE *out, const struct pulse_json_opts *opts,
		       uint64_t *nr_samples);

#endif
