// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-synth: writes a perf.data file from a text description, for the
 * format tests: files that perf cannot record on these machines (branch
 * stacks, memory samples, kernel modules, other machines' binaries) and the
 * layouts older perf versions wrote (small attrs, no sample_id_all, pipes
 * without features).
 *
 *   pulse-synth SPEC OUT       (SPEC "-" reads stdin; OUT "-" writes stdout)
 *
 * It writes little-endian files; `pulse-mkdata swap` turns one into what a
 * big-endian producer writes. It does not use libpulse's writer on purpose:
 * it must write layouts that the writer never would.
 *
 * The spec: one directive a line, words "key=value", '#' starts a comment.
 * Numbers are C literals (0x.., decimal, negative). Lists are comma-separated.
 *
 *   format file|pipe            default file
 *   attr_size N                 perf_event_attr bytes written (64 = VER0 ...
 *                               128 = VER7), attr.size set to it; default 128
 *   event name=S type=N config=N period=N freq=N sample_type=A|B|..
 *         read_format=A|B branch_sample_type=A|B regs_user=MASK
 *         stack_user=N ids=N,N flags=F|F|..      (one attr; flags are the
 *         attr's bit fields by perf's names: disabled inherit exclude_user
 *         exclude_kernel exclude_hv exclude_idle mmap comm freq task
 *         sample_id_all mmap_data exclude_guest exclude_host mmap2 comm_exec
 *         context_switch ksymbol bpf_event precise_ip=N is set as precise=N)
 *   feature NAME VALUE...       hostname osrelease version arch cpudesc cpuid
 *                               (a string: the rest of the line); nrcpus ON AVAIL;
 *                               total_mem KB; cmdline WORD...; event_desc
 *                               (from the events); sample_time FIRST LAST;
 *                               raw BIT HEX (any payload)
 *   build_id pid=N bid=HEX name=PATH [misc=kernel|user|guest...]
 *                               a BUILD_ID feature entry (file mode) or a
 *                               HEADER_BUILD_ID record (pipe mode)
 *   comm pid tid comm=S [exec=1]
 *   mmap pid tid start len pgoff name=PATH [misc=kernel|user]
 *   mmap2 pid tid start len pgoff name=PATH [bid=HEX | maj min ino gen]
 *         prot flags [misc=kernel|user]
 *   fork|exit pid ppid tid ptid
 *   lost id lost
 *   sample ev=IDX ip pid tid time addr id stream_id cpu period read=N,..
 *          callchain=N,.. raw=HEX hw_idx=N branch=FROM/TO/FLAGS,..
 *          regs_abi=N regs=N,.. stack=HEX dyn_size=N weight=N
 *          ins_lat=N p_stage=N data_src=N transaction=N phys_addr=N
 *          cgroup=N data_page_size=N code_page_size=N misc=kernel|user|N
 *   round                       a FINISHED_ROUND
 *   bytes HEX                   raw bytes appended to the stream (damage)
 *
 * Side-band records take the sample_id trailer of event ev= (default 0)
 * when that event has sample_id_all, filled from pid tid time id cpu
 * stream_id of the same line. A sample's id defaults to the event's first
 * id. WEIGHT_STRUCT is weight (var1_dw), ins_lat (var2_w), p_stage (var3_w).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#define MAX_EVENTS 16
#define MAX_IDS 16
#define MAX_WORDS 64
#define MAX_LIST 256

enum { REC_HEADER_ATTR = 64, REC_HEADER_BUILD_ID = 67, REC_FINISHED_ROUND = 68,
       REC_HEADER_FEATURE = 80 };
enum { FEAT_BUILD_ID = 2, FEAT_EVENT_DESC = 12, FEAT_MAX = 256 };

struct bytes {
	unsigned char *p;
	size_t len, cap;
};

struct event {
	struct perf_event_attr attr;
	char name[128];
	__u64 ids[MAX_IDS];
	int nr_ids;
};

static struct event events[MAX_EVENTS];
static int nr_events;
static int attr_size = 128;
static int pipe_mode;
static struct bytes feats[FEAT_MAX];
static int feat_set[FEAT_MAX];
static int want_event_desc;
static struct bytes data;	/* the record stream */
static int lineno;

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "pulse-synth: line %d: ", lineno);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void put(struct bytes *b, const void *p, size_t n)
{
	/* an empty feature (BRANCH_STACK) has no buffer: memcpy wants one */
	if (!n)
		return;
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put64(struct bytes *b, __u64 v) { put(b, &v, 8); }
static void put32(struct bytes *b, __u32 v) { put(b, &v, 4); }

static void pad8(struct bytes *b)
{
	static const unsigned char z[8];

	put(b, z, (8 - b->len % 8) % 8);
}

/* a perf string: u32 length (NUL included, padded to 64), then the bytes */
static void put_string(struct bytes *b, const char *s)
{
	static const unsigned char z[64];
	size_t n = strlen(s) + 1, padded = (n + 63) / 64 * 64;

	put32(b, padded);
	put(b, s, n - 1);
	put(b, z, padded - n + 1);
}

static __u64 num(const char *s)
{
	char *end;
	__u64 v;

	errno = 0;
	v = *s == '-' ? (__u64)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("not a number: '%s'", s);
	return v;
}

static size_t hex(const char *s, unsigned char *out, size_t max)
{
	size_t n = 0;

	if (s[0] == '0' && s[1] == 'x')
		s += 2;
	for (; s[0] && s[1]; s += 2) {
		unsigned int v;

		if (n == max || sscanf(s, "%2x", &v) != 1)
			die("bad hex");
		out[n++] = v;
	}
	if (*s)
		die("odd number of hex digits");
	return n;
}

static int list(const char *s, __u64 *out)
{
	int n = 0;
	char buf[4096], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == MAX_LIST)
			die("list too long");
		out[n++] = num(tok);
	}
	return n;
}

struct name_bit {
	const char *name;
	__u64 bit;
};

static const struct name_bit sample_bits[] = {
	{ "IP", PERF_SAMPLE_IP }, { "TID", PERF_SAMPLE_TID }, { "TIME", PERF_SAMPLE_TIME },
	{ "ADDR", PERF_SAMPLE_ADDR }, { "READ", PERF_SAMPLE_READ },
	{ "CALLCHAIN", PERF_SAMPLE_CALLCHAIN }, { "ID", PERF_SAMPLE_ID },
	{ "CPU", PERF_SAMPLE_CPU }, { "PERIOD", PERF_SAMPLE_PERIOD },
	{ "STREAM_ID", PERF_SAMPLE_STREAM_ID }, { "RAW", PERF_SAMPLE_RAW },
	{ "BRANCH_STACK", PERF_SAMPLE_BRANCH_STACK }, { "REGS_USER", PERF_SAMPLE_REGS_USER },
	{ "STACK_USER", PERF_SAMPLE_STACK_USER }, { "WEIGHT", PERF_SAMPLE_WEIGHT },
	{ "DATA_SRC", PERF_SAMPLE_DATA_SRC }, { "IDENTIFIER", PERF_SAMPLE_IDENTIFIER },
	{ "TRANSACTION", PERF_SAMPLE_TRANSACTION }, { "REGS_INTR", PERF_SAMPLE_REGS_INTR },
	{ "PHYS_ADDR", PERF_SAMPLE_PHYS_ADDR }, { "AUX", PERF_SAMPLE_AUX },
	{ "CGROUP", PERF_SAMPLE_CGROUP }, { "DATA_PAGE_SIZE", PERF_SAMPLE_DATA_PAGE_SIZE },
	{ "CODE_PAGE_SIZE", PERF_SAMPLE_CODE_PAGE_SIZE },
	{ "WEIGHT_STRUCT", PERF_SAMPLE_WEIGHT_STRUCT }, { NULL, 0 }
};

static const struct name_bit read_bits[] = {
	{ "TOTAL_TIME_ENABLED", PERF_FORMAT_TOTAL_TIME_ENABLED },
	{ "TOTAL_TIME_RUNNING", PERF_FORMAT_TOTAL_TIME_RUNNING },
	{ "ID", PERF_FORMAT_ID }, { "GROUP", PERF_FORMAT_GROUP }, { "LOST", 1 << 4 },
	{ NULL, 0 }
};

static const struct name_bit branch_bits[] = {
	{ "USER", 1 << 0 }, { "KERNEL", 1 << 1 }, { "HV", 1 << 2 }, { "ANY", 1 << 3 },
	{ "ANY_CALL", 1 << 4 }, { "ANY_RETURN", 1 << 5 }, { "IND_CALL", 1 << 6 },
	{ "ABORT_TX", 1 << 7 }, { "IN_TX", 1 << 8 }, { "NO_TX", 1 << 9 }, { "COND", 1 << 10 },
	{ "CALL_STACK", 1 << 11 }, { "IND_JUMP", 1 << 12 }, { "CALL", 1 << 13 },
	{ "NO_FLAGS", 1 << 14 }, { "NO_CYCLES", 1 << 15 }, { "TYPE_SAVE", 1 << 16 },
	{ "HW_INDEX", 1 << 17 }, { "PRIV_SAVE", 1 << 18 }, { NULL, 0 }
};

static __u64 bits(const char *s, const struct name_bit *tab)
{
	char buf[1024], *tok, *save;
	__u64 v = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save)) {
		const struct name_bit *nb;

		if (isdigit((unsigned char)*tok)) {
			v |= num(tok);
			continue;
		}
		for (nb = tab; nb->name && strcmp(nb->name, tok); nb++)
			;
		if (!nb->name)
			die("unknown bit name '%s'", tok);
		v |= nb->bit;
	}
	return v;
}

static void attr_flag(struct perf_event_attr *a, const char *f)
{
#define FLAG(n)                          \
	if (!strcmp(f, #n)) {            \
		a->n = 1;                \
		return;                  \
	}
	FLAG(disabled) FLAG(inherit) FLAG(pinned) FLAG(exclusive) FLAG(exclude_user)
	FLAG(exclude_kernel) FLAG(exclude_hv) FLAG(exclude_idle) FLAG(mmap) FLAG(comm)
	FLAG(freq) FLAG(inherit_stat) FLAG(enable_on_exec) FLAG(task) FLAG(watermark)
	FLAG(mmap_data) FLAG(sample_id_all) FLAG(exclude_host) FLAG(exclude_guest)
	FLAG(mmap2) FLAG(comm_exec) FLAG(use_clockid) FLAG(context_switch)
	FLAG(ksymbol) FLAG(bpf_event)
#undef FLAG
	if (!strncmp(f, "precise=", 8)) {
		a->precise_ip = num(f + 8);
		return;
	}
	die("unknown attr flag '%s'", f);
}

/* the words of one line, "key=value" split; bare words keep a NULL value */
struct words {
	int n;
	char *key[MAX_WORDS];
	char *val[MAX_WORDS];
	char *rest;	/* the line after the directive, for strings */
};

static const char *get(const struct words *w, const char *key)
{
	for (int i = 1; i < w->n; i++)
		if (w->val[i] && !strcmp(w->key[i], key))
			return w->val[i];
	return NULL;
}

static __u64 getnum(const struct words *w, const char *key, __u64 def)
{
	const char *v = get(w, key);

	return v ? num(v) : def;
}

static __u64 need(const struct words *w, const char *key)
{
	const char *v = get(w, key);

	if (!v)
		die("%s needs %s=", w->key[0], key);
	return num(v);
}

static void do_event(const struct words *w)
{
	struct event *e;
	const char *v;

	if (nr_events == MAX_EVENTS)
		die("too many events");
	e = &events[nr_events++];
	memset(e, 0, sizeof(*e));
	e->attr.type = getnum(w, "type", PERF_TYPE_SOFTWARE);
	e->attr.config = getnum(w, "config", 0);
	e->attr.sample_period = getnum(w, "period", 0);
	if ((v = get(w, "freq"))) {
		e->attr.freq = 1;
		e->attr.sample_freq = num(v);
	}
	if ((v = get(w, "sample_type")))
		e->attr.sample_type = bits(v, sample_bits);
	if ((v = get(w, "read_format")))
		e->attr.read_format = bits(v, read_bits);
	if ((v = get(w, "branch_sample_type")))
		e->attr.branch_sample_type = bits(v, branch_bits);
	e->attr.sample_regs_user = getnum(w, "regs_user", 0);
	e->attr.sample_stack_user = getnum(w, "stack_user", 0);
	snprintf(e->name, sizeof(e->name), "%s", (v = get(w, "name")) ? v : "");
	if ((v = get(w, "flags"))) {
		char buf[1024], *tok, *save;

		snprintf(buf, sizeof(buf), "%s", v);
		for (tok = strtok_r(buf, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
			attr_flag(&e->attr, tok);
	}
	if ((v = get(w, "ids"))) {
		__u64 l[MAX_LIST];
		int n = list(v, l);

		if (n > MAX_IDS)
			die("too many ids");
		memcpy(e->ids, l, n * 8);
		e->nr_ids = n;
	}
}

static void begin(struct bytes *b, __u32 type, __u16 misc)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = 0 };

	b->len = 0;
	put(b, &h, sizeof(h));
}

static void end(struct bytes *b)
{
	struct perf_event_header *h = (void *)b->p;

	pad8(b);
	if (b->len > 0xffff)
		die("record too big");
	h->size = b->len;
	put(&data, b->p, b->len);
}

static __u16 misc_of(const struct words *w, __u16 def)
{
	const char *v = get(w, "misc");

	if (!v)
		return def;
	if (!strcmp(v, "kernel"))
		return PERF_RECORD_MISC_KERNEL;
	if (!strcmp(v, "user"))
		return PERF_RECORD_MISC_USER;
	if (!strcmp(v, "guest_kernel"))
		return PERF_RECORD_MISC_GUEST_KERNEL;
	if (!strcmp(v, "guest_user"))
		return PERF_RECORD_MISC_GUEST_USER;
	if (!strcmp(v, "hv"))
		return PERF_RECORD_MISC_HYPERVISOR;
	return num(v);
}

static struct event *event_of(const struct words *w)
{
	int i = getnum(w, "ev", 0);

	if (i < 0 || i >= nr_events)
		die("no event %d", i);
	return &events[i];
}

static __u64 id_of(const struct words *w, const struct event *e)
{
	return getnum(w, "id", e->nr_ids ? e->ids[0] : 0);
}

/* the sample_id trailer of side-band records */
static void sample_id(struct bytes *b, const struct words *w)
{
	const struct event *e = event_of(w);
	__u64 st = e->attr.sample_type;

	if (!e->attr.sample_id_all)
		return;
	if (st & PERF_SAMPLE_TID) {
		put32(b, getnum(w, "pid", 0));
		put32(b, getnum(w, "tid", 0));
	}
	if (st & PERF_SAMPLE_TIME)
		put64(b, getnum(w, "time", 0));
	if (st & PERF_SAMPLE_ID)
		put64(b, id_of(w, e));
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(b, getnum(w, "stream_id", 0));
	if (st & PERF_SAMPLE_CPU) {
		put32(b, getnum(w, "cpu", 0));
		put32(b, 0);
	}
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(b, id_of(w, e));
}

static void put_name(struct bytes *b, const char *s)
{
	put(b, s, strlen(s) + 1);
	pad8(b);
}

static void do_sideband(const struct words *w)
{
	struct bytes b = { 0 };
	const char *d = w->key[0];
	const char *name = get(w, "name");

	if (!strcmp(d, "comm")) {
		begin(&b, PERF_RECORD_COMM, getnum(w, "exec", 0) ? PERF_RECORD_MISC_COMM_EXEC : 0);
		put32(&b, need(w, "pid"));
		put32(&b, need(w, "tid"));
		put_name(&b, get(w, "comm") ? get(w, "comm") : "");
	} else if (!strcmp(d, "mmap") || !strcmp(d, "mmap2")) {
		int two = d[4] == '2';
		const char *bid = get(w, "bid");
		__u16 misc = misc_of(w, PERF_RECORD_MISC_USER);

		if (two && bid)
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		begin(&b, two ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP, misc);
		put32(&b, need(w, "pid"));
		put32(&b, getnum(w, "tid", getnum(w, "pid", 0)));
		put64(&b, need(w, "start"));
		put64(&b, need(w, "len"));
		put64(&b, getnum(w, "pgoff", 0));
		if (two && bid) {
			unsigned char id[20] = { 0 };
			unsigned char sz = hex(bid, id, 20);

			put(&b, &sz, 1);
			put(&b, "\0\0\0", 3);
			put(&b, id, 20);
		} else if (two) {
			put32(&b, getnum(w, "maj", 0));
			put32(&b, getnum(w, "min", 0));
			put64(&b, getnum(w, "ino", 0));
			put64(&b, getnum(w, "gen", 0));
		}
		if (two) {
			put32(&b, getnum(w, "prot", 5));
			put32(&b, getnum(w, "flags", 2));
		}
		put_name(&b, name ? name : "//anon");
	} else if (!strcmp(d, "fork") || !strcmp(d, "exit")) {
		begin(&b, d[0] == 'f' ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 0);
		put32(&b, need(w, "pid"));
		put32(&b, getnum(w, "ppid", 0));
		put32(&b, getnum(w, "tid", getnum(w, "pid", 0)));
		put32(&b, getnum(w, "ptid", 0));
		put64(&b, getnum(w, "time", 0));
	} else if (!strcmp(d, "lost")) {
		begin(&b, PERF_RECORD_LOST, 0);
		put64(&b, id_of(w, event_of(w)));
		put64(&b, need(w, "lost"));
	}
	sample_id(&b, w);
	end(&b);
	free(b.p);
}

static void do_sample(const struct words *w)
{
	const struct event *e = event_of(w);
	__u64 st = e->attr.sample_type, l[MAX_LIST];
	struct bytes b = { 0 };
	const char *v;
	int n;

	begin(&b, PERF_RECORD_SAMPLE, misc_of(w, PERF_RECORD_MISC_USER));
	if (st & PERF_SAMPLE_IDENTIFIER)
		put64(&b, id_of(w, e));
	if (st & PERF_SAMPLE_IP)
		put64(&b, getnum(w, "ip", 0));
	if (st & PERF_SAMPLE_TID) {
		put32(&b, getnum(w, "pid", 0));
		put32(&b, getnum(w, "tid", getnum(w, "pid", 0)));
	}
	if (st & PERF_SAMPLE_TIME)
		put64(&b, getnum(w, "time", 0));
	if (st & PERF_SAMPLE_ADDR)
		put64(&b, getnum(w, "addr", 0));
	if (st & PERF_SAMPLE_ID)
		put64(&b, id_of(w, e));
	if (st & PERF_SAMPLE_STREAM_ID)
		put64(&b, getnum(w, "stream_id", 0));
	if (st & PERF_SAMPLE_CPU) {
		put32(&b, getnum(w, "cpu", 0));
		put32(&b, 0);
	}
	if (st & PERF_SAMPLE_PERIOD)
		put64(&b, getnum(w, "period", 1));
	if (st & PERF_SAMPLE_READ) {
		n = (v = get(w, "read")) ? list(v, l) : 0;
		for (int i = 0; i < n; i++)
			put64(&b, l[i]);
	}
	if (st & PERF_SAMPLE_CALLCHAIN) {
		n = (v = get(w, "callchain")) ? list(v, l) : 0;
		put64(&b, n);
		for (int i = 0; i < n; i++)
			put64(&b, l[i]);
	}
	if (st & PERF_SAMPLE_RAW) {
		static unsigned char raw[65536];
		size_t len = (v = get(w, "raw")) ? hex(v, raw, sizeof(raw)) : 0;
		size_t padded = (len + 4 + 7) / 8 * 8 - 4;

		memset(raw + len, 0, padded - len);
		put32(&b, padded);
		put(&b, raw, padded);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		char buf[8192], *tok, *save;
		struct bytes br = { 0 };
		__u64 nr = 0;

		snprintf(buf, sizeof(buf), "%s", (v = get(w, "branch")) ? v : "");
		for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			__u64 from, to, flags = 0;
			char *s1 = strchr(tok, '/'), *s2;

			if (!s1)
				die("branch entry FROM/TO[/FLAGS]");
			*s1++ = 0;
			s2 = strchr(s1, '/');
			if (s2) {
				*s2++ = 0;
				flags = num(s2);
			}
			from = num(tok);
			to = num(s1);
			put64(&br, from);
			put64(&br, to);
			put64(&br, flags);
			nr++;
		}
		put64(&b, getnum(w, "nr", nr));
		if (e->attr.branch_sample_type & (1 << 17))	/* HW_INDEX */
			put64(&b, getnum(w, "hw_idx", -1ULL));
		if (br.len)
			put(&b, br.p, br.len);
		free(br.p);
	}
	if (st & PERF_SAMPLE_REGS_USER) {
		put64(&b, getnum(w, "regs_abi", e->attr.sample_regs_user ? 2 : 0));
		n = (v = get(w, "regs")) ? list(v, l) : 0;
		for (int i = 0; i < n; i++)
			put64(&b, l[i]);
	}
	if (st & PERF_SAMPLE_STACK_USER) {
		static unsigned char stack[65536];
		size_t size = e->attr.sample_stack_user;
		size_t len = (v = get(w, "stack")) ? hex(v, stack, sizeof(stack)) : 0;

		if (size > sizeof(stack) || len > size)
			die("stack bigger than stack_user");
		memset(stack + len, 0, size - len);
		put64(&b, size);
		if (size) {
			put(&b, stack, size);
			put64(&b, getnum(w, "dyn_size", len));
		}
	}
	if (st & PERF_SAMPLE_WEIGHT)
		put64(&b, getnum(w, "weight", 0));
	if (st & PERF_SAMPLE_WEIGHT_STRUCT) {
		put32(&b, getnum(w, "weight", 0));
		__u16 h[2] = { getnum(w, "ins_lat", 0), getnum(w, "p_stage", 0) };
		put(&b, h, 4);
	}
	if (st & PERF_SAMPLE_DATA_SRC)
		put64(&b, getnum(w, "data_src", 0));
	if (st & PERF_SAMPLE_TRANSACTION)
		put64(&b, getnum(w, "transaction", 0));
	if (st & PERF_SAMPLE_REGS_INTR)
		put64(&b, 0);	/* abi NONE: no registers */
	if (st & PERF_SAMPLE_PHYS_ADDR)
		put64(&b, getnum(w, "phys_addr", 0));
	if (st & PERF_SAMPLE_CGROUP)
		put64(&b, getnum(w, "cgroup", 0));
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		put64(&b, getnum(w, "data_page_size", 0));
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		put64(&b, getnum(w, "code_page_size", 0));
	if (st & PERF_SAMPLE_AUX)
		put64(&b, 0);
	end(&b);
	free(b.p);
}

static int feature_bit(const char *name)
{
	static const char *const names[] = {
		"", "tracing_data", "build_id", "hostname", "osrelease", "version", "arch",
		"nrcpus", "cpudesc", "cpuid", "total_mem", "cmdline", "event_desc",
		"cpu_topology", "numa_topology", "branch_stack", "pmu_mappings", "group_desc",
		"auxtrace", "stat", "cache", "sample_time", "mem_topology", "clockid",
		"dir_format", "bpf_prog_info", "bpf_btf", "compressed", "cpu_pmu_caps",
		"clock_data", "hybrid_topology", "pmu_caps",
	};

	for (size_t i = 1; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(names[i], name))
			return i;
	die("unknown feature '%s'", name);
	return -1;
}

static void do_feature(const struct words *w)
{
	int bit;
	struct bytes *b;

	if (w->n < 2)
		die("feature NAME ...");
	if (!strcmp(w->key[1], "raw")) {
		unsigned char buf[65536];

		if (w->n < 4)
			die("feature raw BIT HEX");
		bit = num(w->key[2]);
		if (bit <= 0 || bit >= FEAT_MAX)
			die("bad feature bit");
		feats[bit].len = 0;
		put(&feats[bit], buf, hex(w->key[3], buf, sizeof(buf)));
		feat_set[bit] = 1;
		return;
	}
	bit = feature_bit(w->key[1]);
	b = &feats[bit];
	b->len = 0;
	feat_set[bit] = 1;
	switch (bit) {
	case 3: case 4: case 5: case 6: case 8: case 9: {	/* strings */
		const char *s = w->rest;

		for (int skip = 0; skip < 2; skip++) {	/* "feature NAME " */
			while (*s && !isspace((unsigned char)*s))
				s++;
			while (isspace((unsigned char)*s))
				s++;
		}
		put_string(b, s);
		break;
	}
	case 7:	/* nrcpus: online, available */
		put32(b, num(w->key[2]));
		put32(b, num(w->key[3]));
		break;
	case 10:
		put64(b, num(w->key[2]));
		break;
	case 11:
		put32(b, w->n - 2);
		for (int i = 2; i < w->n; i++)
			put_string(b, w->key[i]);
		break;
	case FEAT_EVENT_DESC:
		want_event_desc = 1;	/* built at the end, from the events */
		break;
	case 21:	/* sample_time */
		put64(b, num(w->key[2]));
		put64(b, num(w->key[3]));
		break;
	default:	/* a feature with no payload of its own, as BRANCH_STACK */
		if (w->n > 2)
			die("feature '%s': use feature raw", w->key[1]);
	}
}

static void do_build_id(const struct words *w)
{
	struct bytes b = { 0 };
	unsigned char id[20] = { 0 }, sz, z[4] = { 0 };
	const char *name = get(w, "name");

	sz = hex(get(w, "bid") ? get(w, "bid") : "", id, 20);
	begin(&b, REC_HEADER_BUILD_ID, misc_of(w, PERF_RECORD_MISC_USER) | (1 << 15));
	put32(&b, getnum(w, "pid", -1));
	put(&b, id, 20);
	put(&b, &sz, 1);
	put(&b, z, 3);
	put(&b, name ? name : "", strlen(name ? name : "") + 1);
	while (b.len % 64 != 8 % 64)	/* the name is padded to NAME_ALIGN (64) */
		put(&b, z, 1);
	((struct perf_event_header *)b.p)->size = b.len;
	if (pipe_mode) {
		put(&data, b.p, b.len);
	} else {
		put(&feats[FEAT_BUILD_ID], b.p, b.len);
		feat_set[FEAT_BUILD_ID] = 1;
	}
	free(b.p);
}

static void build_event_desc(void)
{
	struct bytes *b = &feats[FEAT_EVENT_DESC];

	b->len = 0;
	put32(b, nr_events);
	put32(b, attr_size);
	for (int i = 0; i < nr_events; i++) {
		struct perf_event_attr a = events[i].attr;

		a.size = attr_size;
		put(b, &a, attr_size);
		put32(b, events[i].nr_ids);
		put_string(b, events[i].name);
		for (int j = 0; j < events[i].nr_ids; j++)
			put64(b, events[i].ids[j]);
	}
}

static void split(char *line, struct words *w)
{
	char *save, *tok;

	w->n = 0;
	w->rest = NULL;
	while (isspace((unsigned char)*line))
		line++;
	w->rest = line;
	for (tok = strtok_r(line, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '=');

		if (w->n == MAX_WORDS)
			die("too many words");
		w->key[w->n] = tok;
		w->val[w->n] = NULL;
		if (eq && w->n > 0) {
			*eq = 0;
			w->val[w->n] = eq + 1;
		}
		w->n++;
	}
}

static void do_line(char *line)
{
	char copy[8192];
	struct words w;
	const char *d;

	if (strchr(line, '#'))
		*strchr(line, '#') = 0;
	snprintf(copy, sizeof(copy), "%s", line);
	split(line, &w);
	if (!w.n)
		return;
	w.rest = copy + (w.rest - line);
	copy[strcspn(copy, "\n")] = 0;
	d = w.key[0];
	if (!strcmp(d, "format")) {
		pipe_mode = w.n > 1 && !strcmp(w.key[1], "pipe");
	} else if (!strcmp(d, "attr_size")) {
		attr_size = w.n > 1 ? num(w.key[1]) : 0;
		if (attr_size < 64 || attr_size > (int)sizeof(struct perf_event_attr) ||
		    attr_size % 8)
			die("attr_size must be 64..%zu, a multiple of 8",
			    sizeof(struct perf_event_attr));
	} else if (!strcmp(d, "event")) {
		do_event(&w);
	} else if (!strcmp(d, "feature")) {
		do_feature(&w);
	} else if (!strcmp(d, "build_id")) {
		do_build_id(&w);
	} else if (!strcmp(d, "sample")) {
		do_sample(&w);
	} else if (!strcmp(d, "round")) {
		struct bytes b = { 0 };

		begin(&b, REC_FINISHED_ROUND, 0);
		end(&b);
		free(b.p);
	} else if (!strcmp(d, "bytes")) {
		unsigned char buf[65536];

		put(&data, buf, hex(w.key[1], buf, sizeof(buf)));
	} else if (!strcmp(d, "comm") || !strcmp(d, "mmap") || !strcmp(d, "mmap2") ||
		   !strcmp(d, "fork") || !strcmp(d, "exit") || !strcmp(d, "lost")) {
		do_sideband(&w);
	} else {
		die("unknown directive '%s'", d);
	}
}

static void put_attr(struct bytes *b, const struct event *e)
{
	struct perf_event_attr a = e->attr;

	a.size = attr_size;
	put(b, &a, attr_size);
}

static void write_pipe(struct bytes *out)
{
	put64(out, 0x32454c4946524550ULL);
	put64(out, 16);
	for (int i = 0; i < nr_events; i++) {
		struct bytes b = { 0 };

		begin(&b, REC_HEADER_ATTR, 0);
		put_attr(&b, &events[i]);
		for (int j = 0; j < events[i].nr_ids; j++)
			put64(&b, events[i].ids[j]);
		((struct perf_event_header *)b.p)->size = b.len;
		put(out, b.p, b.len);
		free(b.p);
	}
	for (int bit = 1; bit < FEAT_MAX; bit++) {
		struct perf_event_header h = { .type = REC_HEADER_FEATURE };

		if (!feat_set[bit] || bit == FEAT_BUILD_ID)
			continue;
		h.size = sizeof(h) + 8 + (feats[bit].len + 7) / 8 * 8;
		put(out, &h, sizeof(h));
		put64(out, bit);
		put(out, feats[bit].p, feats[bit].len);
		pad8(out);
	}
	put(out, data.p, data.len);
}

static void write_file(struct bytes *out)
{
	__u64 hdr[13] = { 0x32454c4946524550ULL, 104, attr_size + 16 };
	__u64 ids_off = 104, attrs_off, data_off, off;
	int nr_ids = 0, nr_feat = 0;

	for (int i = 0; i < nr_events; i++)
		nr_ids += events[i].nr_ids;
	attrs_off = ids_off + 8 * nr_ids;
	data_off = attrs_off + (__u64)nr_events * (attr_size + 16);
	hdr[3] = attrs_off;
	hdr[4] = (__u64)nr_events * (attr_size + 16);
	hdr[5] = data_off;
	hdr[6] = data.len;
	for (int bit = 1; bit < FEAT_MAX; bit++)
		if (feat_set[bit]) {
			hdr[9 + bit / 64] |= 1ULL << (bit % 64);
			nr_feat++;
		}
	put(out, hdr, sizeof(hdr));
	for (int i = 0; i < nr_events; i++)
		for (int j = 0; j < events[i].nr_ids; j++)
			put64(out, events[i].ids[j]);
	off = ids_off;
	for (int i = 0; i < nr_events; i++) {
		put_attr(out, &events[i]);
		put64(out, off);
		put64(out, 8 * events[i].nr_ids);
		off += 8 * events[i].nr_ids;
	}
	put(out, data.p, data.len);
	off = data_off + data.len + 16 * nr_feat;
	for (int bit = 1; bit < FEAT_MAX; bit++)
		if (feat_set[bit]) {
			put64(out, off);
			put64(out, feats[bit].len);
			off += feats[bit].len;
		}
	for (int bit = 1; bit < FEAT_MAX; bit++)
		if (feat_set[bit])
			put(out, feats[bit].p, feats[bit].len);
}

int main(int argc, char **argv)
{
	char line[8192];
	struct bytes out = { 0 };
	FILE *in, *o;

	if (argc != 3) {
		fprintf(stderr, "usage: pulse-synth SPEC OUT\n");
		return 2;
	}
	in = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
	if (!in) {
		perror(argv[1]);
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		lineno++;
		do_line(line);
	}
	lineno = 0;
	if (!nr_events)
		die("no event");
	if (want_event_desc)
		build_event_desc();
	if (pipe_mode)
		write_pipe(&out);
	else
		write_file(&out);
	o = strcmp(argv[2], "-") ? fopen(argv[2], "wb") : stdout;
	if (!o || fwrite(out.p, 1, out.len, o) != out.len || fclose(o)) {
		perror(argv[2]);
		return 1;
	}
	free(out.p);
	return 0;
}
