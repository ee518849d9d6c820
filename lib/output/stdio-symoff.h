/* SPDX-License-Identifier: GPL-2.0 */
/* lib/output/stdio-symoff.c, for stdio.c: the symoff key's column */
#ifndef PULSE_OUTPUT_STDIO_SYMOFF_H
#define PULSE_OUTPUT_STDIO_SYMOFF_H

#include <stddef.h>
#include <pulse/hist.h>

/* "[.] sym+0xOFF" of @e, never cut; "[.] 0x..." to @width without a symbol */
int pulse_stdio_symoff__snprintf(char *buf, size_t size, const struct pulse_hist_entry *e,
				 int width);

#endif
