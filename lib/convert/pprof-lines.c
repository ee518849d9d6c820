// SPDX-License-Identifier: GPL-2.0
/*
 * The lines of the pprof locations (functions, files, lines, inlined
 * functions), looked up in a third thread: the walk makes a location with
 * no lines and asks for them through a pipe (pprof-pipe.c) with the DSO
 * and address; the thread asks the DWARF (pprof-inline.c, which only it
 * uses) and keeps the raw answers, in order; once the walk is done the
 * answers become functions and lines in location order, with the string
 * table only the walk's thread touches. Opening a DSO's DWARF (inflating
 * compressed debug sections) and line lookups so run beside the walk.
 */
#include <errno.h>
#include <stdlib.h>
#include <pulse/symbols.h>
#include "convert/pprof-int.h"

#define PP_LINES_CHUNK (1 << 16)

/* What the walk asks. */
struct pp_lines_req {
	const struct pulse_dso *dso;
	uint64_t addr;
};

/* A function's start line: the first location that knows it names it. */
static void function_start(struct pprof *p, uint32_t id, int64_t file, int decl_line)
{
	struct pp_function *f = &p->functions[id - 1];

	/* the first location with a line names the function's file */
	if (file > 0 && !f->filename)
		f->filename = file;
	if (decl_line > 0 && !f->start_line)
		f->start_line = decl_line;
}

static int function_new(struct pprof *p, int64_t name, uint32_t *id)
{
	if (pp_grow((void **)&p->functions, &p->alloc_functions, p->nr_functions + 1,
		    sizeof(*p->functions)))
		return -ENOMEM;
	p->functions[p->nr_functions++] = (struct pp_function){ .name = name };
	*id = p->nr_functions;
	return 0;
}

/* The function an ELF symbol names (the outermost of a location's lines). */
static int function_of(struct pprof *p, const struct pulse_symbol *sym, int64_t file,
		       int decl_line, uint32_t *id)
{
	int64_t name;
	int err;

	*id = pp_map__get(&p->func_index, (uintptr_t)sym, 0);
	if (!*id) {
		name = pp_strings__intern(&p->strs, sym->name, false);
		err = name < 0 ? -ENOMEM : function_new(p, name, id);
		if (!err)
			err = pp_map__put(&p->func_index, (uintptr_t)sym, 0, *id);
		if (err)
			return err;
	}
	function_start(p, *id, file, decl_line);
	return 0;
}

/*
 * An inlined function, by its name and file: the copies of a static
 * inline in several DSOs or units are one function, as in the source. The
 * top bit keeps the key apart from a symbol's address.
 */
static int inline_function_of(struct pprof *p, const char *name, int64_t file, int decl_line,
			      uint32_t *id)
{
	int64_t n = pp_strings__intern(&p->strs, name, true);
	int err;

	if (n < 0)
		return -ENOMEM;
	*id = pp_map__get(&p->func_index, (uint64_t)n | 1ULL << 63, file);
	if (!*id) {
		err = function_new(p, n, id);
		if (!err)
			err = pp_map__put(&p->func_index, (uint64_t)n | 1ULL << 63, file, *id);
		if (err)
			return err;
	}
	function_start(p, *id, file, decl_line);
	return 0;
}

/* The pipe's consumer: each request's lines appended to p->dw, its count to p->dw_nr. */
static int lines_chunk(void *arg, const uint8_t *data, size_t len, bool last)
{
	struct pprof *p = arg;
	const struct pp_lines_req *r = (const struct pp_lines_req *)data;

	for (size_t i = 0; i < len / sizeof(*r); i++) {
		size_t n;

		if (pp_grow((void **)&p->dw, &p->alloc_dw, p->nr_dw + PP_MAX_INLINE,
			    sizeof(*p->dw)) ||
		    pp_grow((void **)&p->dw_nr, &p->alloc_dw_nr, p->nr_dw_nr + 1,
			    sizeof(*p->dw_nr)))
			return -ENOMEM;
		n = pp_dwarf__lines(p->dwarf, r[i].dso, r[i].addr, p->dw + p->nr_dw,
				    PP_MAX_INLINE);
		p->nr_dw += n;
		p->dw_nr[p->nr_dw_nr++] = n;
	}
	return 0;
}

int pp_lines__new(struct pprof *p, const char *symfs)
{
	int err = pp_dwarf__new(&p->dwarf, symfs);

	return err ? err : pp_pipe__new(&p->lines_pipe, PP_LINES_CHUNK, lines_chunk, p);
}

int pp_lines__ask(struct pprof *p, uint32_t loc, const struct pulse_dso *dso, uint64_t addr,
		  const struct pulse_symbol *sym)
{
	struct pp_lines_req *r;
	int err;

	if (pp_grow((void **)&p->asked, &p->alloc_asked, p->nr_asked + 1, sizeof(*p->asked)))
		return -ENOMEM;
	p->asked[p->nr_asked++] = (struct pp_lines_ask){ loc, sym };
	r = pp_pipe__reserve(p->lines_pipe, sizeof(*r), &err);
	if (!r)
		return err;
	*r = (struct pp_lines_req){ dso, addr };
	pp_pipe__commit(p->lines_pipe, sizeof(*r));
	return 0;
}

/* The answers for location @a: its lines, innermost first, into p->lines. */
static int location_lines(struct pprof *p, const struct pp_lines_ask *a,
			  const struct pp_frame_line *fl, size_t nr)
{
	static const struct pp_frame_line none = { NULL, NULL, 0, 0 };
	struct pp_location *loc = &p->locations[a->loc - 1];
	uint32_t fid;
	int err;

	/* no line table: the symbol's function alone */
	if (!nr) {
		fl = &none;
		nr = 1;
	}
	if (pp_grow((void **)&p->lines, &p->alloc_lines, p->nr_lines + nr, sizeof(*p->lines)))
		return -ENOMEM;
	loc->line0 = p->nr_lines;
	loc->nr_lines = nr;
	for (size_t i = 0; i < nr; i++) {
		int64_t file = fl[i].file ? pp_strings__intern(&p->strs, fl[i].file, true) : 0;

		if (file < 0)
			return -ENOMEM;
		if (fl[i].name)
			err = inline_function_of(p, fl[i].name, file, fl[i].decl_line, &fid);
		else
			err = function_of(p, a->sym, file, fl[i].decl_line, &fid);
		if (err)
			return err;
		p->lines[p->nr_lines++] = (struct pp_line){ fid, fl[i].line };
		if (fl[i].line)
			p->mappings[loc->mapping - 1].has_lines = true;
	}
	return 0;
}

int pp_lines__finish(struct pprof *p)
{
	int err = pp_pipe__finish(p->lines_pipe);
	size_t at = 0;

	/* one answer per request, in order (fewer only after a failure: err) */
	for (size_t i = 0; !err && i < p->nr_asked && i < p->nr_dw_nr; i++) {
		err = location_lines(p, &p->asked[i], p->dw + at, p->dw_nr[i]);
		at += p->dw_nr[i];
	}
	return err;
}

void pp_lines__exit(struct pprof *p)
{
	pp_pipe__delete(p->lines_pipe);
	p->lines_pipe = NULL;
	pp_dwarf__delete(p->dwarf);
	p->dwarf = NULL;
	free(p->asked);
	free(p->dw);
	free(p->dw_nr);
}
