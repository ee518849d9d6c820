// SPDX-License-Identifier: GPL-2.0
/*
 * --itrace=OPTS, parsed letter by letter as perf 6.1's
 * itrace_do_parse_synth_opts() does (include/pulse/itrace.h lists them):
 * the same letters, the same leniency (spaces and commas anywhere between
 * letters, "i 10 us"), the same refusals (an unknown letter, "i10u", a
 * callchain of 0 or more than 1024, "s" without a number, an error or log
 * flag that is not a lowercase letter).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <pulse/itrace.h>

void pulse_itrace__set_default(struct pulse_itrace_opts *o, bool no_sample)
{
	o->branches = true;
	o->transactions = true;
	o->ptwrites = true;
	o->pwr_events = true;
	o->other_events = true;
	o->intr_events = true;
	o->errors = true;
	o->flc = true;
	o->llc = true;
	o->tlb = true;
	o->mem = true;
	o->remote_access = true;
	if (no_sample) {
		o->period_type = PULSE_ITRACE_PERIOD_INSTRUCTIONS;
		o->period = 1;
		o->calls = true;
	} else {
		o->instructions = true;
		o->period_type = PULSE_ITRACE_PERIOD_NANOSECS;
		o->period = PULSE_ITRACE_DEFAULT_PERIOD;
	}
	o->callchain_sz = PULSE_ITRACE_DEFAULT_CALLCHAIN_SZ;
	o->last_branch_sz = PULSE_ITRACE_DEFAULT_LAST_BRANCH_SZ;
	o->initial_skip = 0;
}

static const char *skip_sep(const char *p)
{
	while (*p == ' ' || *p == ',')
		p++;
	return p;
}

/* one "+x" or "-x" flag: a lowercase letter, spaces before it allowed */
static int get_flag(const char **p, unsigned int *flags)
{
	while (**p == ' ')
		++*p;
	if (**p < 'a' || **p > 'z')
		return -EINVAL;
	*flags |= 1U << (**p - 'a');
	++*p;
	return 0;
}

static int get_flags(const char **p, unsigned int *plus, unsigned int *minus)
{
	for (;;) {
		switch (**p) {
		case '+':
			++*p;
			if (get_flag(p, plus))
				return -EINVAL;
			break;
		case '-':
			++*p;
			if (get_flag(p, minus))
				return -EINVAL;
			break;
		case ' ':
			++*p;
			break;
		default:
			return 0;
		}
	}
}

/*
 * "i" and what follows: a period and its unit. Returns 1 when the string
 * ended right after the number (perf stops parsing there), 0 to go on.
 */
static int parse_period(struct pulse_itrace_opts *o, const char **pp, bool *type_set,
			bool *period_set)
{
	const char *p = skip_sep(*pp);
	char *end;

	*pp = p;
	if (!isdigit((unsigned char)*p))
		return 0;
	o->period = strtoull(p, &end, 10);
	*period_set = true;
	p = skip_sep(end);
	switch (*p++) {
	case 'i':
		o->period_type = PULSE_ITRACE_PERIOD_INSTRUCTIONS;
		break;
	case 't':
		o->period_type = PULSE_ITRACE_PERIOD_TICKS;
		break;
	case 'm':
		o->period *= 1000;
		/* fall through */
	case 'u':
		o->period *= 1000;
		/* fall through */
	case 'n':
		if (*p++ != 's')
			return -EINVAL;
		o->period_type = PULSE_ITRACE_PERIOD_NANOSECS;
		break;
	case '\0':
		*pp = p - 1;
		return 1;
	default:
		return -EINVAL;
	}
	*type_set = true;
	*pp = p;
	return 0;
}

/* "g[N]" / "l[N]": a size in 1..@max */
static int parse_size(const char **pp, unsigned int *sz, unsigned int max)
{
	const char *p = skip_sep(*pp);
	unsigned long val;
	char *end;

	*pp = p;
	if (!isdigit((unsigned char)*p))
		return 0;
	val = strtoul(p, &end, 10);
	*pp = end;
	if (!val || val > max)
		return -EINVAL;
	*sz = val;
	return 0;
}

static int parse_letter(struct pulse_itrace_opts *o, char c, const char **p)
{
	char *end;

	switch (c) {
	case 'b': o->branches = true; break;
	case 'x': o->transactions = true; break;
	case 'w': o->ptwrites = true; break;
	case 'p': o->pwr_events = true; break;
	case 'o': o->other_events = true; break;
	case 'I': o->intr_events = true; break;
	case 'f': o->flc = true; break;
	case 'm': o->llc = true; break;
	case 't': o->tlb = true; break;
	case 'a': o->remote_access = true; break;
	case 'M': o->mem = true; break;
	case 'q': o->quick += 1; break;
	case 'A': o->approx_ipc = true; break;
	case 'Z': o->timeless_decoding = true; break;
	case ' ': case ',': break;
	case 'c':
		o->branches = true;
		o->calls = true;
		break;
	case 'r':
		o->branches = true;
		o->returns = true;
		break;
	case 'e':
		o->errors = true;
		return get_flags(p, &o->error_plus_flags, &o->error_minus_flags);
	case 'd':
		o->log = true;
		return get_flags(p, &o->log_plus_flags, &o->log_minus_flags);
	case 'g':
	case 'G':
		if (c == 'G')
			o->add_callchain = true;
		else
			o->callchain = true;
		o->callchain_sz = PULSE_ITRACE_DEFAULT_CALLCHAIN_SZ;
		return parse_size(p, &o->callchain_sz, PULSE_ITRACE_MAX_CALLCHAIN_SZ);
	case 'l':
	case 'L':
		if (c == 'L')
			o->add_last_branch = true;
		else
			o->last_branch = true;
		o->last_branch_sz = PULSE_ITRACE_DEFAULT_LAST_BRANCH_SZ;
		return parse_size(p, &o->last_branch_sz, PULSE_ITRACE_MAX_LAST_BRANCH_SZ);
	case 's':
		o->initial_skip = strtoul(*p, &end, 10);
		if (end == *p)
			return -EINVAL;
		*p = end;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

int pulse_itrace__parse(struct pulse_itrace_opts *o, const char *str)
{
	bool type_set = false, period_set = false;
	const char *p;
	int err;

	o->set = true;
	if (!str) {
		pulse_itrace__set_default(o, o->default_no_sample);
		return 0;
	}
	for (p = str; *p;) {
		char c = *p++;

		if (c == 'i') {
			o->instructions = true;
			err = parse_period(o, &p, &type_set, &period_set);
			if (err == 1)
				break;
		} else {
			err = parse_letter(o, c, &p);
		}
		if (err)
			return -EINVAL;
	}
	if (o->instructions) {
		if (!type_set)
			o->period_type = PULSE_ITRACE_PERIOD_NANOSECS;
		if (!period_set)
			o->period = PULSE_ITRACE_DEFAULT_PERIOD;
	}
	return 0;
}
