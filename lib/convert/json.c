// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's `perf data convert --to-json` (tools/perf/util/data-convert-json.c)
 * as a tool over a pulse_session: the side-band builds the machine, each
 * sample becomes one object of the "samples" array, its callchain resolved
 * frame by frame in the mode of the context marker before it (user without
 * one), as perf's thread__find_symbol() calls do. perf 6.1 is built
 * without its HAVE_LIBTRACEEVENT switch, so it writes no tracepoint fields:
 * neither does this.
 */
#include <errno.h>
#include <string.h>
#include <linux/perf_event.h>
#include <pulse/convert.h>
#include <pulse/data.h>
#include <pulse/machine.h>
#include <pulse/reader.h>
#include <pulse/session.h>
#include "json-int.h"

struct json_conv {
	struct pulse_data *d;
	struct pulse_machine *m;
	FILE *out;
	const struct pulse_json_opts *opts;
	bool head_done;		/* "headers" and the opening of "samples" written */
	bool first;		/* no sample written yet */
	uint64_t nr;		/* samples written */
	size_t nr_attrs;	/* attrs folded into sample_type (a pipe adds more) */
	uint64_t sample_type;	/* perf's __evlist__combined_sample_type() */
};

/*
 * Once, before the first sample: a pipe's HEADER_FEATURE records come
 * before any sample, so its headers are known by then (perf 6.1 crashes
 * on a pipe: there is nothing to match there).
 */
static void json_head(struct json_conv *c)
{
	FILE *fp = c->out;

	c->head_done = true;
	json_delim(fp, true, 1);
	json_lit(fp, "\"headers\": {");
	json_headers(fp, c->d, c->opts);
	json_delim(fp, false, 1);
	putc_unlocked('}', fp);
	json_delim(fp, true, 1);
	json_lit(fp, "\"samples\": [");
}

static uint64_t combined_sample_type(struct json_conv *c)
{
	size_t nr = pulse_data__nr_attrs(c->d);

	for (; c->nr_attrs < nr; c->nr_attrs++)
		c->sample_type |= pulse_data__attr(c->d, c->nr_attrs)->sample_type;
	return c->sample_type;
}

/* perf's output_sample_callchain_entry(): the ip, and symbol and DSO when named */
static void frame(FILE *fp, uint64_t ip, const struct pulse_addr_loc *al)
{
	json_lit(fp, "\n\t\t\t\t{\n\t\t\t\t\t\"ip\": \"0x");
	json_hex(fp, ip);
	putc_unlocked('"', fp);
	if (al && al->sym && al->sym->namelen) {
		json_lit(fp, ",\n\t\t\t\t\t\"symbol\": ");
		json_strn(fp, al->sym->name, al->sym->namelen);
		if (al->dso && al->dso->short_name && al->dso->short_name[0]) {
			json_lit(fp, ",\n\t\t\t\t\t\"dso\": ");
			json_str(fp, al->dso->short_name);
		}
	}
	json_lit(fp, "\n\t\t\t\t}");
}

/* the raw callchain, as perf 6.1's --to-json (no DWARF unwinding) */
static void callchain(struct json_conv *c, struct pulse_thread *t, const struct pulse_sample *smp)
{
	struct pulse_cc_iter it;
	bool first = true;
	uint64_t ip;
	int ret;

	pulse_cc_iter__init(&it, smp->callchain, smp->callchain_nr);
	while ((ret = pulse_cc_iter__next(&it, &ip)) != 0) {
		struct pulse_addr_loc al;

		/* perf keeps the mode for a marker it does not know */
		if (ret < 0)
			continue;
		if (!first)
			putc_unlocked(',', c->out);
		first = false;
		pulse_machine__resolve_thread(c->m, t, it.cpumode, ip, &al);
		frame(c->out, ip, &al);
	}
}

static int json_sample(struct pulse_session *s, const struct perf_event_header *rec,
		       uint64_t file_offset, void *arg)
{
	struct json_conv *c = arg;
	const struct perf_event_attr *attr;
	struct pulse_sample smp;
	struct pulse_thread *t;
	FILE *fp = c->out;
	int idx;

	(void)s;
	(void)file_offset;
	idx = pulse_data__attr_of(c->d, rec, rec->size);
	if (idx < 0)
		return 0;
	attr = pulse_data__attr(c->d, idx);
	if (pulse_sample__parse(rec, rec->size, attr, &smp))
		return 0;
	/* perf's parse leaves what the sample does not carry at -1 */
	if (!(attr->sample_type & PERF_SAMPLE_TIME))
		smp.time = (uint64_t)-1;
	if (!(attr->sample_type & PERF_SAMPLE_TID))
		smp.pid = smp.tid = (uint32_t)-1;
	/* printed when any event samples the cpu: -1 for the others */
	if (!(attr->sample_type & PERF_SAMPLE_CPU))
		smp.cpu = (uint32_t)-1;
	t = pulse_machine__findnew_thread(c->m, (int32_t)smp.pid, (int32_t)smp.tid);
	if (!t)
		return -ENOMEM;
	if (!c->head_done)
		json_head(c);
	c->nr++;
	if (!c->first)
		putc_unlocked(',', fp);
	c->first = false;
	json_lit(fp, "\n\t\t{\n\t\t\t\"timestamp\": ");
	json_i64(fp, (int64_t)smp.time);
	json_lit(fp, ",\n\t\t\t\"pid\": ");
	json_i64(fp, t->pid);
	json_lit(fp, ",\n\t\t\t\"tid\": ");
	json_i64(fp, t->tid);
	/* perf's other source, the thread's cpu, is only set by perf sched and trace */
	if (combined_sample_type(c) & PERF_SAMPLE_CPU) {
		json_lit(fp, ",\n\t\t\t\"cpu\": ");
		json_i64(fp, (int32_t)smp.cpu);
	}
	json_lit(fp, ",\n\t\t\t\"comm\": ");
	json_str(fp, t->comm);
	json_lit(fp, ",\n\t\t\t\"callchain\": [");
	if (attr->sample_type & PERF_SAMPLE_CALLCHAIN) {
		callchain(c, t, &smp);
	} else {
		struct pulse_addr_loc al;

		pulse_machine__resolve_thread(c->m, t, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK,
					      smp.ip, &al);
		frame(fp, smp.ip, &al);
	}
	json_lit(fp, "\n\t\t\t]\n\t\t}");
	return ferror(fp) ? -EIO : 0;
}

int pulse_convert_json(struct pulse_session *s, FILE *out, const struct pulse_json_opts *opts,
		       uint64_t *nr_samples)
{
	struct json_conv c = {
		.d = pulse_session__data(s),
		.m = pulse_session__machine(s),
		.out = out,
		.opts = opts,
		.first = true,
	};
	/* side-band goes to the machine: no event callback */
	struct pulse_tool tool = {
		.sample = json_sample,
		.read_values = true,
	};
	int err;

	*nr_samples = 0;
	if (!c.m)
		return -EINVAL;
	/* perf prints the opening brace without a newline before it */
	putc_unlocked('{', out);
	json_delim(out, false, 1);
	json_lit(out, "\"linux-perf-json-version\": 1");
	err = pulse_session__process(s, &tool, &c);
	*nr_samples = c.nr;
	if (err)
		return err;
	if (!c.head_done)
		json_head(&c);
	json_delim(out, false, 1);
	putc_unlocked(']', out);
	json_delim(out, false, 0);
	json_lit(out, "}\n");
	return ferror(out) ? -EIO : 0;
}
