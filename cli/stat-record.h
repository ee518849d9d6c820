/* SPDX-License-Identifier: GPL-2.0 */
/* pulse stat record / report (cli/stat-record.c, cli/stat-report.c): cmd-stat.c's hooks. */
#ifndef PULSE_CLI_STAT_RECORD_H
#define PULSE_CLI_STAT_RECORD_H

#include <stdbool.h>
#include <linux/types.h>
#include <pulse/stat.h>

int cmd_stat_record(int argc, const char **argv);
int cmd_stat_report(int argc, const char **argv);
/* pulse stat runs under `stat record` */
bool stat_recording(void);
/* under stat record: write each read's cells (no-op otherwise); 0 */
int stat_record_attach(struct pulse_stat *st, struct pulse_evlist *evlist, const int *cpus,
		       size_t nr_cpus, const pid_t *tids, int nr_tids, int interval_ms,
		       enum pulse_stat_aggr aggr);
/* a STAT_ROUND after the cells just written: 0 or -errno */
int stat_record_round(__u64 time_ns, bool final);
/* the FINAL round (not with -I), the features, close; prints the error: 0 or -errno */
int stat_record_finish(__u64 wall_ns, bool interval);

#endif
