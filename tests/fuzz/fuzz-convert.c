// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for pulse data convert --to-json: each input is opened
 * as an in-memory perf.data (file or pipe mode) and converted to JSON on
 * /dev/null, as the CLI does: the session walk, the machine's side-band,
 * the samples (callchains of any length and markers) and the feature
 * payloads the "headers" object reads (strings, NRCPUS, CMDLINE,
 * CLOCK_DATA). No symbol file is read: the input names the paths. Built by
 * `make fuzz`; run by tests/fuzz/run-fuzz.sh.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <pulse/convert.h>
#include <pulse/core.h>
#include <pulse/session.h>

static int quiet(enum pulse_print_level level, const char *fmt, va_list ap)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *buf, size_t len)
{
	static FILE *null;
	struct pulse_symbol_opts so = { .sz = sizeof(so), .no_symbols = true, .no_vdso = true };
	struct pulse_json_opts jo = { .sz = sizeof(jo), .has_mtime = true, .mtime = 981173106 };
	struct pulse_session *s;
	uint64_t nr;

	pulse_set_print(quiet);
	if (!null)
		null = fopen("/dev/null", "w");
	if (!null || pulse_session__new_mem(&s, buf, len, NULL))
		return 0;
	if (!pulse_session__init_machine(s, &so))
		pulse_convert_json(s, null, &jo, &nr);
	pulse_session__delete(s);
	return 0;
}
