// SPDX-License-Identifier: GPL-2.0
/*
 * lib/flame: stacks merged by name into one tree (totals, children in
 * name order), the diff's OLD shares by path, and the SVG: escaped names,
 * flamegraph.pl's titles, frames under --minwidth merged and counted.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <pulse/flame.h>
#include "test.h"

static struct pulse_flame *make(const char *const *stacks, const uint64_t *counts, size_t nr)
{
	struct pulse_flame *f;

	if (pulse_flame__new(&f))
		return NULL;
	for (size_t i = 0; i < nr; i++) {
		char *copy = strdup(stacks[i]), *save = NULL;
		const char *names[32];
		size_t n = 0;

		for (char *t = strtok_r(copy, ";", &save); t && n < 32; t = strtok_r(NULL, ";", &save))
			names[n++] = t;
		if (pulse_flame__add_stack(f, names, NULL, n, counts[i])) {
			free(copy);
			pulse_flame__delete(f);
			return NULL;
		}
		free(copy);
	}
	pulse_flame__finish(f);
	return f;
}

/* the node at a ';' path, or 0 */
static uint32_t at(const struct pulse_flame *f, const char *path)
{
	char *copy = strdup(path), *save = NULL;
	uint32_t cur = 0;

	for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		cur = pulse_flame__child(f, cur, t);
		if (!cur)
			break;
	}
	free(copy);
	return cur;
}

static void test_flame__merge(void)
{
	static const char *const stacks[] = { "main;a;c", "main;a;b", "main;a;b", "main;z", "x" };
	static const uint64_t counts[] = { 3, 5, 2, 1, 4 };
	struct pulse_flame *f = make(stacks, counts, 5);
	const struct pulse_flame_node *root, *a;
	uint32_t c;

	ASSERT_TRUE(f);
	/* all, main, a, c, b, z, x */
	ASSERT_EQ(pulse_flame__nr_nodes(f), 7);
	root = pulse_flame__node(f, 0);
	ASSERT_EQ(root->total, 15);
	ASSERT_EQ(root->self, 0);
	a = pulse_flame__node(f, at(f, "main;a"));
	ASSERT_EQ(a->total, 10);
	ASSERT_EQ(a->self, 0);
	ASSERT_EQ(pulse_flame__node(f, at(f, "main;a;b"))->self, 7);
	ASSERT_EQ(pulse_flame__node(f, at(f, "main;a;b"))->depth, 3);
	ASSERT_EQ(pulse_flame__node(f, at(f, "main"))->total, 11);
	/* children by name: b before c although c came first */
	c = a->first_child;
	ASSERT_STREQ(pulse_flame__node(f, c)->name, "b");
	c = pulse_flame__node(f, c)->next_sibling;
	ASSERT_STREQ(pulse_flame__node(f, c)->name, "c");
	ASSERT_EQ(pulse_flame__node(f, c)->next_sibling, 0);
	ASSERT_STREQ(pulse_flame__node(f, root->first_child)->name, "main");
	/* the same name under another parent is another frame */
	ASSERT_EQ(at(f, "a"), 0);
	pulse_flame__delete(f);
}

static void test_flame__diff(void)
{
	static const char *const new_stacks[] = { "main;a;b", "main;a;c", "main;d" };
	static const uint64_t new_counts[] = { 6, 2, 2 };
	static const char *const old_stacks[] = { "main;a;b", "main;a;c", "other;a;b" };
	static const uint64_t old_counts[] = { 10, 30, 60 };
	struct pulse_flame *f = make(new_stacks, new_counts, 3);
	struct pulse_flame *old = make(old_stacks, old_counts, 3);

	ASSERT_TRUE(f && old);
	ASSERT_EQ(pulse_flame__diff(f, old), 0);
	ASSERT_EQ(pulse_flame__node(f, 0)->old_total, 100);
	ASSERT_EQ(pulse_flame__node(f, at(f, "main;a;b"))->old_total, 10);
	ASSERT_EQ(pulse_flame__node(f, at(f, "main;a;c"))->old_total, 30);
	ASSERT_EQ(pulse_flame__node(f, at(f, "main;a"))->old_total, 40);
	/* only in NEW */
	ASSERT_EQ(pulse_flame__node(f, at(f, "main;d"))->old_total, 0);
	pulse_flame__delete(f);
	pulse_flame__delete(old);
}

static char *svg_of(struct pulse_flame *f, const struct pulse_flame_svg_opts *o, size_t *merged,
		    int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	*err = pulse_flame__write_svg(f, fp, o, merged);
	fclose(fp);
	return buf;
}

static void test_flame__svg_escape_titles(void)
{
	static const char *const stacks[] = { "main;std::vector<int>::operator&=", "main" };
	static const uint64_t counts[] = { 1234, 766 };
	struct pulse_flame *f = make(stacks, counts, 2);
	struct pulse_flame_svg_opts o = { .sz = sizeof(o), .title = "\"x\" & <y>" };
	size_t merged = 9;
	int err;
	char *svg;

	ASSERT_TRUE(f);
	svg = svg_of(f, &o, &merged, &err);
	ASSERT_EQ(err, 0);
	ASSERT_EQ(merged, 0);
	ASSERT_TRUE(strstr(svg, "<title>std::vector&lt;int&gt;::operator&amp;= "
				"(1,234 samples, 61.70%)</title>"));
	ASSERT_TRUE(strstr(svg, "<title>all (2,000 samples, 100.00%)</title>"));
	ASSERT_TRUE(strstr(svg, ">&quot;x&quot; &amp; &lt;y&gt;</text>"));
	ASSERT_TRUE(!strstr(svg, "<int>"));
	ASSERT_TRUE(strstr(svg, "</svg>\n"));
	free(svg);
	pulse_flame__delete(f);
}

static void test_flame__svg_minwidth(void)
{
	/* 10000 samples; 0.1 per mille is 1 sample: "tiny" (0) is not drawn */
	static const char *const stacks[] = { "main;big", "main;small;deeper", "main;tiny" };
	static const uint64_t counts[] = { 9990, 10, 0 };
	struct pulse_flame *f = make(stacks, counts, 3);
	struct pulse_flame_svg_opts o = { .sz = sizeof(o), .minwidth = 2 };
	size_t merged;
	int err;
	char *svg;

	ASSERT_TRUE(f);
	/* 2 per mille is 20 samples: small and deeper go */
	svg = svg_of(f, &o, &merged, &err);
	ASSERT_EQ(err, 0);
	ASSERT_EQ(merged, 2);
	ASSERT_TRUE(strstr(svg, "2 frames under 2\xe2\x80\xb0 merged"));
	ASSERT_TRUE(!strstr(svg, "<title>small"));
	ASSERT_TRUE(!strstr(svg, "<title>tiny"));
	ASSERT_TRUE(strstr(svg, "<title>big"));
	free(svg);
	o.minwidth = 0;
	svg = svg_of(f, &o, &merged, &err);
	ASSERT_EQ(merged, 0);
	ASSERT_TRUE(strstr(svg, "<title>deeper (10 samples, 0.10%)"));
	ASSERT_TRUE(!strstr(svg, "frames under"));
	free(svg);
	pulse_flame__delete(f);
}

static void test_flame__svg_empty(void)
{
	struct pulse_flame *f;
	struct pulse_flame_svg_opts o = { .sz = sizeof(o) };
	int err;
	char *svg;

	ASSERT_EQ(pulse_flame__new(&f), 0);
	svg = svg_of(f, &o, NULL, &err);
	ASSERT_EQ(err, -ENODATA);
	free(svg);
	o.sz = 0;
	svg = svg_of(f, &o, NULL, &err);
	ASSERT_EQ(err, -EINVAL);
	free(svg);
	pulse_flame__delete(f);
}

/* every byte sequence of @s is UTF-8 (what an XML parser demands of the document) */
static bool is_utf8(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	while (*u) {
		int n = *u < 0x80 ? 1 : (*u & 0xe0) == 0xc0 ? 2 : (*u & 0xf0) == 0xe0 ? 3 :
			(*u & 0xf8) == 0xf0 ? 4 : 0;

		if (!n || (n == 2 && *u < 0xc2))
			return false;
		for (int i = 1; i < n; i++)
			if ((u[i] & 0xc0) != 0x80)
				return false;
		u += n;
	}
	return true;
}

static void test_flame__svg_not_utf8(void)
{
	/* a comm is any bytes: "ca\xe9ll" is Latin-1, and "\xc3" a cut character */
	static const char *const stacks[] = { "ca\xe9ll;f", "x\xc3" };
	static const uint64_t counts[] = { 10, 10 };
	struct pulse_flame *f = make(stacks, counts, 2);
	struct pulse_flame_svg_opts o = { .sz = sizeof(o), .title = "t\xff" };
	int err;
	char *svg;

	ASSERT_TRUE(f);
	svg = svg_of(f, &o, NULL, &err);
	ASSERT_EQ(err, 0);
	ASSERT_TRUE(is_utf8(svg));
	ASSERT_TRUE(strstr(svg, "<title>ca\xef\xbf\xbdll (10 samples, 50.00%)</title>"));
	ASSERT_TRUE(strstr(svg, "<title>x\xef\xbf\xbd (10 samples"));
	ASSERT_TRUE(strstr(svg, ">t\xef\xbf\xbd</text>"));
	free(svg);
	pulse_flame__delete(f);
}

static void test_flame__svg_label_cut(void)
{
	/*
	 * 120 pixels wide: frames of 100 pixels, 14 glyphs of 7.08. "a" and
	 * 20 two-byte "é": 21 characters, cut to 12 and ".." (a cut by bytes
	 * would split the sixth é); 14 "é" fit whole.
	 */
	static const char *const stacks[] = {
		"a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
		"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
		"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9;z",
	};
	static const uint64_t counts[] = { 10, 10 };
	struct pulse_flame *f = make(stacks, counts, 2);
	struct pulse_flame_svg_opts o = { .sz = sizeof(o), .width = 220 };
	int err;
	char *svg;

	ASSERT_TRUE(f);
	/* 220: each of the two frames is 100 pixels */
	svg = svg_of(f, &o, NULL, &err);
	ASSERT_EQ(err, 0);
	ASSERT_TRUE(is_utf8(svg));
	ASSERT_TRUE(strstr(svg, ">a\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9..</text>"));
	ASSERT_TRUE(strstr(svg, ">\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
				"\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9</text>"));
	free(svg);
	pulse_flame__delete(f);
}

TEST_MAIN(TEST(test_flame__merge), TEST(test_flame__diff), TEST(test_flame__svg_escape_titles),
	  TEST(test_flame__svg_minwidth), TEST(test_flame__svg_empty),
	  TEST(test_flame__svg_not_utf8), TEST(test_flame__svg_label_cut))
