// SPDX-License-Identifier: GPL-2.0
/*
 * The damage table's messages, the same for every command that reads a
 * perf.data (report, report -D, script): one `error:` line naming what is
 * wrong and where for a damaged header or record, and the warnings for
 * bytes that could not be read and records recovered past data.size.
 */
#include <errno.h>
#include <string.h>
#include <pulse/reader.h>
#include "builtin.h"

void data_error(const char *verb, const char *input, int err)
{
	__u64 off = 0;
	const char *what = err == -EBADMSG ? pulse_data__error(&off) : NULL;

	if (what)
		error("'%s': %s at offset %#llx", input, what, (unsigned long long)off);
	else
		error("cannot %s '%s': %s", verb, input, strerror(err < 0 ? -err : EIO));
}

void data_warn_damage(const struct pulse_data *d)
{
	__u64 bytes, off;

	if (pulse_data__recovered(d, &off, &bytes))
		warning("the recording was not finished: %llu bytes of records past the "
			"header's data end (%#llx) were read", (unsigned long long)bytes,
			(unsigned long long)off);
	if (pulse_data__unreadable(d, &bytes, &off))
		warning("%llu bytes unreadable at %#llx", (unsigned long long)bytes,
			(unsigned long long)off);
}
