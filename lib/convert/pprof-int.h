/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pprof converter's tables (lib/convert/pprof.c fills them during the
 * walk, pprof-write.c writes them): ids are indexes + 1, as pprof wants
 * nonzero ids, and string indexes point into one interned string table
 * whose entry 0 is "".
 */
#ifndef PULSE_PPROF_INT_H
#define PULSE_PPROF_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pulse/convert-pprof.h>
#include <pulse/machine.h>

static inline uint64_t pp_mix(uint64_t a, uint64_t b)
{
	uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL) * 0xc2b2ae3d27d4eb4fULL;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	return h ^ h >> 32;
}

/* An open-addressing table of (a, b) -> value; a key of (0, 0) is never stored. */
struct pp_slot {
	uint64_t a, b;		/* the key */
	uint32_t val;		/* the value (an index) */
};

struct pp_map {
	struct pp_slot *slots;	/* size slots, power of two */
	size_t size;		/* slots */
	size_t nr;		/* keys held */
};

/* The merged samples' index (pprof-merge.c): a slot says where to look next. */
struct pp_sslot {
	uint64_t hash;		/* the sample's */
	uint32_t idx;		/* sample index + 1, 0: empty */
	uint32_t locs;		/* its first location id in pprof.stack */
};

struct pp_sindex {
	struct pp_sslot *slots;	/* size slots, power of two */
	size_t size, nr;
};

struct pp_pipe;

struct pp_mapping {
	struct pulse_dso *dso;	/* NULL: never (mapping 0 is "none") */
	uint64_t start, limit;	/* the first map met of the DSO */
	uint64_t offset;	/* its file offset (pgoff) */
	uint32_t filename;	/* string index */
	uint32_t build_id;	/* string index, 0: none */
	bool has_lines;		/* a location of it got a source line */
};

struct pp_function {
	uint32_t name;		/* string index */
	uint32_t filename;	/* string index, 0: not known */
	int64_t start_line;	/* DW_AT_decl_line, 0: not known */
};

/* One of a location's lines: a function (maybe inlined) and the line in it. */
struct pp_line {
	uint32_t function;	/* id */
	int64_t line;		/* 0: not known */
};

struct pp_location {
	uint64_t address;	/* in the mapping's space */
	uint32_t mapping;	/* id, 0: none */
	uint32_t nr_lines;	/* 0: no symbol (no line written) */
	uint32_t line0;		/* the first in pprof.lines, innermost first */
};

/* pprof-inline.c: the DWARF of user DSOs, each opened on first use. */
#define PP_MAX_INLINE 16	/* lines of one location at most */

struct pp_frame_line {
	const char *name;	/* the inlined function's; NULL: the symbol's */
	const char *file;	/* base name, NULL: not known */
	int64_t line;		/* 0: not known */
	int decl_line;		/* the function's DW_AT_decl_line, 0: not known */
};

struct pp_dwarf;
int pp_dwarf__new(struct pp_dwarf **out, const char *symfs);
void pp_dwarf__delete(struct pp_dwarf *d);
/*
 * The lines of @addr (in @dso's file) into @out, innermost first: inlined
 * functions, then the symbol's. Return: how many, 0 when no line table has
 * the address. The strings live as long as @d.
 */
size_t pp_dwarf__lines(struct pp_dwarf *d, const struct pulse_dso *dso, uint64_t addr,
		       struct pp_frame_line *out, size_t max);

/* A merged sample: a stack (location ids, leaf first) with its labels and values. */
struct pp_sample {
	uint64_t hash;		/* of everything below but the values */
	uint32_t locs;		/* first location id in pprof.stack */
	uint32_t nr_locs;	/* location ids */
	int32_t pid, tid;	/* the "pid" and "tid" labels */
	uint32_t comm;		/* string index: the "comm" label */
	uint32_t column;	/* the value column its event adds to */
	int64_t count;		/* samples merged */
	int64_t value;		/* their periods */
};

/* A location whose lines were asked for, with the symbol its last line names. */
struct pp_lines_ask {
	uint32_t loc;		/* id */
	const struct pulse_symbol *sym;
};

/* One value column (an event, or events of the same name). */
struct pp_column {
	uint32_t type, unit;	/* string indexes */
	int64_t period;		/* period_type's period, 0: not known */
};

struct pp_strings {
	char **strs;		/* the table; strs[0] is "" */
	bool *owned;		/* strs[i] was copied (freed with the table) */
	size_t nr, alloc;
	struct pp_map index;	/* (hash, 0) chains by probing: see pprof.c */
};

/* The frame cache's first level: direct-mapped, 2^PP_HOT_BITS slots (fits in L2). */
#define PP_HOT_BITS 14

struct pprof {
	struct pulse_session *session;
	struct pulse_machine *machine;
	/* the lines thread's (pprof-lines.c) until pp_lines__finish() */
	struct pp_dwarf *dwarf;
	struct pp_frame_line *dw;	/* its answers, in order of asking */
	size_t nr_dw, alloc_dw;
	uint32_t *dw_nr;		/* lines per answer */
	size_t nr_dw_nr, alloc_dw_nr;
	/* the walk's */
	struct pp_pipe *lines_pipe;
	struct pp_lines_ask *asked;	/* the locations asked for, in order */
	size_t nr_asked, alloc_asked;
	struct pp_strings strs;
	struct pp_slot hot[1 << PP_HOT_BITS];	/* recent (maps version, ip) -> location id */
	struct pp_map loc_index;	/* (dso, address in it) -> location id */
	struct pp_map func_index;	/* (symbol, 0) -> function id */
	struct pp_map map_index;	/* (dso, 0) -> mapping id */
	struct pp_map comm_index;	/* (interned comm, 0) -> string index */
	const char *last_comm;		/* the last sample's, and its string index */
	int64_t last_comm_idx;
	/* the merging thread's alone until pp_merge__finish() */
	struct pp_pipe *merge;		/* the walk's samples to it */
	struct pp_sindex sample_index;
	struct pp_mapping *mappings;
	size_t nr_mappings, alloc_mappings;
	struct pp_function *functions;
	size_t nr_functions, alloc_functions;
	struct pp_line *lines;		/* the locations' lines */
	size_t nr_lines, alloc_lines;
	struct pp_location *locations;
	size_t nr_locations, alloc_locations;
	struct pp_sample *samples;
	size_t nr_samples, alloc_samples;
	uint32_t *stack;		/* the samples' location ids, one run each */
	size_t nr_stack, alloc_stack;
	struct pp_column *columns;	/* value columns; column 0 is "samples" */
	size_t nr_columns;
	uint32_t *attr_column;		/* per attr: its column */
	size_t nr_attrs;
	uint64_t first_time, last_time;	/* sample times seen */
	int64_t opts_time;		/* time_nanos without CLOCK_DATA */
	struct pulse_pprof_stats st;
};

/* @arr of @elem-byte items made room for @need (doubling). Return: 0 or -ENOMEM. */
int pp_grow(void **arr, size_t *alloc, size_t need, size_t elem);

/*
 * pprof-merge.c: the thread that merges samples. begin: room for a sample
 * of up to @max_locs location ids (NULL: *err set); end: the sample @k
 * (its labels, value and nr_locs) with the ids written there, handed over.
 * finish: all merged into samples/stack. Return: 0 or -errno.
 */
int pp_merge__new(struct pprof *p);
uint32_t *pp_merge__begin(struct pprof *p, size_t max_locs, int *err);
void pp_merge__end(struct pprof *p, const struct pp_sample *k, uint32_t *locs);
int pp_merge__finish(struct pprof *p);
void pp_merge__exit(struct pprof *p);

/*
 * pprof-lines.c: the lines thread. ask: location @loc (id) of @sym at
 * @addr in @dso gets its lines at finish, which makes its functions and
 * lines. Return: 0 or -errno.
 */
int pp_lines__new(struct pprof *p, const char *symfs);
int pp_lines__ask(struct pprof *p, uint32_t loc, const struct pulse_dso *dso, uint64_t addr,
		  const struct pulse_symbol *sym);
int pp_lines__finish(struct pprof *p);
void pp_lines__exit(struct pprof *p);

int pp_map__init(struct pp_map *m, size_t size);
void pp_map__exit(struct pp_map *m);
/* The value of (a, b), or 0 when absent. */
uint32_t pp_map__get(const struct pp_map *m, uint64_t a, uint64_t b);
/* Set (a, b) to @val (nonzero). Return: 0 or -ENOMEM. */
int pp_map__put(struct pp_map *m, uint64_t a, uint64_t b, uint32_t val);

/* The index of @s in the string table, added (copied when @copy) if new; -ENOMEM < 0. */
int64_t pp_strings__intern(struct pp_strings *t, const char *s, bool copy);

/*
 * pprof-pipe.c: chunks handed to @fn in a second thread, in order; @last
 * on the final one. @fn returns 0 or -errno; after an error the rest is
 * dropped and every later call returns it.
 */
struct pp_pipe;
typedef int (*pp_pipe_fn)(void *arg, const uint8_t *data, size_t len, bool last);
int pp_pipe__new(struct pp_pipe **out, size_t chunk, pp_pipe_fn fn, void *arg);
/* Room for @len contiguous bytes (a full chunk handed over first); NULL: *err set. */
void *pp_pipe__reserve(struct pp_pipe *p, size_t len, int *err);
/* @len bytes of the reserved room written. */
void pp_pipe__commit(struct pp_pipe *p, size_t len);
int pp_pipe__write(struct pp_pipe *p, const void *data, size_t len);
/* The last chunk handed over and consumed. Return: 0 or the first error. */
int pp_pipe__finish(struct pp_pipe *p);
void pp_pipe__delete(struct pp_pipe *p);

/* pprof-gz.c: a gzip stream on @f, deflated in a second thread. Return: 0, -ENOMEM. */
struct pp_gz;
int pp_gz__new(struct pp_gz **out, FILE *f, int level);
/* Return: 0, or -EIO once a write failed. */
int pp_gz__write(struct pp_gz *g, const void *data, size_t len);
/* The trailer out and the thread done; @bytes: compressed bytes written. Return: 0, -EIO. */
int pp_gz__finish(struct pp_gz *g, uint64_t *bytes);
void pp_gz__delete(struct pp_gz *g);

/* pprof-write.c: the tables as a gzipped profile on @out. Return: 0, -ENOMEM, -EIO. */
int pprof__write(struct pprof *p, FILE *out, const struct pulse_pprof_opts *opts);

#endif
