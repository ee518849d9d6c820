/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the golden workloads share: raw syscalls and an entry point, so
 * that they link with -nostdlib -static and map nothing but themselves
 * (no libc, no dynamic loader, no vDSO call): the recorded paths and
 * symbols are those of the binaries in ../root, on any machine.
 */
#ifndef GL_H
#define GL_H

#define NOINLINE __attribute__((noinline))

static inline long gl_syscall(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
}

#define GL_WRITE 1
#define GL_FORK 57
#define GL_WAIT4 61
#define GL_PRCTL 157
#define GL_EXIT_GROUP 231
#define GL_PR_SET_NAME 15

int main(void);

/*
 * The kernel starts a process with %rbp zero: _start keeps it so, and
 * the frame-pointer chain of every sample ends at _start.
 */
__asm__(".text\n"
	".globl _start\n"
	".type _start, @function\n"
	"_start:\n"
	"\txor %ebp, %ebp\n"
	"\tand $-16, %rsp\n"
	"\tcall main\n"
	"\tmov %eax, %edi\n"
	"\tmov $231, %eax\n"
	"\tsyscall\n"
	"\thlt\n"
	".size _start, .-_start\n");

#endif
