// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic PMUs as sysfs describes them under bus/event_source/devices/<pmu>:
 * "type" is attr.type, each format/<field> file says which attr bits a
 * term's value lands in ("config:0-7", "config1:0-3,8-11"), and each
 * events/<alias> file is a term list standing for a named event
 * ("event=0x3c,umask=0x1"). pulse_terms__apply() turns the terms between
 * the slashes of "pmu/term=value,.../" into attr bits the way perf 6.1's
 * parse_events_add_pmu() does: builtin terms (config=, period=, name=, ...)
 * first, then the format fields, whose values are spread over the field's
 * bits low bit first.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/internal.h"
#include "event/parse-internal.h"

#define DEVICES "bus/event_source/devices"

/* opts->sz lets the struct grow; 0 (unset) means "every field is there". */
#define OPT(opts, field)                                                         \
	((opts) && (!(opts)->sz ||                                               \
		    (opts)->sz >= offsetof(struct pulse_parse_opts, field) +     \
					  sizeof((opts)->field)) ? (opts)->field : NULL)

const char *pulse_sysfs_dir(const struct pulse_parse_opts *opts)
{
	const char *dir = OPT(opts, sysfs);

	/* the e2e tests' fake tree (AUX PMUs this machine lacks) */
	if (!dir)
		dir = getenv("PULSE_TEST_SYSFS");
	return dir ? dir : "/sys";
}

/* Read a small sysfs file, without its trailing whitespace. Return: 0 or -errno. */
static int read_small_file(const char *path, char *buf, size_t size)
{
	char *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	while (n > 0 && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	for (p = buf; isspace((unsigned char)*p); p++)
		;
	memmove(buf, p, n - (p - buf) + 1);
	return 0;
}

/*
 * A format file: "<field>:<bits>" where bits is a comma list of "lo-hi"
 * ranges or single bit numbers.
 */
static int parse_format(const char *text, int *field, __u64 *bits)
{
	const char *p;
	char *end;

	if (!strncmp(text, "config:", 7)) {
		*field = 0;
		p = text + 7;
	} else if (!strncmp(text, "config1:", 8)) {
		*field = 1;
		p = text + 8;
	} else if (!strncmp(text, "config2:", 8)) {
		*field = 2;
		p = text + 8;
	} else {
		return -EINVAL;
	}
	*bits = 0;
	for (;;) {
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		lo = hi = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		for (unsigned long b = lo; b <= hi; b++)
			*bits |= 1ULL << b;
		if (!*p)
			return 0;
		if (*p != ',')
			return -EINVAL;
		p++;
	}
}

/* sysfs also holds <alias>.scale, .unit, .per-pkg, .snapshot next to an alias. */
static bool is_alias_name(const char *name)
{
	return name[0] != '.' && !strchr(name, '.');
}

static int cmp_alias(const void *a, const void *b)
{
	return strcmp(((const struct pulse_pmu_alias *)a)->name,
		      ((const struct pulse_pmu_alias *)b)->name);
}

static int load_formats(struct pulse_pmu *pmu, const char *dir, struct pulse_parse_error *err)
{
	char path[4096 + 512], text[256];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/format", dir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		struct pulse_pmu_format *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/format/%s", dir, de->d_name);
		ret = read_small_file(path, text, sizeof(text));
		if (ret)
			break;
		f = realloc(pmu->formats, (pmu->nr_formats + 1) * sizeof(*f));
		if (!f) {
			ret = -ENOMEM;
			break;
		}
		pmu->formats = f;
		f = &pmu->formats[pmu->nr_formats];
		/* A format we cannot read would put values in the wrong bits. */
		if (parse_format(text, &f->field, &f->bits)) {
			ret = pulse_parse_err(err, -EINVAL, de->d_name, NULL,
					      "bad format '%s' in %s", text, path);
			break;
		}
		f->name = strdup(de->d_name);
		if (!f->name) {
			ret = -ENOMEM;
			break;
		}
		pmu->nr_formats++;
	}
	closedir(d);
	return ret;
}

/*
 * events/<alias>.unit and .scale, as perf's perf_pmu__parse_unit/scale():
 * a scale that is not a number is left out (perf takes it as 1).
 */
static void load_unit_scale(struct pulse_pmu_alias *a, const char *dir, const char *name)
{
	char path[4096 + 512], text[64], *end;

	a->unit[0] = 0;
	a->scale = 0;
	snprintf(path, sizeof(path), "%s/events/%s.unit", dir, name);
	if (read_small_file(path, a->unit, sizeof(a->unit)))
		a->unit[0] = 0;
	snprintf(path, sizeof(path), "%s/events/%s.scale", dir, name);
	if (read_small_file(path, text, sizeof(text)))
		return;
	a->scale = strtod(text, &end);
	if (end == text || *end || !(a->scale > 0))
		a->scale = 0;
}

static int load_aliases(struct pulse_pmu *pmu, const char *dir)
{
	char path[4096 + 512], text[1024];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/events", dir);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		struct pulse_pmu_alias *a;

		if (!is_alias_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", dir, de->d_name);
		if (read_small_file(path, text, sizeof(text))) {
			pr_debug("pmu %s: cannot read %s\n", pmu->name, path);
			continue;
		}
		a = realloc(pmu->aliases, (pmu->nr_aliases + 1) * sizeof(*a));
		if (!a) {
			ret = -ENOMEM;
			break;
		}
		pmu->aliases = a;
		a = &pmu->aliases[pmu->nr_aliases];
		load_unit_scale(a, dir, de->d_name);
		a->name = strdup(de->d_name);
		a->terms = strdup(text);
		if (!a->name || !a->terms) {
			free(a->name);
			free(a->terms);
			ret = -ENOMEM;
			break;
		}
		pmu->nr_aliases++;
	}
	closedir(d);
	qsort(pmu->aliases, pmu->nr_aliases, sizeof(*pmu->aliases), cmp_alias);
	return ret;
}

static bool valid_pmu_name(const char *name)
{
	return *name && strcmp(name, ".") && strcmp(name, "..") && !strchr(name, '/');
}

/**
 * pulse_pmu__new - read a PMU's type, formats and aliases from sysfs
 * @out: the new PMU, free with pulse_pmu__delete(); NULL on failure
 * @sysfs: the sysfs mount ("/sys")
 * @name: the PMU ("msr")
 * @err: filled in on failure (may be NULL)
 *
 * Return: 0; -ENOENT when there is no such PMU; -EINVAL for a format file
 * that does not parse; other -errno.
 */
int pulse_pmu__new(struct pulse_pmu **out, const char *sysfs, const char *name,
		   struct pulse_parse_error *err)
{
	char dir[4096], path[4200], text[64];
	struct pulse_pmu *pmu;
	char *end;
	int ret;

	*out = NULL;
	if (!valid_pmu_name(name))
		return -ENOENT;
	if (snprintf(dir, sizeof(dir), "%s/" DEVICES "/%s", sysfs, name) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	snprintf(path, sizeof(path), "%s/type", dir);
	ret = read_small_file(path, text, sizeof(text));
	if (ret)
		return ret == -ENOTDIR ? -ENOENT : ret;
	pmu = calloc(1, sizeof(*pmu));
	if (!pmu)
		return -ENOMEM;
	pmu->name = strdup(name);
	errno = 0;
	pmu->type = strtoul(text, &end, 10);
	if (!pmu->name) {
		ret = -ENOMEM;
	} else if (errno || end == text || *end) {
		ret = pulse_parse_err(err, -EINVAL, name, NULL, "bad PMU type '%s' in %s",
				      text, path);
	} else {
		ret = load_formats(pmu, dir, err);
		if (!ret)
			ret = load_aliases(pmu, dir);
	}
	if (ret) {
		pulse_pmu__delete(pmu);
		return ret;
	}
	*out = pmu;
	return 0;
}

void pulse_pmu__delete(struct pulse_pmu *pmu)
{
	if (!pmu)
		return;
	for (int i = 0; i < pmu->nr_formats; i++)
		free(pmu->formats[i].name);
	for (int i = 0; i < pmu->nr_aliases; i++) {
		free(pmu->aliases[i].name);
		free(pmu->aliases[i].terms);
	}
	free(pmu->formats);
	free(pmu->aliases);
	free(pmu->name);
	free(pmu);
}

const struct pulse_pmu_alias *pulse_pmu__find_alias(const struct pulse_pmu *pmu,
						    const char *name)
{
	struct pulse_pmu_alias key = { .name = (char *)name };

	if (!pmu->nr_aliases)
		return NULL;
	return bsearch(&key, pmu->aliases, pmu->nr_aliases, sizeof(key), cmp_alias);
}

static const struct pulse_pmu_format *find_format(const struct pulse_pmu *pmu, const char *name)
{
	for (int i = 0; pmu && i < pmu->nr_formats; i++)
		if (!strcmp(pmu->formats[i].name, name))
			return &pmu->formats[i];
	return NULL;
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **pulse_pmu__names(const char *sysfs)
{
	char path[4096];
	struct dirent *de;
	char **v = NULL;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/" DEVICES, sysfs);
	d = opendir(path);
	if (!d)
		return calloc(1, sizeof(char *));
	while ((de = readdir(d))) {
		char **nv;

		if (de->d_name[0] == '.')
			continue;
		nv = realloc(v, (n + 2) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n] = strdup(de->d_name);
		if (!v[n])
			break;
		n++;
	}
	closedir(d);
	if (!v)
		return calloc(1, sizeof(char *));
	v[n] = NULL;
	qsort(v, n, sizeof(*v), cmp_strp);
	return v;
}

/* One "key" or "key=value" of a term list. */
struct term {
	char *key;
	char *val;			/* NULL: no '=' */
};

/* perf's lexer: 0x-prefixed hex or plain decimal, nothing else. */
static int parse_num(const char *s, __u64 *v)
{
	unsigned long long x;
	const char *p = s;
	char *end;
	int base = 10;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
		if (!isxdigit((unsigned char)*p))
			return -EINVAL;
	} else if (!isdigit((unsigned char)*p)) {
		return -EINVAL;
	}
	errno = 0;
	x = strtoull(p, &end, base);
	if (errno || *end)
		return -EINVAL;
	*v = x;
	return 0;
}

static int split_terms(char *buf, struct term **termsp, int *nr)
{
	struct term *terms = *termsp;
	char *p = buf;

	if (!*buf)
		return 0;
	for (;;) {
		char *comma = strchr(p, ',');
		struct term *t;

		if (comma)
			*comma = '\0';
		t = realloc(terms, (*nr + 1) * sizeof(*t));
		if (!t)
			return -ENOMEM;
		terms = *termsp = t;
		t = &terms[(*nr)++];
		t->key = p;
		t->val = strchr(p, '=');
		if (t->val)
			*t->val++ = '\0';
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static const char *const builtin_terms[] = {
	"config", "config1", "config2", "name", "period", "freq",
};

static bool is_builtin(const char *key)
{
	for (size_t i = 0; i < ARRAY_SIZE(builtin_terms); i++)
		if (!strcmp(builtin_terms[i], key))
			return true;
	return false;
}

static void valid_terms_hint(const struct pulse_pmu *pmu, char *buf, size_t size)
{
	size_t n = snprintf(buf, size, "valid terms: ");
	bool first = true;

#define APPEND(s)                                                              \
	do {                                                                   \
		if (n < size)                                                  \
			n += snprintf(buf + n, size - n, "%s%s", first ? "" : ",", (s)); \
		first = false;                                                 \
	} while (0)
	for (int i = 0; pmu && i < pmu->nr_formats; i++)
		APPEND(pmu->formats[i].name);
	for (int i = 0; pmu && i < pmu->nr_aliases; i++)
		APPEND(pmu->aliases[i].name);
	for (size_t i = 0; i < ARRAY_SIZE(builtin_terms); i++)
		APPEND(builtin_terms[i]);
#undef APPEND
	if (n >= size && size > 4)
		strcpy(buf + size - 4, "...");
}

static __u64 *field_ptr(struct perf_event_attr *attr, int field)
{
	return field == 0 ? &attr->config : field == 1 ? &attr->config1 : &attr->config2;
}

static int apply_builtin(const struct term *t, struct perf_event_attr *attr,
			 struct pulse_terms *out, struct pulse_parse_error *err)
{
	__u64 v;

	if (!strcmp(t->key, "name")) {
		if (!t->val || !*t->val)
			return pulse_parse_err(err, -EINVAL, t->key, NULL,
					       "term 'name' needs a value");
		free(out->name);
		out->name = strdup(t->val);
		return out->name ? 0 : -ENOMEM;
	}
	if (!t->val)
		return pulse_parse_err(err, -EINVAL, t->key, NULL, "term '%s' needs a value",
				       t->key);
	if (parse_num(t->val, &v))
		return pulse_parse_err(err, -EINVAL, t->key, NULL,
				       "expected a number for term '%s', got '%s'", t->key, t->val);
	if (!strcmp(t->key, "config")) {
		attr->config = v;
	} else if (!strcmp(t->key, "config1")) {
		attr->config1 = v;
	} else if (!strcmp(t->key, "config2")) {
		attr->config2 = v;
	} else if (!strcmp(t->key, "period")) {
		attr->sample_period = v;
		attr->freq = 0;
		out->period_set = true;
	} else if (!strcmp(t->key, "freq")) {
		attr->sample_freq = v;
		attr->freq = 1;
		out->period_set = true;
	}
	return 0;
}

static int apply_format(const struct pulse_pmu *pmu, const struct pulse_pmu_format *f,
			const struct term *t, struct perf_event_attr *attr,
			struct pulse_parse_error *err)
{
	int width = __builtin_popcountll(f->bits);
	__u64 max = width == 64 ? ~0ULL : (1ULL << width) - 1;
	__u64 v = 1, *dst = field_ptr(attr, f->field);
	int vbit = 0;

	/* A bare format term means 1, as in perf ("cpu/edge/"). */
	if (t->val && parse_num(t->val, &v))
		return pulse_parse_err(err, -EINVAL, t->key, NULL,
				       "expected a number for term '%s', got '%s'", t->key, t->val);
	if (v > max)
		return pulse_parse_err(err, -EINVAL, t->key, NULL,
				       "value %#llx too big for term '%s' of PMU '%s' (maximum %#llx)",
				       (unsigned long long)v, t->key, pmu->name,
				       (unsigned long long)max);
	for (int b = 0; b < 64; b++) {
		if (!(f->bits & (1ULL << b)))
			continue;
		if (v & (1ULL << vbit++))
			*dst |= 1ULL << b;
		else
			*dst &= ~(1ULL << b);
	}
	return 0;
}

int pulse_terms__apply(const struct pulse_pmu *pmu, const char *str, size_t len,
		       struct perf_event_attr *attr, struct pulse_terms *out,
		       struct pulse_parse_error *err)
{
	struct term *terms = NULL;
	char *buf, **alias_bufs = NULL;
	int nr = 0, nr_alias_bufs = 0, ret;

	buf = strndup(str, len);
	if (!buf)
		return -ENOMEM;
	ret = split_terms(buf, &terms, &nr);
	/* Replace alias terms by the alias's own terms, in place. */
	for (int i = 0; !ret && i < nr; i++) {
		const struct pulse_pmu_alias *alias;
		struct term *more = NULL, *nt;
		char **nb;
		int nr_more = 0;

		if (!*terms[i].key || (terms[i].val && !*terms[i].val)) {
			ret = pulse_parse_err(err, -EINVAL, terms[i].key, NULL,
					      "empty term in '%.*s'", (int)len, str);
			break;
		}
		if (is_builtin(terms[i].key) || find_format(pmu, terms[i].key))
			continue;
		alias = pmu && !terms[i].val ? pulse_pmu__find_alias(pmu, terms[i].key) : NULL;
		if (!alias) {
			char hint[256];

			valid_terms_hint(pmu, hint, sizeof(hint));
			if (pmu)
				ret = pulse_parse_err(err, -EINVAL, terms[i].key, hint,
						      "unknown term '%s' for PMU '%s'",
						      terms[i].key, pmu->name);
			else
				ret = pulse_parse_err(err, -EINVAL, terms[i].key, hint,
						      "unknown term '%s'", terms[i].key);
			break;
		}
		nb = realloc(alias_bufs, (nr_alias_bufs + 1) * sizeof(*nb));
		if (!nb) {
			ret = -ENOMEM;
			break;
		}
		alias_bufs = nb;
		if (out && (alias->unit[0] || alias->scale)) {
			memcpy(out->unit, alias->unit, sizeof(out->unit));
			out->scale = alias->scale;
		}
		alias_bufs[nr_alias_bufs] = strdup(alias->terms);
		if (!alias_bufs[nr_alias_bufs]) {
			ret = -ENOMEM;
			break;
		}
		ret = split_terms(alias_bufs[nr_alias_bufs++], &more, &nr_more);
		for (int j = 0; !ret && j < nr_more; j++) {
			/* Aliases name format fields; one naming another alias would loop. */
			if (!is_builtin(more[j].key) && !find_format(pmu, more[j].key))
				ret = pulse_parse_err(err, -EINVAL, more[j].key, NULL,
						      "PMU '%s' alias '%s' uses unknown term '%s'",
						      pmu->name, alias->name, more[j].key);
		}
		if (!ret) {
			nt = realloc(terms, (nr + nr_more + 1) * sizeof(*nt));
			if (!nt) {
				ret = -ENOMEM;
			} else {
				terms = nt;
				memmove(&terms[i + nr_more], &terms[i + 1],
					(nr - i - 1) * sizeof(*terms));
				memcpy(&terms[i], more, nr_more * sizeof(*more));
				nr += nr_more - 1;
				i += nr_more - 1;
			}
		}
		free(more);
	}
	/* perf applies the builtin terms first and the format fields on top. */
	for (int i = 0; !ret && i < nr; i++)
		if (is_builtin(terms[i].key))
			ret = apply_builtin(&terms[i], attr, out, err);
	for (int i = 0; !ret && i < nr; i++) {
		const struct pulse_pmu_format *f = find_format(pmu, terms[i].key);

		if (f && !is_builtin(terms[i].key))
			ret = apply_format(pmu, f, &terms[i], attr, err);
	}
	for (int i = 0; i < nr_alias_bufs; i++)
		free(alias_bufs[i]);
	free(alias_bufs);
	free(terms);
	free(buf);
	return ret;
}

void pulse_terms__unit_scale(const struct pulse_terms *t, struct pulse_evsel *evsel)
{
	memcpy(evsel->unit, t->unit, sizeof(evsel->unit));
	evsel->scale = t->scale;
}
