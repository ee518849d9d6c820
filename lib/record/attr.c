// SPDX-License-Identifier: GPL-2.0
/*
 * The attrs pulse record opens: the parsed events plus the sampling and
 * side-band bits perf 6.1's evsel__config() adds for the same command line
 * (checked with `perf evlist -v` on files from both tools):
 *  - frequency 4000 Hz unless -c/-F, or a period/freq term of the event;
 *  - IP|TID|TIME always; PERIOD in frequency mode and for tracepoints (a
 *    tracepoint's default sample_type carries it); CPU system wide, for
 *    tracepoints and with --sample-cpu; RAW for tracepoints and -R;
 *    CALLCHAIN with -g on every event, the tracking one included (dwarf:
 *    see config_callchain()); ADDR|DATA_SRC and mmap_data after dwarf;
 *    IDENTIFIER whenever there is more than one event;
 *  - --user-regs, -I: REGS_USER/REGS_INTR and the register mask, not on
 *    the dummy;
 *  - -k: use_clockid and clockid on every event;
 *  - read_format ID|LOST, sample_id_all, inherit unless --no-inherit;
 *    -s adds TOTAL_TIME_ENABLED|RUNNING and inherit_stat; -n zeroes the
 *    period/frequency (freq stays set);
 *  - disabled, then enabled by exec of the command (enable_on_exec) or by
 *    the recorder after synthesis; the system-wide dummy starts enabled;
 *    with -D a dummy tracks side-band (enabled at exec, or at once), the
 *    events wait for the recorder to enable them after the delay;
 *  - the side-band bits (mmap, comm, task, mmap2, comm_exec, ksymbol,
 *    bpf_event) on the tracking event only;
 *  - --off-cpu's offcpu-time: perf's attr (BPF_OUTPUT, freq 1, period 1,
 *    CALLCHAIN), its sample_type masked with OFFCPU_SAMPLE_TYPES;
 *  - an AUX area event (intel_pt//): period 1, no frequency, CPU; with
 *    --aux-sample the other members of its group get PERF_SAMPLE_AUX.
 */
#include <pulse/offcpu.h>
#include <pulse/record.h>

#define DEFAULT_FREQ 4000

bool pulse_record__is_system_wide(const struct pulse_record_opts *o)
{
	return o->system_wide || (o->cpus && !o->nr_pids && !o->nr_tids);
}

/*
 * perf 6.1's evsel__config() for a group of more than one: the members
 * follow their leader (not disabled, not enabled on exec); with leader
 * sampling (:S) the leader's samples read the whole group
 * (PERF_SAMPLE_READ, PERF_FORMAT_GROUP, no inherit) and the members do
 * not sample (period and frequency 0).
 */
static void config_group(const struct pulse_evsel *e, struct perf_event_attr *a)
{
	const struct pulse_evsel *leader = e->leader;

	if (!leader || leader->nr_members < 2)
		return;
	if (e != leader) {
		a->disabled = 0;
		a->enable_on_exec = 0;
	}
	if (!leader->sample_read)
		return;
	if (e != leader) {
		a->freq = 0;
		a->sample_period = 0;
		a->write_backward = 0;
	}
	a->sample_type |= PERF_SAMPLE_READ;
	a->read_format |= PERF_FORMAT_GROUP;
	a->inherit = 0;
}

/*
 * perf 6.1's __evsel__config_callchain(), on every event (the dummy too):
 * --kernel-callchains and --user-callchains drop the other half of the
 * chain; dwarf samples the user registers (IP and SP only, with a warning
 * the CLI prints, when --user-regs names some: perf's DWARF_MINIMAL_REGS)
 * and the top of the user stack, and leaves the user part of the kernel's
 * chain out since the unwinder rebuilds it. (perf's fallback for the
 * ftrace:function event is left out: that event does not open here.)
 */
static void config_callchain(const struct pulse_record_opts *o, struct perf_event_attr *a)
{
	a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	a->sample_max_stack = o->max_stack;
	if (o->kernel_callchains)
		a->exclude_callchain_user = 1;
	if (o->user_callchains)
		a->exclude_callchain_kernel = 1;
	if (o->dwarf_stack_size) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user |= o->sample_user_regs ? PULSE_DWARF_MINIMAL_REGS :
							     PULSE_DWARF_REGS_MASK;
		a->sample_stack_user = o->dwarf_stack_size;
		a->exclude_callchain_user = 1;
	}
}

void pulse_record__config_attrs(const struct pulse_record_opts *o, struct pulse_evsel **evsels,
				int nr, const struct pulse_evsel *dummy,
				const struct pulse_evsel *tracking)
{
	bool sw = pulse_record__is_system_wide(o);
	bool task_target = o->nr_pids || o->nr_tids;
	bool on_exec = o->argv && !sw && !task_target;

	for (int i = 0; i < nr; i++) {
		struct pulse_evsel *e = evsels[i];
		struct perf_event_attr *a = &e->attr;
		bool tp = a->type == PERF_TYPE_TRACEPOINT;

		a->size = sizeof(*a);
		if (e == dummy) {
			a->sample_period = 1;
		} else if (e->period_from_term) {
			/* the event's own period=/freq= term wins, as perf's config terms */
		} else if (o->period) {
			a->freq = 0;
			a->sample_period = o->period;
		} else if (o->freq) {
			a->freq = 1;
			a->sample_freq = o->freq;
		} else if (!tp && !a->sample_period) {
			a->freq = 1;
			a->sample_freq = DEFAULT_FREQ;
		}
		a->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		if (e != dummy && (a->freq || tp))
			a->sample_type |= PERF_SAMPLE_PERIOD;
		if (sw || tp || o->sample_cpu)
			a->sample_type |= PERF_SAMPLE_CPU;
		if ((tp || o->raw) && e != dummy)
			a->sample_type |= PERF_SAMPLE_RAW;
		if (o->callchain)
			config_callchain(o, a);
		if (o->sample_address) {
			a->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
			a->mmap_data = e == tracking;
		}
		if (o->sample_user_regs && e != dummy) {
			a->sample_regs_user |= o->sample_user_regs;
			a->sample_type |= PERF_SAMPLE_REGS_USER;
		}
		if (o->sample_intr_regs && e != dummy) {
			a->sample_regs_intr = o->sample_intr_regs;
			a->sample_type |= PERF_SAMPLE_REGS_INTR;
		}
		if (e->sample_read)
			a->sample_type |= PERF_SAMPLE_READ;
		if (nr > 1)
			a->sample_type |= PERF_SAMPLE_IDENTIFIER;
		a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
		if (o->inherit_stat) {
			a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING;
			a->inherit_stat = 1;
		}
		/* perf keeps freq set and zeroes the value */
		if (o->no_samples && e != dummy)
			a->sample_period = 0;
		a->sample_id_all = 1;
		if (o->use_clockid) {
			a->use_clockid = 1;
			a->clockid = o->clockid;
		}
		a->inherit = !o->no_inherit;
		/* -D: only the tracking dummy starts with the command */
		a->disabled = e != dummy || on_exec;
		if (on_exec && (!o->delay_ms || e == dummy))
			a->enable_on_exec = 1;
		/* --overwrite: the kernel keeps the newest, the side-band has its own rings */
		if (o->overwrite && e != dummy)
			a->write_backward = 1;
		if (pulse_evsel__is_aux(e)) {
			/* perf's intel_pt_recording_options(): period 1, the CPU in the id */
			a->freq = 0;
			a->sample_period = 1;
			a->sample_type &= ~(__u64)PERF_SAMPLE_PERIOD;
			a->sample_type |= PERF_SAMPLE_CPU;
		} else if (o->aux_sample_size && e->leader && e->leader != e &&
			   pulse_evsel__is_aux(e->leader)) {
			/* --aux-sample: the group's other events take AUX data in their samples */
			a->sample_type |= PERF_SAMPLE_AUX;
			a->aux_sample_size = o->aux_sample_size;
		}
		if (e == tracking) {
			a->mmap = a->comm = a->task = a->mmap2 = a->comm_exec = 1;
			a->ksymbol = a->bpf_event = 1;
		}
		config_group(e, a);
		/* perf 6.1's evsel__config(): the offcpu-time event keeps OFFCPU_SAMPLE_TYPES */
		if (e == o->offcpu_event)
			a->sample_type = (a->sample_type | PERF_SAMPLE_CALLCHAIN) &
					 PULSE_OFFCPU_SAMPLE_TYPES;
	}
}
