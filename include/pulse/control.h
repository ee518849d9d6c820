/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf's control protocol (--control, evlist__ctlfd_process()): commands
 * of one line each ("enable", "disable", "snapshot", "stop", "ping") read
 * from a non-blocking fd or fifo, each answered with "ack\n" on the ack fd
 * when there is one. record and stat share the reader; each gives its own
 * meaning to the commands.
 */
#ifndef PULSE_CONTROL_H
#define PULSE_CONTROL_H

/*
 * A command: 0 done (acked), 1 done and stop reading (acked), -ENOENT a
 * command the tool does not know (not acked), another -errno an error.
 */
typedef int (*pulse_control_fn)(const char *cmd, void *arg);

/**
 * pulse_control__process - run the commands @ctl_fd holds now
 * @ctl_fd: non-blocking; a command a line (a NUL ends one as well)
 * @ack_fd: where "ack\n" goes after each known command, -1: nowhere
 * @fn: runs each command
 * @arg: for @fn
 *
 * Return: 0, 1 when @fn asked to stop, or the first -errno.
 */
int pulse_control__process(int ctl_fd, int ack_fd, pulse_control_fn fn, void *arg);

#endif
