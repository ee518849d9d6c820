// SPDX-License-Identifier: GPL-2.0
/*
 * perf's fixed event names: the software and hardware symbols with their
 * aliases, the hardware cache naming scheme (<cache>-<op>-<result>), the
 * modifier suffix perf derives from an attr when it names an event itself,
 * and the edit distance used to suggest a name for a misspelt one. The
 * tables and spellings follow perf 6.1 (tools/perf/util/evsel.c and
 * parse-events.l) so that specs and names round-trip between the two tools.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "event/parse-internal.h"

#define HW(cfg, n, a, d) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##cfg, d }
#define SW(cfg, n, a, d) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##cfg, d }

const struct pulse_event_symbol pulse_event_symbols[] = {
	HW(CPU_CYCLES, "cpu-cycles", "cycles", "CPU cycles"),
	HW(INSTRUCTIONS, "instructions", NULL, "Instructions retired"),
	HW(CACHE_REFERENCES, "cache-references", NULL, "Cache accesses"),
	HW(CACHE_MISSES, "cache-misses", NULL, "Cache misses"),
	HW(BRANCH_INSTRUCTIONS, "branch-instructions", "branches", "Branch instructions retired"),
	HW(BRANCH_MISSES, "branch-misses", NULL, "Mispredicted branches"),
	HW(BUS_CYCLES, "bus-cycles", NULL, "Bus cycles"),
	HW(STALLED_CYCLES_FRONTEND, "stalled-cycles-frontend", "idle-cycles-frontend",
	   "Stalled cycles during issue"),
	HW(STALLED_CYCLES_BACKEND, "stalled-cycles-backend", "idle-cycles-backend",
	   "Stalled cycles during retirement"),
	HW(REF_CPU_CYCLES, "ref-cycles", NULL, "Cycles not affected by frequency scaling"),
	SW(CPU_CLOCK, "cpu-clock", NULL, "Per-CPU high-resolution timer"),
	SW(TASK_CLOCK, "task-clock", NULL, "Per-task high-resolution timer"),
	SW(PAGE_FAULTS, "page-faults", "faults", "Page faults"),
	SW(CONTEXT_SWITCHES, "context-switches", "cs", "Context switches"),
	SW(CPU_MIGRATIONS, "cpu-migrations", "migrations", "Migrations to another CPU"),
	SW(PAGE_FAULTS_MIN, "minor-faults", NULL, "Page faults served without I/O"),
	SW(PAGE_FAULTS_MAJ, "major-faults", NULL, "Page faults that needed I/O"),
	SW(ALIGNMENT_FAULTS, "alignment-faults", NULL, "Unaligned accesses fixed up by the kernel"),
	SW(EMULATION_FAULTS, "emulation-faults", NULL, "Instructions emulated by the kernel"),
	SW(DUMMY, "dummy", NULL, "Counts nothing; carries side-band records"),
	SW(BPF_OUTPUT, "bpf-output", NULL, "Output of BPF programs"),
	SW(CGROUP_SWITCHES, "cgroup-switches", NULL, "Context switches to another cgroup"),
};

const size_t pulse_nr_event_symbols = ARRAY_SIZE(pulse_event_symbols);

const struct pulse_event_symbol *pulse_event_symbol__find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(pulse_event_symbols); i++) {
		const struct pulse_event_symbol *s = &pulse_event_symbols[i];

		if (!strcmp(s->name, name) || (s->alias && !strcmp(s->alias, name)))
			return s;
	}
	return NULL;
}

#define MAX_ALIASES 8

/* perf's evsel__hw_cache*: the first spelling is the canonical one. */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][MAX_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][MAX_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][MAX_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

#define OP(x) (1u << PERF_COUNT_HW_CACHE_OP_##x)
/* Which operations each cache has: L1I reads and prefetches, ITLB and BPU only read. */
static const unsigned int cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I] = OP(READ) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB] = OP(READ) | OP(WRITE) | OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB] = OP(READ),
	[PERF_COUNT_HW_CACHE_BPU] = OP(READ),
	[PERF_COUNT_HW_CACHE_NODE] = OP(READ) | OP(WRITE) | OP(PREFETCH),
};

/*
 * The lexer's view: which spelling of @table starts @s and ends at a '-'
 * or the end. The longest wins so that "branches" is not read as "branch".
 * Return: its length, the row in *idx; 0 when none does.
 */
static size_t match_token(const char *s, const char *const table[][MAX_ALIASES], int rows,
			  int *idx)
{
	size_t best = 0;

	for (int i = 0; i < rows; i++) {
		for (int j = 0; j < MAX_ALIASES && table[i][j]; j++) {
			size_t n = strlen(table[i][j]);

			if (n > best && !strncmp(s, table[i][j], n) && (s[n] == '-' || !s[n])) {
				best = n;
				*idx = i;
			}
		}
	}
	return best;
}

int pulse_hw_cache__parse(const char *name, __u64 *config)
{
	int type = -1, op = -1, result = -1, idx;
	const char *p = name;
	size_t n;

	n = match_token(p, cache_names, PERF_COUNT_HW_CACHE_MAX, &type);
	if (!n)
		return -ENOENT;
	p += n;
	/* Up to two more words, each an operation or a result, in any order. */
	for (int words = 0; *p && words < 2; words++) {
		if (*p != '-')
			return -ENOENT;
		p++;
		if (op < 0 && (n = match_token(p, cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, &idx))) {
			op = idx;
		} else if (result < 0 &&
			   (n = match_token(p, cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, &idx))) {
			result = idx;
		} else {
			return -ENOENT;
		}
		p += n;
	}
	if (*p)
		return -ENOENT;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	if (!(cache_valid_ops[type] & (1u << op)))
		return -EINVAL;
	*config = type | (op << 8) | ((__u64)result << 16);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pulse_hw_cache__for_each(pulse_hw_cache_cb cb, void *arg)
{
	enum { MAX = PERF_COUNT_HW_CACHE_MAX * PERF_COUNT_HW_CACHE_OP_MAX *
		     PERF_COUNT_HW_CACHE_RESULT_MAX };
	char names[MAX][64], *sorted[MAX];
	int n = 0, ret = 0;

	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++) {
		for (int o = 0; o < PERF_COUNT_HW_CACHE_OP_MAX; o++) {
			if (!(cache_valid_ops[t] & (1u << o)))
				continue;
			for (int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				/* perf's __evsel__hw_cache_type_op_res_name(): "loads" for accesses */
				if (r)
					snprintf(names[n], sizeof(names[n]), "%s-%s-%s",
						 cache_names[t][0], cache_ops[o][0],
						 cache_results[r][0]);
				else
					snprintf(names[n], sizeof(names[n]), "%s-%s",
						 cache_names[t][0], cache_ops[o][1]);
				sorted[n] = names[n];
				n++;
			}
		}
	}
	qsort(sorted, n, sizeof(sorted[0]), cmp_str);
	for (int i = 0; i < n && !ret; i++) {
		__u64 config = 0;

		pulse_hw_cache__parse(sorted[i], &config);
		ret = cb(sorted[i], config, arg);
	}
	return ret;
}

void pulse_attr__modifier_suffix(const struct perf_event_attr *attr, char *buf, size_t size)
{
	bool exclude_guest_default = false;
	size_t r = 0;
	bool colon = false;

	/* perf's evsel__add_modifiers(), which names events it renamed itself */
#define ADD(c)                                                  \
	do {                                                    \
		if (r + 2 < size) {                             \
			if (!colon) {                           \
				buf[r++] = ':';                 \
				colon = true;                   \
			}                                       \
			buf[r++] = (c);                         \
		}                                               \
	} while (0)

	if (!size)
		return;
	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			ADD('k');
		if (!attr->exclude_user)
			ADD('u');
		if (!attr->exclude_hv)
			ADD('h');
		exclude_guest_default = true;
	}
	for (unsigned int i = 0; i < attr->precise_ip; i++)
		ADD('p');
	if (attr->precise_ip)
		exclude_guest_default = true;
	if (attr->exclude_host || attr->exclude_guest == exclude_guest_default) {
		if (!attr->exclude_host)
			ADD('H');
		if (!attr->exclude_guest)
			ADD('G');
	}
#undef ADD
	buf[r] = '\0';
}

int pulse_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int *d, ret;

	if (la > 256 || lb > 256)
		return 1 << 20;
	d = malloc((la + 1) * (lb + 1) * sizeof(*d));
	if (!d)
		return 1 << 20;
#define D(i, j) d[(i) * (lb + 1) + (j)]
	for (size_t i = 0; i <= la; i++)
		D(i, 0) = i;
	for (size_t j = 0; j <= lb; j++)
		D(0, j) = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = D(i - 1, j) + 1;

			if (D(i, j - 1) + 1 < v)
				v = D(i, j - 1) + 1;
			if (D(i - 1, j - 1) + cost < v)
				v = D(i - 1, j - 1) + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	}
	ret = D(la, lb);
#undef D
	free(d);
	return ret;
}
