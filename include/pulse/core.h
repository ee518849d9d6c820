/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libpulse core: the print callback. The library never prints to a stream
 * of its own and never exits; it reports through the function installed
 * with pulse_set_print() (as libbpf_set_print does), and returns 0 or a
 * negative errno from every action.
 */
#ifndef PULSE_CORE_H
#define PULSE_CORE_H

#include <stdarg.h>

enum pulse_print_level {
	PULSE_WARN,
	PULSE_INFO,
	PULSE_DEBUG,
};

typedef int (*pulse_print_fn_t)(enum pulse_print_level level, const char *fmt, va_list ap);

/**
 * pulse_set_print - install the library's print callback
 * @fn: the new callback, or NULL to silence the library
 *
 * Return: the previous callback. The default prints warnings to stderr.
 */
pulse_print_fn_t pulse_set_print(pulse_print_fn_t fn);

#define PULSE_VERSION "0.1.0"

#endif
