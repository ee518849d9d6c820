// SPDX-License-Identifier: GPL-2.0
/*
 * gl-fork: two processes, named apart. The child renames itself
 * "gl-child" first thing (prctl), then both spin and write(1, ...) five
 * times: parent_work/child_work samples under two comms and pids, and ten
 * syscalls:sys_enter_write with known fds, buffers and counts.
 */
#include "gl.h"

static volatile unsigned long sink;
static const char parent_msg[] = "parent\n";
static const char child_msg[] = "child says hello\n";

NOINLINE static unsigned long spin(unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i ^ (s >> 5);
	return s;
}

NOINLINE void child_work(void)
{
	sink += spin(6000000);
	gl_syscall(GL_WRITE, 1, (long)child_msg, sizeof(child_msg) - 1, 0);
}

NOINLINE void parent_work(void)
{
	sink += spin(4000000);
	gl_syscall(GL_WRITE, 1, (long)parent_msg, sizeof(parent_msg) - 1, 0);
}

int main(void)
{
	if (gl_syscall(GL_FORK, 0, 0, 0, 0) == 0) {
		gl_syscall(GL_PRCTL, GL_PR_SET_NAME, (long)"gl-child", 0, 0);
		for (int r = 0; r < 5; r++)
			child_work();
		return 0;
	}
	for (int r = 0; r < 5; r++)
		parent_work();
	gl_syscall(GL_WAIT4, -1, 0, 0, 0);
	return 0;
}
