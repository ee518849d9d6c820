// SPDX-License-Identifier: GPL-2.0
/*
 * The output interface of pulse record (include/pulse/record-output.h):
 * what every implementation shares. The calls themselves are inline
 * wrappers around the ops table.
 */
#include <pulse/record-output.h>

void pulse_record_output__delete(struct pulse_record_output *out)
{
	if (out)
		out->ops->delete(out);
}
