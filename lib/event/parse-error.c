// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers the event parser shares with the sysfs PMU and tracefs readers
 * below it: filling in a struct pulse_parse_error, and freeing the
 * NULL-terminated name vectors those readers return. Kept apart from
 * parse.c so that pmu.c and tracepoint.c need nothing from the parser.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/internal.h"
#include "event/parse-internal.h"

int pulse_parse_err(struct pulse_parse_error *err, int ret, const char *token,
		    const char *hint, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return ret;
	snprintf(err->token, sizeof(err->token), "%s", token ? token : "");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	snprintf(err->hint, sizeof(err->hint), "%s", hint ? hint : "");
	pr_debug("event parser: %s\n", err->msg);
	return ret;
}

void pulse_strv_free(char **strv)
{
	for (char **s = strv; s && *s; s++)
		free(*s);
	free(strv);
}
