/* SPDX-License-Identifier: GPL-2.0 */
/* pulse stat's CLI helpers, shared by cmd-stat.c and cli/stat-*.c */
#ifndef PULSE_CLI_STAT_H
#define PULSE_CLI_STAT_H

struct pulse_stat_opts;

/* cli/stat-control.c: --control's spec, into @o's fds (0, or an exit status after an error: line) */
extern const char *stat_control;
int stat_control_setup(struct pulse_stat_opts *o);

#endif
