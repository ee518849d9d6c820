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
#include <pulse/reader.h>
#include <pulse/report.h>
#include <pulse/session.h>
#include "builtin.h"

struct dump_session {
	struct pulse_session *session;
	struct pulse_data *d;
	struct pulse_dump dump;
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

/*
 * perf counts each record it reads, a COMPRESSED one before the records in
 * it (perf 6.1 knows no COMPRESSED2: pulse counts it as what it replaces)
 */
static int dump__read(struct pulse_session *session, const struct perf_event_header *rec,
		      uint64_t file_offset, void *arg)
{
	struct dump_session *ds = arg;

	if (rec->type == PERF_RECORD_COMPRESSED2)
		pulse_dump__count(&ds->dump, PERF_RECORD_COMPRESSED);
	else
		pulse_dump__count(&ds->dump, rec->type);
	return 0;
}

/* user records (ATTR, FINISHED_ROUND, ID_INDEX...) are printed as read */
static int dump__print(struct pulse_session *session, const struct perf_event_header *rec,
		       uint64_t file_offset, void *arg)
{
	struct dump_session *ds = arg;
	const char *from = pulse_session__file_path(session);

	if (from)	/* a directory: DIR/data or DIR/data.N */
		ds->dump.path = from;
	return pulse_dump__record(ds->out, ds->d, rec, file_offset - ds->offset_base, &ds->dump);
}

/* kernel records, in time order: printed, then applied to the machine */
static int dump__deliver(struct pulse_session *session, const struct perf_event_header *rec,
			 uint64_t file_offset, void *arg)
{
	struct dump_session *ds = arg;
	int err;

	err = dump__print(session, rec, file_offset, arg);
	if (err)
		return err;
	if (ds->stats_only)
		return 0;
	/* a bad side-band record is shown above; perf goes on, and so do we */
	err = pulse_session__apply(session, rec);
	return err == -ENOMEM ? err : 0;
}

/*
 * The walk of -D; with @stats_only (--stats) the records are decoded into
 * /dev/null, so that the counts are exactly those -D prints at its end.
 */
static int dump_file(const char *input, FILE *out, bool stats_only, int branch_mode)
{
	struct dump_session ds = { .out = out };
	const struct pulse_session_opts sopts = { .sz = sizeof(sopts), .compressed = true };
	const struct pulse_tool tool = {
		.read = dump__read,
		.user = dump__print,
		.sample = dump__deliver,
		.event = dump__deliver,
	};
	bool pipe;
	int err, ret = 1;

	err = pulse_session__new(&ds.session, input, &sopts);
	if (err == -ENODATA) {
		fprintf(stderr, "zero-sized file, nothing to do\n");
		return 0;
	}
	if (err) {
		data_error("open", input, err);
		return 1;
	}
	ds.d = pulse_session__data(ds.session);
	pipe = pulse_data__is_pipe(ds.d);
	if (pipe)
		ds.offset_base = pulse_data__data_offset(ds.d);

	/* no symbols: the dump names threads and DSOs only */
	err = pulse_session__init_machine(ds.session, NULL);
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
	/* the Intel PT packets under each AUXTRACE, also from a pipe */
	pulse_data__set_keep_auxtrace(ds.d, !stats_only);
	ds.attr_names = stats_only && pipe;
	pulse_dump__init(&ds.dump, pipe ? "pipe" : input,
			 stats_only ? NULL : pulse_session__machine(ds.session), attr_name, &ds);
	ds.dump.count_lost_samples = stats_only;
	ds.dump.stats_tool = stats_only;
	ds.dump.branch_mode = !stats_only && pulse_report_branch__is_on(ds.d, branch_mode);
	if (ds.dump.branch_mode && !pulse_report_branch__has_data(ds.d)) {
		/* perf's words; perf exits 0, pulse as for any error (as with -g) */
		error("Selected -b but no branch data. Did you call perf record without -b?");
		goto out_dump;
	}

	/* perf's dump_printf(): -D only, not --stats (a stat file has no sample_id_all) */
	if (!stats_only && !pulse_session__is_ordered(ds.session, &tool) &&
	    pulse_data__nr_attrs(ds.d))
		fputs("WARNING: No sample_id_all support, falling back to unordered processing\n",
		      out);
	if (stats_only) {
		ds.out = fopen("/dev/null", "w");
		if (!ds.out) {
			error("cannot open /dev/null: %s", strerror(errno));
			goto out_dump;
		}
	} else {
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n",
		      out);
	}

	err = pulse_session__process(ds.session, &tool, &ds);
	if (!err)
		err = pulse_dump__fprintf_stats(out, ds.d, &ds.dump);
	if (!err && fflush(out))
		err = -EIO;
	if (err) {
		data_error("dump", input, err);
		goto out_dump;
	}
	data_warn_damage(ds.d);
	if (!stats_only)	/* perf's --stats tool counts no AUX flags */
		data_warn_aux(&ds.dump.aux);
	ret = 0;
out_dump:
	if (ds.out != out && ds.out)
		fclose(ds.out);
	pulse_dump__exit(&ds.dump);
out_close:
	pulse_session__delete(ds.session);
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
