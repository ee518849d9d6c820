// SPDX-License-Identifier: GPL-2.0
/*
 * An event's name from its attr alone, as perf 6.1's evsel__name() makes
 * it for a file without EVENT_DESC (a pipe without it, a recorder killed
 * before its features were written): the generic name of the type and
 * config, then perf's modifier suffix (":u", ":ppp", ":H"...). Shared by
 * report, script and -D. Tracepoints are named by their format (the
 * caller's tracing data), not here.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <pulse/event.h>
#include "core/internal.h"

static void hw_cache_name(__u64 config, char *buf, size_t size)
{
	static const char *const type[] = {
		"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
	};
	static const char *const op[][2] = {
		{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
	};
	static const char *const result[] = { "refs", "misses" };
	static const unsigned char ops[] = { 7, 5, 7, 7, 1, 1, 7 };
	unsigned int t = config & 0xff, o = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (t >= ARRAY_SIZE(type))
		snprintf(buf, size, "unknown-ext-hardware-cache-type");
	else if (o >= ARRAY_SIZE(op))
		snprintf(buf, size, "unknown-ext-hardware-cache-op");
	else if (res >= ARRAY_SIZE(result))
		snprintf(buf, size, "unknown-ext-hardware-cache-result");
	else if (!(ops[t] & (1 << o)))
		snprintf(buf, size, "invalid-cache");
	else if (res)
		snprintf(buf, size, "%s-%s-%s", type[t], op[o][0], result[res]);
	else
		snprintf(buf, size, "%s-%s", type[t], op[o][1]);
}

static void add_modifiers(const struct perf_event_attr *attr, char *buf, size_t size)
{
	bool exclude_guest_default = false;
	char mod[16];
	size_t n = 0, len = strlen(buf);

	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			mod[n++] = 'k';
		if (!attr->exclude_user)
			mod[n++] = 'u';
		if (!attr->exclude_hv)
			mod[n++] = 'h';
		exclude_guest_default = true;
	}
	if (attr->precise_ip) {
		for (unsigned int i = 0; i < attr->precise_ip && n < 8; i++)
			mod[n++] = 'p';
		exclude_guest_default = true;
	}
	if (attr->exclude_host || attr->exclude_guest == exclude_guest_default) {
		if (!attr->exclude_host)
			mod[n++] = 'H';
		if (!attr->exclude_guest)
			mod[n++] = 'G';
	}
	mod[n] = '\0';
	if (n && len < size)
		snprintf(buf + len, size - len, ":%s", mod);
}

const char *pulse_attr__name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	static const char *const sw[] = {
		"cpu-clock", "task-clock", "page-faults", "context-switches",
		"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
		"emulation-faults", "dummy",
	};
	/* perf 6.1 report names bpf-output and cgroup-switches "unknown-software" here */
	static const char *const hw[] = {
		"cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
		"stalled-cycles-backend", "ref-cycles",
	};
	__u64 config = attr->config;

	switch (attr->type) {
	case PERF_TYPE_TRACEPOINT:
		return NULL;
	case PERF_TYPE_SOFTWARE:
		snprintf(buf, size, "%s", config < ARRAY_SIZE(sw) ? sw[config] : "unknown-software");
		break;
	case PERF_TYPE_HARDWARE: {
		/* x86's arch_evsel__hw_name(): a hybrid PMU type in the high half */
		__u64 ev = config & 0xffffffffULL;
		const char *n = ev < ARRAY_SIZE(hw) ? hw[ev] : "unknown-hardware";

		if (config >> 32)
			snprintf(buf, size, "cpu/%s/", n);
		else
			snprintf(buf, size, "%s", n);
		break;
	}
	case PERF_TYPE_HW_CACHE:
		hw_cache_name(config, buf, size);
		break;
	case PERF_TYPE_RAW:
		snprintf(buf, size, "raw %#" PRIx64, (uint64_t)config);
		break;
	case PERF_TYPE_BREAKPOINT:
		snprintf(buf, size, "mem:%#llx:%s%s%s", (unsigned long long)attr->bp_addr,
			 attr->bp_type & HW_BREAKPOINT_R ? "r" : "",
			 attr->bp_type & HW_BREAKPOINT_W ? "w" : "",
			 attr->bp_type & HW_BREAKPOINT_X ? "x" : "");
		break;
	default:
		snprintf(buf, size, "unknown attr type: %d", (int)attr->type);
		return buf;
	}
	add_modifiers(attr, buf, size);
	return buf;
}
