// SPDX-License-Identifier: GPL-2.0
/*
 * The user stack of a --call-graph dwarf sample, walked back with each
 * DSO's CFI the way perf 6.1 walks it with libunwind (unwind-libunwind-
 * local.c): ips[0] is the sampled ip; each step finds the row of the CFI
 * at the pc (the caller frames' pc less one, unless the frame below is a
 * signal frame), computes the CFA and the caller's registers, and takes the
 * return address; a caller's ip is reported less one unless the step came
 * out of a signal frame (libunwind's unw_is_signal_frame). Memory reads
 * come from the stack copy when inside [sp, sp + dyn_size - 8) (perf's
 * access_mem bound, off by one word), else from the DSO file mapped there.
 *
 * Why libdw's CFI directly and not libdwfl's frame API: dwfl_attach_state
 * wants a Dwfl per process with its modules reported and callbacks that
 * re-find the map of every read; its frame state is built and freed per
 * step. Here each DSO's Dwarf_CFI is opened once for all processes, and
 * the rows found per pc are cached as plain structs (dso-cfi.c), so a step
 * is a hash lookup and a few reads. Measured on bench/unwind.sh's files: a
 * libdwfl prototype (same frames) ran 4.7-5.2x slower; this code without
 * its row cache, 3.5-7x slower.
 *
 * Where no FDE covers the pc, libunwind (x86_64 Gstep.c) falls back: a PLT
 * entry (CFA = sp + 8), else the frame-pointer guess (rbp within 16 KiB
 * above the CFA, ip = [rbp + 8], CFA += 16); so does this.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pulse/symbols.h>
#include <pulse/unwind.h>

#include "unwind-int.h"

#define REGISTRY_BUCKETS 1024

struct pulse_unwinder {
	char *symfs;				/* the root of DSO paths, or NULL */
	char *buildid_dir;			/* perf's build-id cache, or NULL */
	pthread_rwlock_t lock;			/* the registry */
	struct unw_dso *buckets[REGISTRY_BUCKETS];	/* DSOs met, by pointer */
};

/* PERF_REG_X86_* (the sample's order) of each DWARF register 0..16 */
static const uint8_t perf_reg_of[UNW_NREGS] = {
	0, 3, 2, 1, 4, 5, 6, 7,			/* rax rdx rcx rbx rsi rdi rbp rsp */
	16, 17, 18, 19, 20, 21, 22, 23,		/* r8 .. r15 */
	8,					/* rip */
};

/* One unwind's state. */
struct ctx {
	struct pulse_unwinder *u;
	const struct pulse_unwind_sample *s;
	uint64_t sp0;			/* the sampled sp: where the copy starts */
	int err;			/* -ENOMEM met on the way */
	bool have_map;			/* map and d hold the last map found */
	struct pulse_unwind_map map;	/* the last map found */
	struct unw_dso *d;		/* its DSO's CFI, NULL for none */
};

int pulse_unwinder__new(struct pulse_unwinder **out, const struct pulse_unwind_opts *opts)
{
	struct pulse_unwinder *u = calloc(1, sizeof(*u));
	int err;

	*out = NULL;
	if (!u)
		return -ENOMEM;
	err = pthread_rwlock_init(&u->lock, NULL);
	if (err) {
		free(u);
		return -err;
	}
	if (opts && opts->symfs && opts->symfs[0] && strcmp(opts->symfs, "/")) {
		u->symfs = strdup(opts->symfs);
		if (!u->symfs) {
			pulse_unwinder__delete(u);
			return -ENOMEM;
		}
	}
	if (opts && opts->buildid_dir) {
		u->buildid_dir = strdup(opts->buildid_dir);
		if (!u->buildid_dir) {
			pulse_unwinder__delete(u);
			return -ENOMEM;
		}
	}
	*out = u;
	return 0;
}

void pulse_unwinder__delete(struct pulse_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < REGISTRY_BUCKETS; i++) {
		struct unw_dso *d = u->buckets[i], *next;

		for (; d; d = next) {
			next = d->next;
			unw_dso__close(d);
			free(d);
		}
	}
	pthread_rwlock_destroy(&u->lock);
	free(u->symfs);
	free(u->buildid_dir);
	free(u);
}

static size_t bucket_of(const struct pulse_dso *dso)
{
	return ((uintptr_t)dso >> 4) * 0x9E3779B1u % REGISTRY_BUCKETS;
}

/* The CFI of @dso, opened on first use; NULL on -ENOMEM (set in c->err). */
static struct unw_dso *dso_get(struct ctx *c, const struct pulse_dso *dso)
{
	struct pulse_unwinder *u = c->u;
	size_t b = bucket_of(dso);
	struct unw_dso *d;

	pthread_rwlock_rdlock(&u->lock);
	for (d = u->buckets[b]; d && d->key != dso; d = d->next)
		;
	pthread_rwlock_unlock(&u->lock);
	if (d)
		return d;
	pthread_rwlock_wrlock(&u->lock);
	for (d = u->buckets[b]; d && d->key != dso; d = d->next)
		;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (d && unw_dso__open(d, dso, u->symfs, u->buildid_dir)) {
			unw_dso__close(d);
			free(d);
			d = NULL;
		}
		if (d) {
			d->next = u->buckets[b];
			u->buckets[b] = d;
		}
	}
	pthread_rwlock_unlock(&u->lock);
	if (!d)
		c->err = -ENOMEM;
	return d;
}

int pulse_unwinder__warm(struct pulse_unwinder *u, const struct pulse_dso *dso)
{
	struct ctx c = { .u = u };

	dso_get(&c, dso);
	return c.err;
}

/* The map holding @addr and its DSO's CFI (NULL for an anonymous map). */
static int find_map(struct ctx *c, uint64_t addr)
{
	if (c->have_map && addr >= c->map.start && addr < c->map.end)
		return 0;
	c->have_map = false;
	if (c->s->find_map(c->s->arg, addr, &c->map) || addr < c->map.start ||
	    addr >= c->map.end)
		return -ENOENT;
	c->d = c->map.dso ? dso_get(c, c->map.dso) : NULL;
	c->have_map = true;
	return 0;
}

/* perf's access_mem(): the stack copy, else the bytes of the file mapped there */
static int read_mem(void *arg, uint64_t addr, uint64_t *val)
{
	struct ctx *c = arg;
	uint64_t off;

	if (addr + 8 < addr)
		return -EINVAL;
	/*
	 * perf takes the last word of the copy as outside it (addr + 8 >= end);
	 * as an offset, so that an sp near the top of the address space
	 * cannot wrap the bound
	 */
	off = addr - c->sp0;
	if (addr >= c->sp0 && off < c->s->stack_size && c->s->stack_size - off > 8) {
		memcpy(val, (const uint8_t *)c->s->stack + off, 8);
		return 0;
	}
	if (find_map(c, addr))
		return -EINVAL;
	/*
	 * perf's access_dso_mem() returns 1, not an error, when a map holds
	 * the address but its file cannot give the word ([stack], //anon, a
	 * short file): access_mem() then hands libunwind a 0 as a success.
	 * That is where perf's chains end in a frame of ip 0 (shown as
	 * ffffffffffffffff) when the stack copy runs out.
	 */
	*val = 0;
	off = addr - c->map.start + c->map.pgoff;
	if (c->d && c->d->ok && off <= c->d->raw_size && c->d->raw_size - off >= 8)
		memcpy(val, c->d->raw + off, 8);
	return 0;
}

/* libunwind's is_plt_entry(): jmpq *x(%rip); pushq $n; jmpq */
static bool is_plt(struct ctx *c, uint64_t ip)
{
	uint64_t w0, w1;

	if (read_mem(c, ip, &w0) || read_mem(c, ip + 8, &w1))
		return false;
	return (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 && ((w1 >> 24) & 0xff) == 0xe9;
}

/* The state between steps. */
struct frame {
	struct unw_regs regs;	/* the frame's registers; rsp is the CFA */
	uint64_t ip;		/* its pc */
	bool use_prev;		/* look the row up at ip - 1 (not below a signal frame) */
	/*
	 * The last step was out of a signal frame (its FDE has 'S'): the ip
	 * is where the interrupted code resumes, reported as it is. What
	 * perf 6.1 asks with unw_is_signal_frame() after each step, which
	 * libunwind 1.6 answers from the FDE it stepped with, not from the
	 * code at the ip.
	 */
	bool signal;
};

/*
 * Apply one register rule that moves the register (not UNDEF or SAME: those
 * keep the value, as libunwind keeps every register the CFI does not name,
 * where libdw reports the ABI's call-clobbered ones as undefined); on
 * failure the register is lost, as libunwind loses it lazily.
 */
static void apply(struct ctx *c, const struct unw_rule *r, const struct unw_regs *old,
		  uint64_t cfa, int regno, struct unw_regs *new)
{
	uint64_t v, bit = 1u << regno;

	new->valid &= ~bit;
	switch (r->how) {
	case UNW_AT_CFA:
		if (read_mem(c, cfa + r->off, &v))
			return;
		break;
	case UNW_VAL_CFA:
		v = cfa + r->off;
		break;
	case UNW_REG:
		if (!(old->valid & (1u << r->reg)))
			return;
		v = old->val[r->reg] + r->off;
		break;
	case UNW_EXPR:
	case UNW_VAL_EXPR:
		if (unw_expr__eval(r->ops, r->nops, old, cfa, read_mem, c, &v))
			return;
		if (r->how == UNW_EXPR && read_mem(c, v, &v))
			return;
		break;
	default:
		return;
	}
	new->val[regno] = v;
	new->valid |= bit;
}

/* libunwind's fallback where no FDE covers the pc. Return: 1 stepped, 0 end, <0 error. */
static int step_nocfi(struct ctx *c, struct frame *f)
{
	uint64_t cfa = f->regs.val[UNW_RSP], rbp, rbp1, ip;

	f->signal = false;
	if (is_plt(c, f->ip)) {
		if (read_mem(c, cfa, &ip))
			return -EINVAL;
		cfa += 8;
	} else {
		if (!(f->regs.valid & (1u << UNW_RBP)))
			return 0;
		rbp = f->regs.val[UNW_RBP];
		if (!rbp)
			return 0;
		/* libunwind's guess: a frame pointer a little above the CFA */
		if (read_mem(c, rbp, &rbp1) || rbp < cfa || rbp - cfa > 0x4000)
			return 0;
		if (read_mem(c, rbp + 8, &ip))
			return -EINVAL;
		/* every other register is lost; the CFA is libunwind's, not rbp + 16 */
		f->regs.valid = 1u << UNW_RBP;
		f->regs.val[UNW_RBP] = rbp1;
		cfa += 16;
		f->use_prev = true;
	}
	if (ip == f->ip && cfa == f->regs.val[UNW_RSP])
		return -ELOOP;
	f->ip = ip;
	f->regs.val[UNW_RSP] = cfa;
	f->regs.val[UNW_RIP] = ip;
	f->regs.valid |= 1u << UNW_RSP | 1u << UNW_RIP;
	return 1;
}

/* One frame out. Return: 1 stepped, 0 end of the stack, <0 an error (stop too). */
static int step(struct ctx *c, struct frame *f)
{
	uint64_t pc = f->ip - f->use_prev, cfa, ip;
	struct unw_row *own;
	const struct unw_row *row;
	struct unw_regs new;
	uint32_t moved;

	if (find_map(c, pc) || !c->d || !c->d->ok || !c->d->cfi)
		return -EINVAL;		/* perf's find_proc_info(): no map, no DSO, no CFI */
	row = unw_dso__row(c->d, unw_dso__addr(c->d, &c->map, pc), &own);
	if (!row) {
		c->err = -ENOMEM;
		return -ENOMEM;
	}
	if (row == &unw_noinfo)
		return step_nocfi(c, f);

	switch (row->cfa.how) {
	case UNW_REG:
		if (!(f->regs.valid & (1u << row->cfa.reg)))
			goto fail;
		cfa = f->regs.val[row->cfa.reg] + row->cfa.off;
		break;
	case UNW_VAL_EXPR:
		if (unw_expr__eval(row->cfa.ops, row->cfa.nops, &f->regs, 0, read_mem, c, &cfa))
			goto fail;
		break;
	default:
		goto fail;
	}
	/* the end of the stack: an undefined return address (_start's), or rbp's */
	if (row->regs[row->ra].how == UNW_UNDEF || row->regs[UNW_RBP].how == UNW_UNDEF) {
		free(own);
		return 0;
	}
	new = f->regs;
	for (moved = row->moved & ~(1u << UNW_RSP); moved; moved &= moved - 1) {
		int i = __builtin_ctz(moved);

		apply(c, &row->regs[i], &f->regs, cfa, i, &new);
	}
	if (!(new.valid & (1u << row->ra)))
		goto fail;
	ip = new.val[row->ra];
	/* x86_64 libunwind: the caller's sp is the CFA */
	new.val[UNW_RSP] = cfa;
	new.valid |= 1u << UNW_RSP;
	new.val[UNW_RIP] = ip;
	new.valid |= 1u << UNW_RIP;
	if (ip == f->ip && cfa == f->regs.val[UNW_RSP]) {
		free(own);
		return -ELOOP;		/* libunwind's "ip and cfa unchanged" */
	}
	f->regs = new;
	f->ip = ip;
	f->use_prev = !row->signal;
	f->signal = row->signal;
	free(own);
	/* libunwind 1.6 steps to an ip of 0 read from memory; perf reports it */
	return 1;
fail:
	free(own);
	return -EINVAL;
}

/* The sample's register of PERF_REG_X86_* number @id, if it has it. */
static bool sample_reg(const struct pulse_unwind_sample *s, unsigned int id, uint64_t *v)
{
	unsigned int idx;

	if (id >= 64 || !(s->regs_mask & (1ull << id)))
		return false;
	idx = __builtin_popcountll(s->regs_mask & ((1ull << id) - 1));
	memcpy(v, (const uint8_t *)s->regs + 8 * idx, 8);
	return true;
}

int pulse_unwinder__unwind(struct pulse_unwinder *u, const struct pulse_unwind_sample *s,
			   uint64_t *ips, size_t max, size_t *nr)
{
	struct ctx c = { .u = u, .s = s };
	struct frame f = { .use_prev = false };
	size_t n = 0;

	*nr = 0;
	/* perf unwinds nothing without registers or a stack copy */
	if (!max || !s->abi || !s->regs || !s->stack || !s->stack_size)
		return 0;
	for (int i = 0; i < UNW_NREGS; i++)
		if (sample_reg(s, perf_reg_of[i], &f.regs.val[i]))
			f.regs.valid |= 1u << i;
	if (!(f.regs.valid & (1u << UNW_RIP)))
		return 0;
	f.ip = f.regs.val[UNW_RIP];
	ips[n++] = f.ip;
	/* libunwind's unw_init_remote() reads sp: without it, only the ip */
	if (!(f.regs.valid & (1u << UNW_RSP)))
		goto out;
	c.sp0 = f.regs.val[UNW_RSP];
	while (n < max && step(&c, &f) > 0)
		ips[n++] = f.signal ? f.ip : f.ip - 1;
out:
	*nr = n;
	return c.err;
}
