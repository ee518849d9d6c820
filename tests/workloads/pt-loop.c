// SPDX-License-Identifier: GPL-2.0
/*
 * pt-loop: a fixed control flow for the synthetic Intel PT traces of
 * tests/tools/pulse-mkpt.c, which reads this binary's symbols and emits the
 * packets this code would make. Usage: pt-loop [N [TSX]] (N iterations,
 * default 10; TSX non-zero runs the transaction, on a CPU with RTM only).
 *
 * pt_run(n, tsx), entered with tracing enabled (TIP.PGE), per iteration
 * (rbx = n, n-1, ..., 1):
 *
 *   pt_loop:  call pt_func           direct call; pt_func's ret: TNT (or TIP
 *   pt_ret1:                         with noretcomp) to pt_ret1
 *             test $1, %bl
 *             jz   pt_even           TNT: taken when rbx is even
 *             add  $3, %rax          (odd rbx only)
 *   pt_even:  lea  pt_ind, %rcx
 *             call *%rcx             TIP pt_ind
 *   pt_ret2:  test %r12, %r12
 *             jz   pt_notx           TNT: taken unless TSX
 *             call pt_tx             (TSX only: MODE.TSX + FUP ...)
 *   pt_notx:  dec  %rbx
 *             jnz  pt_loop           TNT: taken but on the last iteration
 *   pt_done:  exit_group(0) syscall  TIP.PGD, the IP suppressed
 *
 *   pt_ind:   lea pt_ind2, %rdx; jmp *%rdx (TIP pt_ind2); pt_ind2: add; ret
 *   pt_func:  add; ret
 *   pt_tx:    xbegin pt_txab; pt_txadd: add; pt_txend: xend; ret
 *   pt_txab:  ret
 *
 * Instructions per iteration: 13, 14 with odd rbx, 16 more with TSX
 * (commit: xbegin add xend ret + call jz = 5 more... see pulse-mkpt).
 * The labels are local (NOTYPE) symbols: perf and pulse name the functions.
 */
#include <stdlib.h>

void pt_run(long n, long tsx) __attribute__((noreturn));

__asm__(
	"	.text\n"
	"	.globl pt_run\n"
	"	.type pt_run, @function\n"
	"pt_run:\n"
	"	mov %rdi, %rbx\n"
	"	mov %rsi, %r12\n"
	"	xor %eax, %eax\n"
	"pt_loop:\n"
	"	call pt_func\n"
	"pt_ret1:\n"
	"	test $1, %bl\n"
	"	jz pt_even\n"
	"	add $3, %rax\n"
	"pt_even:\n"
	"	lea pt_ind(%rip), %rcx\n"
	"	call *%rcx\n"
	"pt_ret2:\n"
	"	test %r12, %r12\n"
	"	jz pt_notx\n"
	"	call pt_tx\n"
	"pt_notx:\n"
	"	dec %rbx\n"
	"	jnz pt_loop\n"
	"pt_done:\n"
	"	mov $231, %eax\n"
	"	xor %edi, %edi\n"
	"	syscall\n"
	"	.size pt_run, .-pt_run\n"
	"\n"
	"	.type pt_ind, @function\n"
	"pt_ind:\n"
	"	lea pt_ind2(%rip), %rdx\n"
	"	jmp *%rdx\n"
	"pt_ind2:\n"
	"	add $2, %rax\n"
	"	ret\n"
	"	.size pt_ind, .-pt_ind\n"
	"\n"
	"	.type pt_func, @function\n"
	"pt_func:\n"
	"	add $1, %rax\n"
	"	ret\n"
	"	.size pt_func, .-pt_func\n"
	"\n"
	"	.type pt_tx, @function\n"
	"pt_tx:\n"
	"	xbegin pt_txab\n"
	"pt_txadd:\n"
	"	add $1, %rax\n"
	"pt_txend:\n"
	"	xend\n"
	"	ret\n"
	"pt_txab:\n"
	"	ret\n"
	"	.size pt_tx, .-pt_tx\n");

int main(int argc, char **argv)
{
	pt_run(argc > 1 ? atol(argv[1]) : 10, argc > 2 ? atol(argv[2]) : 0);
}
