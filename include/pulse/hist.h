/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Histograms (lib/hist/hist.c, with sort-key.c, hist-shards.c and
 * hist-sort.c): samples aggregated by sort keys, one struct pulse_hists
 * per event, ordered for output as perf report orders them: by period,
 * largest first, then by each sort key in turn (comm and symbol names
 * alphabetically, DSOs by short name, unknown ones last), then in perf's
 * internal tree order (addresses ascending).
 *
 * Entries are equal when all sort keys are equal in perf's sense: the same
 * comm text, the same tid, the same DSO short name, the same symbol
 * (start and end) or, for unresolved addresses, the same address.
 */
#ifndef PULSE_HIST_H
#define PULSE_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pulse/callchain.h>
#include <pulse/machine.h>
#include <pulse/hist-filter.h>

struct pulse_hists_shards;
struct pulse_hist_srcline;
struct pulse_srclines;

enum pulse_sort_key {
	PULSE_SORT_COMM,	/* "comm" */
	PULSE_SORT_PID,		/* "pid" (perf's Pid:Command: the thread id) */
	PULSE_SORT_DSO,		/* "dso" */
	PULSE_SORT_SYM,		/* "sym", "symbol" */
	PULSE_SORT_CPU,		/* "cpu" */
	PULSE_SORT_SYM_SIZE,	/* "symbol_size" */
	PULSE_SORT_TRACE,	/* "trace": the decoded tracepoint text */
	PULSE_SORT_IPC_NULL,	/* "ipc_null": perf appends it to any "symbol" --sort */
	/*
	 * "tid": a pulse extension, perf 6.1 has no tid key (its "pid" key
	 * already compares thread ids); prints as "pid" does, titled Tid:Command.
	 */
	PULSE_SORT_TID,
	PULSE_SORT_PARENT,	/* "parent": the first callchain frame matching -p */
	/*
	 * The memory keys (lib/hist/sort-mem.c), from the sample's
	 * struct pulse_hist_mem; those up to PULSE_SORT_BLOCKED need perf's
	 * --mem-mode (pulse_sort_key__needs_mem_mode())
	 */
	PULSE_SORT_MEM,			/* "mem": mem_lvl, "L1 hit" */
	PULSE_SORT_SYM_DADDR,		/* "symbol_daddr": the data address's symbol */
	PULSE_SORT_DSO_DADDR,		/* "dso_daddr": its DSO */
	PULSE_SORT_SNOOP,		/* "snoop" */
	PULSE_SORT_TLB,			/* "tlb" */
	PULSE_SORT_LOCKED,		/* "locked" */
	PULSE_SORT_BLOCKED,		/* "blocked" */
	PULSE_SORT_LOCAL_WEIGHT,	/* "local_weight": the first sample's weight */
	PULSE_SORT_WEIGHT,		/* "weight": that times the samples */
	PULSE_SORT_LOCAL_INS_LAT,	/* "local_ins_lat" */
	PULSE_SORT_INS_LAT,		/* "ins_lat" */
	/*
	 * perf's hpp columns as sort keys and -F fields (lib/hist/fields.c):
	 * they never split entries (perf's hpp__nop_cmp), they order them
	 */
	PULSE_SORT_OVERHEAD,		/* "overhead": self period */
	PULSE_SORT_OVERHEAD_CHILDREN,	/* "overhead_children": with the callees' */
	PULSE_SORT_SAMPLE,		/* "sample": samples */
	PULSE_SORT_PERIOD,		/* "period": self period, as a number */
	PULSE_SORT_SRCLINE,		/* "srcline": file:line (lib/hist/sort-srcline.c) */
	/*
	 * "symoff": newer perf's (6.8) symbol+0xoffset of the entry's ip;
	 * perf 6.1 refuses the key
	 */
	PULSE_SORT_SYMOFF,
};

#define PULSE_SORT_MAX_KEYS 16

/*
 * What the memory keys know of a sample (perf's mem_info and the sample's
 * weight fields); pulse_hists__set_mem() before adding it.
 */
struct pulse_hist_mem {
	uint64_t data_src;			/* PERF_SAMPLE_DATA_SRC, 0 without */
	uint64_t weight;			/* WEIGHT, or WEIGHT_STRUCT's var1_dw */
	uint16_t ins_lat;			/* WEIGHT_STRUCT's var2_w */
	uint64_t daddr;				/* PERF_SAMPLE_ADDR */
	uint64_t daddr_off;			/* that in its DSO's space (al.addr) */
	struct pulse_dso *daddr_dso;		/* NULL: not in a map */
	const struct pulse_symbol *daddr_sym;	/* NULL: no symbol there */
};

struct pulse_hist_entry {
	const char *comm;			/* comm at the first sample (interned) */
	struct pulse_thread *thread;		/* thread of the first sample */
	struct pulse_dso *dso;			/* NULL: [unknown] */
	const struct pulse_symbol *sym;		/* NULL: unresolved */
	uint64_t ip;				/* address in the DSO's space (first sample) */
	int cpu;				/* the sample's cpu (PULSE_SORT_CPU) */
	char *trace;				/* owned; NULL: none (PULSE_SORT_TRACE) */
	uint64_t period;			/* sum of sample periods (self) */
	uint64_t acc_period;			/* with the callees' (--children) */
	uint64_t nr_samples;			/* samples */
	char level;				/* 'k', '.', 'H' */
	uint64_t hash;				/* of the key fields */
	/*
	 * When it was made: (sample number << 16) | place in the sample's
	 * walk. Shards merge back in this order, the order one thread makes:
	 * the output comparator is not a total order (perf's is not either),
	 * so the order before sorting shows in ties.
	 */
	uint64_t born;
	struct pulse_cc_root *callchain;	/* NULL: no chain merged (or not kept) */
	/*
	 * perf's callchain->max_depth, the longest chain merged: the order of
	 * tied rows needs it for every entry, trees only for those printed
	 */
	uint32_t max_depth;
	const struct pulse_symbol *parent;	/* PULSE_SORT_PARENT; NULL: [other] */
	const char *srcline;			/* PULSE_SORT_SRCLINE (interned); else NULL */
	struct pulse_hist_mem *mem;		/* owned; NULL without memory keys */
	/*
	 * perf's he->filtered: the first sample's filter verdict, which every
	 * later sample of the entry shares; not printed, in the totals only
	 */
	bool filtered;
	/*
	 * perf made the entry's srcline text before it measured the column
	 * (a comparison in its collapse reached the key): the text counts in
	 * the width; the others are cut to it (pulse_hists__sort())
	 */
	bool srcline_made;
	/*
	 * perf's group view (pulse_hists__link()): the other members' period,
	 * samples and children period, three per member (owned); NULL: none
	 */
	uint64_t *pairs;
};

struct pulse_hists {
	enum pulse_sort_key keys[PULSE_SORT_MAX_KEYS];	/* the sort keys, in order */
	size_t nr_keys;					/* keys used */
	bool sym_key;					/* "sym" is one of them */
	struct pulse_hist_entry *entries;		/* output order after __sort() */
	size_t nr_entries;				/* entries in use */
	size_t alloc;					/* entries allocated */
	uint64_t *index;				/* open-addressing hash into entries */
	size_t index_size;				/* slots, power of two */
	uint64_t total_period;				/* sum over all samples */
	uint64_t nr_samples;				/* samples added */
	uint64_t total_non_filtered_period;		/* without __add_filtered()'s */
	uint64_t nr_non_filtered_samples;		/* without __add_filtered()'s */
	int cur_cpu;					/* pulse_hists__set_sample() */
	const char *cur_trace;				/* pulse_hists__set_sample() */
	bool cumulate;					/* --children */
	bool use_callchain;				/* merge chains into entries */
	struct pulse_callchain_param cc;		/* how chains are merged and sorted */
	struct pulse_arena *cc_arena;			/* the entries' callchain trees */
	uint64_t *he_cache;				/* entries one sample added (slots) */
	size_t he_cache_alloc;
	bool chains_sorted;				/* by pulse_hists__sort() */
	/*
	 * Its part in aggregation on several threads (lib/hist/pool.c): a
	 * sharded hists' shards, a shard's log; NULL: neither. Private to
	 * lib/hist (lib/hist/hist-internal.h).
	 */
	struct pulse_hists_shards *sh;
	const struct pulse_symbol *cur_parent;		/* pulse_hists__set_parent() */
	bool cur_filtered;				/* pulse_hists__set_parent() */
	const struct pulse_hist_mem *cur_mem;		/* pulse_hists__set_mem() */
	/*
	 * After __use_relative(): the total_period before it, which perf's
	 * callchain percentages keep; 0 otherwise
	 */
	uint64_t abs_total_period;
	/*
	 * perf's output fields when -F or an hpp key (PULSE_SORT_OVERHEAD...)
	 * was given (pulse_hists__set_fields()): the columns in order, and
	 * keys[] is then perf's whole sort list, overhead keys included; 0:
	 * the default columns before keys[], the overhead order first
	 */
	enum pulse_sort_key fields[PULSE_SORT_MAX_KEYS];
	size_t nr_fields;
	bool self_title;	/* "overhead" titled Self (perf's default columns) */
	/* the srcline key's texts (pulse_hists__set_srclines()); NULL: none */
	struct pulse_hist_srcline *srcline;
	/*
	 * perf's group view: the other members linked (pulse_hists__link()),
	 * each one's total period and samples as linked (owned, 2 each)
	 */
	size_t nr_pairs;
	uint64_t *pair_totals;
};

/**
 * pulse_sort_keys__parse - parse a --sort list ("comm,dso,sym")
 * @bad: set to the first unknown key (points into @spec) on -EINVAL
 * Return: number of keys, -EINVAL for an unknown key or too many keys.
 */
int pulse_sort_keys__parse(const char *spec, enum pulse_sort_key *keys, size_t max,
			   const char **bad, size_t *bad_len);

int pulse_hists__init(struct pulse_hists *h, const enum pulse_sort_key *keys, size_t nr_keys);
void pulse_hists__exit(struct pulse_hists *h);

/**
 * pulse_hists__add - account one sample
 * @al: where it landed (pulse_machine__resolve())
 * @comm: the thread's comm at the sample, interned
 * Return: 0 or -ENOMEM.
 */
int pulse_hists__add(struct pulse_hists *h, const struct pulse_addr_loc *al, const char *comm,
		     uint64_t period);

/**
 * pulse_hists__set_callchain - merge callchains (@p->enabled), and with
 * @cumulate account each sample to every function on its chain too
 * (perf's --children); call before adding samples
 */
void pulse_hists__set_callchain(struct pulse_hists *h, const struct pulse_callchain_param *p,
				bool cumulate);

/**
 * pulse_hists__add_chain - account one sample with its callchain
 * @chain: frames in the param's order (pulse_machine__resolve_callchain())
 *
 * As perf's hist_entry_iter: the sample's own entry gets the period and
 * the whole chain; in cumulate mode every other entry on the chain (each
 * once, however often it recurs) gets the period as children period and
 * the chain from its frame on.
 * Return: 0 or -ENOMEM.
 */
int pulse_hists__add_chain(struct pulse_hists *h, const struct pulse_addr_loc *al,
			   const char *comm, uint64_t period, const struct pulse_cc_loc *chain,
			   size_t nr);

/*
 * Sharding, for aggregation on several threads (lib/hist/pool.c): the
 * entries are split by hash among @nr shards, each filled by one thread
 * from the same samples, each taking the part of a sample's accounting
 * that falls on its entries; merged into @h at the end. Equal entries
 * fall in one shard, so the result is what one thread would make.
 */
int pulse_hists__make_shards(struct pulse_hists *h, unsigned int nr);

/* The totals part of an add (the caller's thread): shards do not count. */
void pulse_hists__count(struct pulse_hists *h, uint64_t period);

/**
 * pulse_hists__add_shard - shard @part's share of pulse_hists__add_chain()
 * (@nr 0 for a sample without a chain); @seq numbers the samples in order
 * @shards: the array pulse_hists__make_shards() made, of @nr_parts; only
 * shards[@part] is touched
 */
int pulse_hists__add_shard(struct pulse_hists *shards, unsigned int part, unsigned int nr_parts,
			   uint64_t seq, const struct pulse_addr_loc *al, const char *comm,
			   uint64_t period, int cpu, const char *trace,
			   const struct pulse_cc_loc *chain, size_t nr);

/*
 * Two passes, for the thresholds of perf's graph, flat and folded modes:
 * a chain is printed only where it holds min_percent of the event's whole
 * period, so only the few entries with that much (a hundred of 390,000
 * in a system-wide report) need a tree. Pass one (__add_shard()) makes
 * every entry and its periods and depth, and logs the merges it did not
 * do; __mark_hot() picks the entries that may reach the threshold; pass
 * two (__add_shard_trees(), the same samples again, in order) does the
 * logged merges into those only.
 */
bool pulse_hists__defers_trees(const struct pulse_hists *h);

/* After pass one: mark the shards' entries that get trees. Return: 0 or -ENOMEM. */
int pulse_hists__mark_hot(struct pulse_hists *h);

/*
 * Pass two, for the next sample pulse_hists__add_shard() had (same @chain,
 * @nr, @period). Return: 0, -ENOMEM, or -EINVAL when the samples do not
 * match the log.
 */
int pulse_hists__add_shard_trees(struct pulse_hists *shards, unsigned int part,
				 const struct pulse_cc_loc *chain, size_t nr, uint64_t period);

/*
 * Waits for the second pass (if a pool runs it), then makes the trees
 * @h's. pulse_hists__sort() and __exit() call it; the entries can be
 * merged and ordered while the trees grow.
 * Return: 0 or the pass's error.
 */
int pulse_hists__finish_trees(struct pulse_hists *h);

/*
 * Moves the shards' entries into @h and frees the shards (once their
 * trees are done). Return: 0 or -ENOMEM.
 */
int pulse_hists__merge_shards(struct pulse_hists *h);

/*
 * A pool of aggregation threads. The caller resolves samples and hands
 * them over with pulse_hist_pool__add(); the threads fill the hists'
 * shards in batches; pulse_hist_pool__finish() waits for them and merges.
 */
struct pulse_hist_pool;

/**
 * pulse_hist_pool__new - start @nr_threads (at least 2) aggregation threads
 * Return: 0, -EINVAL, -ENOMEM or the pthread error.
 */
int pulse_hist_pool__new(struct pulse_hist_pool **pool, unsigned int nr_threads);

/**
 * pulse_hist_pool__add - pulse_hists__add_chain() (@nr 0: pulse_hists__add())
 * on the threads, with what pulse_hists__set_sample() and
 * pulse_hists__set_parent() last told @h; @chain and the trace text are
 * copied
 * Return: 0, -ENOMEM, or the first error of a thread.
 */
int pulse_hist_pool__add(struct pulse_hist_pool *pool, struct pulse_hists *h,
			 const struct pulse_addr_loc *al, const char *comm, uint64_t period,
			 const struct pulse_cc_loc *chain, size_t nr);

/**
 * pulse_hist_pool__finish - wait until every sample is aggregated; then
 * merge each hists with pulse_hists__merge_shards(). With two passes the
 * threads go on building trees: pulse_hists__finish_trees() waits.
 * @hists: every hists samples were added to, where they are now (an
 * array that grew as events came may have moved); they must stay there
 * until pulse_hist_pool__delete()
 * Return: 0 or the first error of a thread.
 */
int pulse_hist_pool__finish(struct pulse_hist_pool *pool, struct pulse_hists *hists,
			    size_t nr_hists);

/* Waits for the second pass if it runs. Return: 0 or its first error. */
int pulse_hist_pool__wait_trees(struct pulse_hist_pool *pool);

/*
 * Stops the threads if running, finishes the hists' trees and frees the
 * pool; call it before the hists' pulse_hists__exit().
 */
void pulse_hist_pool__delete(struct pulse_hist_pool *pool);

/**
 * pulse_hists__sort_chains - put every entry's callchain in output order
 * (after pulse_hists__sort(), when it did not: without a second thread)
 * Return: 0 or -ENOMEM.
 */
int pulse_hists__sort_chains(struct pulse_hists *h);

/**
 * pulse_hists__sort - put the entries in output order (after which __add()
 * must not be called); with callchains, their trees' order is made at the
 * same time on another thread, and pulse_hists__sort_chains() has nothing
 * left to do. Short of memory for the entries' order, the rows are the
 * same, their ties maybe elsewhere.
 * Return: 0, or the trees' error: -ENOMEM, or that of a pool's second pass
 * (pulse_hists__finish_trees()).
 */
int pulse_hists__sort(struct pulse_hists *h);

/**
 * pulse_hists__set_sample - what the next __add()/__add_chain() knows of
 * its sample beyond the location: its cpu and its tracepoint text (perf's
 * trace key: "N/A" for other events, NULL is the same); @trace is copied
 * when an entry is created
 */
void pulse_hists__set_sample(struct pulse_hists *h, int cpu, const char *trace);

/**
 * pulse_hists__add_filtered - account a sample a filter hid: it counts in
 * the totals (perf's --percentage absolute) but has no entry. perf makes
 * filtered entries instead (pulse_hists__set_parent()), which differs when
 * a filter looks at what the sort keys do not.
 */
void pulse_hists__add_filtered(struct pulse_hists *h, uint64_t period);

/**
 * pulse_hists__set_parent - what the next __add()/__add_chain() knows of
 * its sample from the filters (lib/hist/filter.c): its parent symbol
 * (PULSE_SORT_PARENT, NULL: "[other]") and whether a filter hid it (perf's
 * al->filtered: --comms, --pid, --tid, --dsos, --symbols, -x). An entry
 * takes both from its first sample.
 */
void pulse_hists__set_parent(struct pulse_hists *h, const struct pulse_symbol *parent,
			     bool filtered);

/**
 * pulse_hists__use_relative - perf's --percentage relative: make the totals
 * (header and percentages) those of the entries the filters let through
 */
void pulse_hists__use_relative(struct pulse_hists *h);

/**
 * pulse_hists__hide_key - drop @key from the printed columns (perf's
 * sort__setup_elide(): a filter with one value). Entries keep their
 * identity; refused (false) when it would leave no column.
 */
bool pulse_hists__hide_key(struct pulse_hists *h, enum pulse_sort_key key);

/**
 * pulse_sort_keys__known - the key names pulse_sort_keys__parse() accepts,
 * ", "-separated, for error messages
 */
const char *pulse_sort_keys__known(void);

/* perf's --sort title of a key ("Command", "Trace output", ...) */
const char *pulse_sort_key__title(enum pulse_sort_key key);

/**
 * pulse_hists__set_mem - the memory fields of the next __add()/__add_chain()
 * sample (NULL: none); copied when an entry is created. Not for the pool.
 */
void pulse_hists__set_mem(struct pulse_hists *h, const struct pulse_hist_mem *mem);

struct pulse_sample;
struct perf_event_attr;

/**
 * pulse_hist_mem__init - a sample's memory fields as perf 6.1 on x86 reads
 * them: WEIGHT_STRUCT's var1_dw is the weight and var2_w the instruction
 * latency; with @resolve, the data address is looked up in the thread's
 * maps with the sample's @cpumode and no fallback (perf's ip__resolve_data())
 * Return: 0, or pulse_machine__resolve()'s error.
 */
int pulse_hist_mem__init(struct pulse_hist_mem *mem, const struct perf_event_attr *attr,
			 const struct pulse_sample *s, struct pulse_machine *m, uint8_t cpumode,
			 bool resolve);

/* Does any key read struct pulse_hist_mem? */
bool pulse_hists__has_mem_keys(const struct pulse_hists *h);

/* A memory key perf 6.1 takes only with --mem-mode (mem, symbol_daddr, ... blocked) */
bool pulse_sort_key__needs_mem_mode(enum pulse_sort_key key);

/*
 * lib/hist/sort-mem.c, for sort-key.c and hist.c: the memory keys' se_cmp
 * (their sign) and hash
 */
bool pulse_sort_key__is_mem(enum pulse_sort_key key);
int pulse_sort_mem__cmp(enum pulse_sort_key key, const struct pulse_hist_entry *a,
			const struct pulse_hist_entry *b);
uint64_t pulse_sort_mem__hash(enum pulse_sort_key key, const struct pulse_hist_entry *e);
const char *pulse_sort_mem__title(enum pulse_sort_key key);

/*
 * lib/hist/fields.c: perf's hpp keys (PULSE_SORT_OVERHEAD ... PERIOD),
 * their order (negative: @a first; 0 for other keys) and the output fields
 */
bool pulse_sort_key__is_hpp(enum pulse_sort_key key);
int pulse_sort_hpp__sort(const struct pulse_hists *h, enum pulse_sort_key key,
			 const struct pulse_hist_entry *a, const struct pulse_hist_entry *b);

/**
 * pulse_hists__set_fields - perf's output fields (-F, or --sort with an
 * hpp key): @h's keys are then perf's whole sort list, the overhead keys
 * in it where perf put them; before adding samples. @self_title: the
 * overhead column is titled Self (perf's Children and Self columns).
 * Return: 0 or -EINVAL.
 */
int pulse_hists__set_fields(struct pulse_hists *h, const enum pulse_sort_key *fields, size_t nr,
			    bool self_title);

/**
 * pulse_hists__set_srclines - the source lines of the srcline key, from
 * @lines (borrowed: it outlives @h); before adding samples, on one thread
 * Return: 0 or -ENOMEM.
 */
int pulse_hists__set_srclines(struct pulse_hists *h, struct pulse_srclines *lines);

/**
 * pulse_hists__link - perf's group view, hists__match() and hists__link():
 * @member's entries become @leader's pair values in slot @slot (of
 * @nr_pairs, the members after the leader); an entry @leader lacks is
 * added with no period of its own (perf's dummy entry). After both hists
 * are complete (shards merged, __use_relative() done), before sorting.
 * The output order then takes each member's period after the leader's,
 * as perf's __hpp__sort() does in group mode.
 * Return: 0 or -ENOMEM.
 */
int pulse_hists__link(struct pulse_hists *leader, const struct pulse_hists *member, size_t slot,
		      size_t nr_pairs);

/* Has the key been asked for? */
bool pulse_hists__has_key(const struct pulse_hists *h, enum pulse_sort_key key);

#endif
