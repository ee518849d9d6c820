// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's signals, as perf's: SIGINT and SIGTERM stop the recording,
 * and once the file is complete pulse dies of the signal it got, or of the
 * one that killed the workload (record__sig_exit()), so the shell sees
 * 128 + signal.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include "record.h"

static volatile sig_atomic_t stop_flag;
static volatile sig_atomic_t exit_signal;

static void on_signal(int sig)
{
	stop_flag = 1;
	exit_signal = sig;
}

volatile sig_atomic_t *record_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	return &stop_flag;
}

void record_signals_exit_with(int sig)
{
	exit_signal = sig;
}

/* Die of the exit signal, if there is one; no core of pulse. */
void record_signals_raise(void)
{
	struct rlimit no_core = { 0, 0 };
	int sig = exit_signal;

	if (!sig)
		return;
	fflush(NULL);
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	raise(sig);
}
