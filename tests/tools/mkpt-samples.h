/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pulse-mkpt --samples N: a "cycles:u"-like attr of the file's own
 * (IP|TID|TIME|CPU|PERIOD|IDENTIFIER) and N SAMPLE records of it, spread
 * evenly over the trace's time, each written in the round of the chunk its
 * time falls in; their ips go round pt-loop's code (pt_run's loop, pt_ind,
 * pt_func's return address). Included by
 * pulse-mkpt.c after its record helpers.
 */
#define ID_CYC 103

static void fill_cycles_attr(struct pulse_data_attr *a, const __u64 *id)
{
	a->attr.size = sizeof(a->attr);
	a->attr.type = PERF_TYPE_HARDWARE;
	a->attr.config = PERF_COUNT_HW_CPU_CYCLES;
	a->attr.sample_freq = 4000;
	a->attr.freq = 1;
	a->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      (per_thread ? 0 : PERF_SAMPLE_CPU) | PERF_SAMPLE_PERIOD |
			      PERF_SAMPLE_IDENTIFIER;
	a->attr.read_format = PERF_FORMAT_ID;
	a->attr.sample_id_all = 1;
	a->attr.inherit = 1;
	a->attr.disabled = 1;
	a->attr.enable_on_exec = 1;
	a->attr.exclude_kernel = 0;
	a->ids = id;
	a->nr_ids = 1;
	a->name = "cycles:u";
}

/* the samples with a time up to @until not written yet */
static void write_samples(struct pulse_data_writer *w, const struct gen *g, __u64 until)
{
	static long next = 1;
	__u64 t0 = tsc_to_time(TSC_START), t1 = tsc_to_time(g->tsc);

	for (; next <= g->o->samples; next++) {
		__u64 t = t0 + (t1 - t0) * next / (g->o->samples + 1);
		__u64 ips[] = { g->sym[S_IND], g->sym[S_IND2], g->sym[S_LOOP], g->sym[S_RET1] };

		if (t > until)
			return;
		begin(PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(ID_CYC);
		put64(ips[next % 4]);
		put32x2(PID, PID);
		put64(t);
		if (!per_thread)
			put32x2(CPU, 0);
		put64(1000 + next);	/* period */
		end(w);
	}
}
