// SPDX-License-Identifier: GPL-2.0
/*
 * pulse record's option values, parsed as perf 6.1 parses them.
 */
#include <stdlib.h>
#include <unistd.h>
#include "record.h"

/* "1,2,5-7" into an int array. */
int record_parse_list(const char *s, int **out, size_t *nr)
{
	int *v = NULL;
	size_t n = 0;
	char *end;

	while (*s) {
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -1;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -1;
			s = end;
		}
		for (long i = a; i <= b; i++) {
			int *nv = realloc(v, (n + 1) * sizeof(int));

			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
			v[n++] = (int)i;
		}
		if (*s == ',')
			s++;
		else if (*s)
			goto bad;
	}
	*out = v;
	*nr = n;
	return n ? 0 : -1;
bad:
	free(v);
	return -1;
}

int record_parse_mmap_pages(const char *s, size_t *pages)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	long page = sysconf(_SC_PAGESIZE);

	if (end == s || s[0] == '-')
		return -1;
	switch (*end) {
	case 0:
		break;
	case 'B': case 'b': v = v / page; end++; break;
	case 'K': case 'k': v = v * 1024 / page; end++; break;
	case 'M': case 'm': v = v * 1024 * 1024 / page; end++; break;
	case 'G': case 'g': v = v * 1024 * 1024 * 1024 / page; end++; break;
	default: return -1;
	}
	if (*end || !v || (v & (v - 1)))
		return -1;
	*pages = v;
	return 0;
}
