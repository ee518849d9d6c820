// SPDX-License-Identifier: GPL-2.0
/*
 * The DSOs a walk will need, loaded while it would otherwise wait: the
 * first kernel frame of a report waits for the running kernel's kallsyms,
 * which a helper thread reads from when the session opens (a tenth of a
 * second here: 121,000 symbols); the walk's thread spends that time on
 * what it would do right after, the user DSOs of the recording's BUILD_ID
 * table (those samples hit): their symbols, their CFI for the unwinder,
 * and their DWARF for inline frames. On bench/mkdata-dwarf.sh's C file
 * that is libc's separate debug file, whose compressed sections take
 * libdw some 100 ms to inflate at the first inline lookup.
 */
#include <errno.h>
#include <pulse/inline.h>
#include <pulse/machine.h>
#include <pulse/unwind.h>
#include "session/machine-internal.h"
#include "core/internal.h"

int pulse_machine__unwinder(struct pulse_machine *m, struct pulse_unwinder **u)
{
	if (!m->unwinder) {
		struct pulse_unwind_opts o = {
			.symfs = m->dsos.opts.symfs,
			.buildid_dir = m->dsos.opts.buildid_dir,
		};
		int err = pulse_unwinder__new(&m->unwinder, &o);

		if (err)
			return err;
	}
	*u = m->unwinder;
	return 0;
}

int pulse_machine__inlines(struct pulse_machine *m, struct pulse_inlines **in)
{
	if (!m->inlines) {
		int err = pulse_inlines__new(&m->inlines, m->dsos.opts.symfs);

		if (err)
			return err;
	}
	*in = m->inlines;
	return 0;
}

/* One DSO: its DWARF (inline frames), its CFI (unwinding), its symbols. */
static void machine__preload_dso(struct pulse_machine *m, struct pulse_dso *dso, bool dwarf)
{
	struct pulse_unwinder *u;
	struct pulse_inlines *in;

	if (dwarf && !m->no_inline && !pulse_machine__inlines(m, &in))
		pulse_inlines__warm(in, dso);
	if (dwarf && !pulse_machine__unwinder(m, &u))
		pulse_unwinder__warm(u, dso);
	pulse_dso__load(&m->dsos, dso);
}

int pulse_machine__preload_next(struct pulse_machine *m, bool dwarf)
{
	struct pulse_dso *dso = m->preload_next ? m->preload_next : m->dsos.first;

	if (m->preload_done)
		return 0;
	/* the BUILD_ID table's user DSOs not loaded yet, one a call */
	for (; dso; dso = dso->order_next) {
		if (dso->kind == PULSE_DSO_USER && dso->has_build_id && !dso->loaded)
			break;
	}
	if (!dso) {
		m->preload_done = true;
		return 0;
	}
	m->preload_next = dso->order_next;
	machine__preload_dso(m, dso, dwarf);
	pr_debug("symbols: %s loaded ahead while kallsyms is read\n", dso->long_name);
	return 1;
}
