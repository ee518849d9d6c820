// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data damage reporting: the reader records what made the last call
 * of this thread fail with -EBADMSG, and where, instead of printing it.
 */
#include <errno.h>

#include "data/reader-internal.h"

/*
 * What made the last call of this thread fail with -EBADMSG. The library
 * only logs it at debug level: the caller prints it, once, as its error.
 */
static __thread const char *last_err;
static __thread __u64 last_err_off;

int pulse_data__corrupt(__u64 off, const char *what)
{
	last_err = what;
	last_err_off = off;
	pr_debug("perf.data: %s at offset %#llx\n", what, (unsigned long long)off);
	return -EBADMSG;
}

void pulse_data__error_reset(void)
{
	last_err = NULL;
}

bool pulse_data__has_error(void)
{
	return last_err;
}

const char *pulse_data__error(__u64 *offset)
{
	*offset = last_err ? last_err_off : 0;
	return last_err;
}
