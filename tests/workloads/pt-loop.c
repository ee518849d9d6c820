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
 *   .Lpt_loop:  call pt_func         direct call; pt_func's ret: TNT (or TIP
 *   .Lpt_ret1:                       with noretcomp) to .Lpt_ret1
 *               test $1, %bl
 *               jz   .Lpt_even       TNT: taken when rbx is even
 *               add  $3, %rax        (odd rbx only)
 *   .Lpt_even:  lea  pt_ind, %rcx
 *               call *%rcx           TIP pt_ind
 *   .Lpt_ret2:  test %r12, %r12
 *               jz   .Lpt_notx       TNT: taken unless TSX
 *               call pt_tx           (TSX only: MODE.TSX + FUP ...)
 *   .Lpt_notx:  dec  %rbx
 *               jnz  .Lpt_loop       TNT: taken but on the last iteration
 *   .Lpt_done:  exit_group(0)        syscall: TIP.PGD, the IP suppressed
 *
 *   pt_ind:   lea .Lpt_ind2, %rdx; jmp *%rdx (TIP); .Lpt_ind2: add; ret
 *   pt_func:  add; ret
 *   pt_tx:    xbegin .Lpt_txab; .Lpt_txadd: add; .Lpt_txend: xend; ret
 *             .Lpt_txab: ret
 *
 * Instructions: 3 before the loop, 15 per iteration (16 with odd rbx), 3
 * after it (the syscall last); with TSX 5 more per commit (call xbegin add
 * xend ret), 3 more per abort (call xbegin, ret at .Lpt_txab). The labels
 * stay out of the symbol table, so that every address is in exactly one
 * function (perf resolves an address inside overlapping symbols by the
 * shape of its tree); pt_labels (in .rodata) holds their offsets from
 * pt_run, in the order pulse-mkpt expects.
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
	".Lpt_loop:\n"
	"	call pt_func\n"
	".Lpt_ret1:\n"
	"	test $1, %bl\n"
	"	jz .Lpt_even\n"
	"	add $3, %rax\n"
	".Lpt_even:\n"
	"	lea pt_ind(%rip), %rcx\n"
	"	call *%rcx\n"
	".Lpt_ret2:\n"
	"	test %r12, %r12\n"
	"	jz .Lpt_notx\n"
	"	call pt_tx\n"
	".Lpt_notx:\n"
	"	dec %rbx\n"
	"	jnz .Lpt_loop\n"
	".Lpt_done:\n"
	"	mov $231, %eax\n"
	"	xor %edi, %edi\n"
	"	syscall\n"
	"	.size pt_run, .-pt_run\n"
	"\n"
	"	.type pt_ind, @function\n"
	"pt_ind:\n"
	"	lea .Lpt_ind2(%rip), %rdx\n"
	"	jmp *%rdx\n"
	".Lpt_ind2:\n"
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
	"	xbegin .Lpt_txab\n"
	".Lpt_txadd:\n"
	"	add $1, %rax\n"
	".Lpt_txend:\n"
	"	xend\n"
	"	ret\n"
	".Lpt_txab:\n"
	"	ret\n"
	"	.size pt_tx, .-pt_tx\n"
	"\n"
	"	.section .rodata\n"
	"	.globl pt_labels\n"
	"	.type pt_labels, @object\n"
	"pt_labels:\n"
	"	.long 0, .Lpt_loop - pt_run, .Lpt_ret1 - pt_run, .Lpt_even - pt_run\n"
	"	.long .Lpt_ret2 - pt_run, .Lpt_notx - pt_run, .Lpt_done - pt_run\n"
	"	.long pt_ind - pt_run, .Lpt_ind2 - pt_run, pt_tx - pt_run\n"
	"	.long .Lpt_txadd - pt_run, .Lpt_txend - pt_run, .Lpt_txab - pt_run\n"
	"	.size pt_labels, .-pt_labels\n"
	"	.text\n");

int main(int argc, char **argv)
{
	pt_run(argc > 1 ? atol(argv[1]) : 10, argc > 2 ? atol(argv[2]) : 0);
}
