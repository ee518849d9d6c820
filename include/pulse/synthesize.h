/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthesized records: what the kernel would have reported for the kernel
 * image and for tasks that existed before recording started, read from
 * /proc the way perf 6.1's synthetic-events.c does, so that samples of
 * those tasks resolve to names and DSOs in a report.
 *
 * Every record is handed to a callback as soon as it is built; records are
 * 8-aligned and end with opts->id_size zero bytes standing for the
 * sample_id trailer (perf leaves it zeroed as well).
 */
#ifndef PULSE_SYNTHESIZE_H
#define PULSE_SYNTHESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct pulse_synth_opts {
	size_t sz;		/* sizeof(struct pulse_synth_opts) */
	size_t id_size;		/* bytes of zeroed sample_id trailer to append
				 * (pulse_sample__id_size(attr)); a multiple of 8 */
	const char *proc;	/* default "/proc"; tests use a fake tree */
	const char *kallsyms_cache;	/* keep the kernel's text range here per boot (NULL: no) */
	bool mmap_data;		/* also non-exec readable maps (perf record -d),
				 * flagged PERF_RECORD_MISC_MMAP_DATA */
};

/*
 * Receives one record (header included, @len == header.size). The bytes are
 * reused after the call returns. A non-zero return stops the synthesis and
 * is passed back to the caller.
 */
typedef int (*pulse_synth_cb)(const void *rec, size_t len, void *arg);

/**
 * pulse_synthesize__kernel_mmap - the PERF_RECORD_MMAP for the kernel image
 *
 * misc PERF_RECORD_MISC_KERNEL, pid -1, tid 0, filename
 * "[kernel.kallsyms]_text", start = pgoff = address of _text (_stext if
 * there is none) and len up to _etext, from <proc>/kallsyms.
 *
 * Return: 0; -EACCES when kallsyms hides addresses (kptr_restrict);
 * -ENOENT when there is no _text; the callback's value; other -errno.
 */
int pulse_synthesize__kernel_mmap(const struct pulse_synth_opts *opts, pulse_synth_cb cb,
				  void *arg);

/**
 * pulse_synthesize__comm - one PERF_RECORD_COMM for @pid (pid = its tgid,
 * tid = @pid), as perf writes for the forked workload before it execs.
 *
 * Return: 0; -ENOENT when the task is gone; the callback's value.
 */
int pulse_synthesize__comm(pid_t pid, const struct pulse_synth_opts *opts, pulse_synth_cb cb,
			   void *arg);

/**
 * pulse_synthesize__task - records for an existing process, as perf record
 * -p writes them: for each thread of <proc>/@pid/task in ascending tid
 * order a COMM, and right after the leader's COMM one MMAP2 per executable
 * mapping of <proc>/@pid/task/@pid/maps (all readable mappings with
 * opts->mmap_data). Kernel threads get no MMAP2.
 *
 * Threads that exit meanwhile are skipped.
 *
 * Return: 0; -ENOENT when the process is gone; the callback's value.
 */
int pulse_synthesize__task(pid_t pid, const struct pulse_synth_opts *opts, pulse_synth_cb cb,
			   void *arg);

/**
 * pulse_synthesize__thread - records for one existing thread, as perf
 * record -t writes them: a COMM for @tid (pid = its tgid) and, when @tid is
 * its process's leader, that process's MMAP2s; for another thread, then
 * the leader's COMM and MMAP2s too (perf adds the leader of every thread
 * whose leader is not itself being recorded; with -t tids of one process,
 * pass the leader first and use pulse_synthesize__comm() for the others
 * to avoid repeating it).
 *
 * Return: 0; -ENOENT when the thread is gone; the callback's value.
 */
int pulse_synthesize__thread(pid_t tid, const struct pulse_synth_opts *opts, pulse_synth_cb cb,
			     void *arg);

/**
 * pulse_synthesize__all - records for every process in <proc>, as perf
 * record -a writes them: per process, in ascending pid order, and per
 * thread in ascending tid order, a FORK (misc PERF_RECORD_MISC_FORK_EXEC;
 * the leader's parent is its PPid, other threads' parent is the leader)
 * then a COMM, and after the leader's COMM its MMAP2s (none for kernel
 * threads).
 *
 * Processes and threads that vanish while being read are skipped.
 *
 * Return: 0; -errno when <proc> cannot be listed; the callback's value.
 */
int pulse_synthesize__all(const struct pulse_synth_opts *opts, pulse_synth_cb cb, void *arg);

#endif
