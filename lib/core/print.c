// SPDX-License-Identifier: GPL-2.0
/* The library's single exit for text: a replaceable print callback. */
#include <stdio.h>
#include "core/internal.h"

static int default_print(enum pulse_print_level level, const char *fmt, va_list ap)
{
	if (level != PULSE_WARN)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static pulse_print_fn_t print_fn = default_print;

pulse_print_fn_t pulse_set_print(pulse_print_fn_t fn)
{
	pulse_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void pulse_print(enum pulse_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}
