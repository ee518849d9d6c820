// SPDX-License-Identifier: GPL-2.0
/*
 * pulse report -D (--dump-raw-trace): every record of a perf.data file as
 * perf 6.1's `perf report -D` prints it, raw bytes and decoding side by side
 * (lib/output/dump.c), followed by perf's event counts. The walk is perf's
 * session: records are counted as they are read; user records (ATTR,
 * FINISHED_ROUND, ID_INDEX...) are printed at once; kernel records with a
 * timestamp are queued and printed in time order when a FINISHED_ROUND (or
 * the end) flushes them, so a dump is not in file order; side-band records
 * build the machine that names each sample's thread and DSO.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pulse/data.h>
#include <pulse/dump.h>
#include <pulse/event.h>
#include <pulse/machine.h>
#include <pulse/ordering.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "builtin.h"

struct dump_session {
	struct pulse_data *d;
	struct pulse_machine machine;
	struct pulse_dump dump;
	struct pulse_ordered *oq;	/* NULL: file order (no sample_id_all) */
	FILE *out;
	__u64 offset_base;		/* pipe mode: perf counts from after the pipe header */
	bool stats_only;		/* --stats: count, no machine */
	bool attr_names;		/* ignore the names recorded in the stream */
};

/* The recorded name, else perf's name from the attr (valid until the next call). */
static const char *attr_name(struct pulse_data *d, size_t idx, void *arg)
{
	static char buf[256];
	const struct dump_session *ds = arg;
	const struct perf_event_attr *attr = pulse_data__attr(d, idx);
	const char *name = ds->attr_names ? NULL : pulse_data__attr_name(d, idx);

	if (name || !attr)
		return name;
	return pulse_attr__name(attr, buf, sizeof(buf));
}

static int dump__deliver(const struct perf_event_header *rec, uint64_t file_offset, void *arg)
{
	struct dump_session *ds = arg;
	int err;

	err = pulse_dump__record(ds->out, ds->d, rec, file_offset - ds->offset_base, &ds->dump);
	if (err)
		return err;
	if (ds->stats_only)
		return 0;
	/* a bad side-band record is shown above; perf goes on, and so do we */
	err = pulse_machine__process(&ds->machine, rec);
	return err == -ENOMEM ? err : 0;
}

static int dump__record(struct pulse_data *d, const struct perf_event_header *rec,
			__u64 file_offset, void *arg)
{
	struct dump_session *ds = arg;
	int err;

	/*
	 * perf counts each COMPRESSED record it reads, then the records in it,
	 * and dumps only those (perf 6.1 knows no COMPRESSED2: pulse counts it
	 * as what it replaces)
	 */
	if (rec->type == PERF_RECORD_COMPRESSED || rec->type == PERF_RECORD_COMPRESSED2) {
		pulse_dump__count(&ds->dump, PERF_RECORD_COMPRESSED);
		return 0;
	}
	pulse_dump__count(&ds->dump, rec->type);
	if (rec->type >= PERF_RECORD_USER_TYPE_START) {
		err = pulse_dump__record(ds->out, d, rec, file_offset - ds->offset_base, &ds->dump);
		if (!err && rec->type == PERF_RECORD_FINISHED_ROUND && ds->oq)
			err = pulse_ordered__flush_round(ds->oq);
		return err;
	}
	if (ds->oq) {
		err = pulse_ordered__queue(ds->oq, rec, pulse_session__record_time(d, rec), file_offset);
		if (err != -ETIME)
			return err;
	}
	return dump__deliver(rec, file_offset, ds);
}

/*
 * The walk of -D; with @stats_only (--stats) the records are decoded into
 * /dev/null, so that the counts are exactly those -D prints at its end.
 */
static int dump_file(const char *input, FILE *out, bool stats_only, int branch_mode)
{
	struct dump_session ds = { .out = out };
	struct pulse_symbol_opts sym_opts = { .sz = sizeof(sym_opts), .no_vdso = true };
	bool pipe;
	int err, ret = 1;

	err = pulse_data__open(&ds.d, input);
	if (err == -ENODATA) {
		fprintf(stderr, "zero-sized file, nothing to do\n");
		return 0;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	pipe = pulse_data__is_pipe(ds.d);
	if (pipe)
		ds.offset_base = pulse_data__data_offset(ds.d);
	pulse_data__set_deliver_compressed(ds.d, true);

	/* no symbols: the dump names threads and DSOs only */
	err = pulse_machine__init(&ds.machine, &sym_opts);
	if (err) {
		error("cannot set up: %s", strerror(-err));
		goto out_close;
	}
	/*
	 * perf's --stats tool processes no side-band record, and in a pipe
	 * neither the FEATURE nor the EVENT_UPDATE records that name events:
	 * it calls them after their attrs
	 */
	ds.stats_only = stats_only;
	ds.attr_names = stats_only && pipe;
	pulse_dump__init(&ds.dump, pipe ? "pipe" : input, stats_only ? NULL : &ds.machine,
			 attr_name, &ds);
	ds.dump.count_lost_samples = stats_only;
	ds.dump.branch_mode = !stats_only && report_branch_mode(ds.d, branch_mode);
	if (ds.dump.branch_mode && report_branch__no_data(ds.d))
		goto out_dump;

	/* perf_session__new(): time order needs every record to carry a time */
	if (pipe || (pulse_data__nr_attrs(ds.d) && pulse_data__attr(ds.d, 0)->sample_id_all)) {
		ds.oq = pulse_ordered__new(dump__deliver, &ds);
		if (!ds.oq) {
			error("out of memory");
			goto out_dump;
		}
	} else if (pulse_data__nr_attrs(ds.d)) {
		fputs("WARNING: No sample_id_all support, falling back to unordered processing\n",
		      out);
	}
	if (stats_only) {
		ds.out = fopen("/dev/null", "w");
		if (!ds.out) {
			error("cannot open /dev/null: %s", strerror(errno));
			goto out_ordered;
		}
	} else {
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
		      out);
	}

	err = pulse_data__for_each_record(ds.d, dump__record, &ds);
	if (!err && ds.oq)
		err = pulse_ordered__flush(ds.oq);
	if (!err)
		err = pulse_dump__fprintf_stats(out, ds.d, &ds.dump);
	if (!err && fflush(out))
		err = -EIO;
	if (err) {
		data_error("dump", input, err);
		goto out_ordered;
	}
	data_warn_damage(ds.d);
	ret = 0;
out_ordered:
	if (ds.out != out && ds.out)
		fclose(ds.out);
	pulse_ordered__delete(ds.oq);
out_dump:
	pulse_dump__exit(&ds.dump);
	pulse_machine__exit(&ds.machine);
out_close:
	pulse_data__close(ds.d);
	return ret;
}

int report_dump_raw(const char *input, FILE *out, int branch_mode)
{
	return dump_file(input, out, false, branch_mode);
}

int report_stats(const char *input, FILE *out)
{
	return dump_file(input, out, true, -1);
}
