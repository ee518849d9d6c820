// SPDX-License-Identifier: GPL-2.0
/*
 * The flame graph as one SVG document, laid out as flamegraph.pl lays it
 * out: one row of frames per depth, the root "all" at the bottom (at the
 * top inverted), each frame as wide as its samples, children left to right
 * by name, a frame's own samples the gap on its right. Each frame is a
 * <g class="f"> with a <title> ("name (1,234 samples, 5.67%)"), a <rect>
 * and, when it is wide enough, a <text> label; its children's <g> are
 * nested inside it, so that the script (svg-js.c) finds a frame's
 * ancestors and descendants in the document itself. Frames narrower than
 * --minwidth are left out and said in the subtitle: their width stays in
 * their parent's.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "flame-int.h"
#include "core/hash.h"

#define XPAD 10		/* pixels left and right of the frames */
#define FRAME_H 16	/* a row: 15 of frame, 1 of gap */
#define FONT_SIZE 12
#define FONT_W 0.59	/* average glyph width per font size (flamegraph.pl) */

struct svg {
	FILE *fp;
	const struct pulse_flame *f;
	const struct pulse_flame_svg_opts *o;
	double per_sample;	/* pixels */
	double min_samples;	/* a frame under this is left out */
	double max_delta;	/* diff: the largest change of share, for colours */
	unsigned int height;	/* of the image */
	unsigned int top;	/* the frames' first row, from the top */
	unsigned int max_depth;	/* of the frames drawn */
	unsigned int width;
};

/*
 * The length of the UTF-8 character at @s (at most @len bytes), or 0 when
 * the bytes there are not one that XML 1.0 allows: a lone or missing
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, or
 * U+FFFE/U+FFFF. Names come from the recording (a comm is any 16 bytes),
 * and one bad byte makes the whole SVG unreadable to a browser.
 */
static size_t utf8_len(const unsigned char *s, size_t len)
{
	uint32_t cp, min;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f, min = 0x80;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f, min = 0x800;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07, min = 0x10000;
	else
		return 0;
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		/* a NUL is not a continuation byte: never read past the string */
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
	    cp == 0xffff)
		return 0;
	return n;
}

/* the bytes of @s's first @nr_chars characters (a byte utf8_len() refuses is one) */
static size_t utf8_span(const char *s, size_t nr_chars)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t off = 0;

	for (size_t c = 0; c < nr_chars && u[off]; c++) {
		size_t n = utf8_len(u + off, SIZE_MAX - off);

		off += n ? n : 1;
	}
	return off;
}

/* @s's characters, as put_escaped() writes them */
static size_t utf8_count(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t nr = 0;

	for (size_t off = 0; u[off]; nr++) {
		size_t n = utf8_len(u + off, SIZE_MAX - off);

		off += n ? n : 1;
	}
	return nr;
}

/* @s as XML text or attribute value; bytes that are not UTF-8 become U+FFFD */
static void put_escaped(FILE *fp, const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len && u[i];) {
		unsigned char c = u[i];
		size_t n;

		switch (c) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&apos;", fp);
			break;
		default:
			if (c >= 0x80) {
				n = utf8_len(u + i, len - i);
				if (n)
					fwrite(u + i, 1, n, fp);
				else
					fputs("\xef\xbf\xbd", fp);	/* U+FFFD */
				i += n ? n : 1;
				continue;
			}
			/* XML 1.0 has no other control characters */
			if (c < 0x20 && c != '\t' && c != '\n')
				fputc('?', fp);
			else
				fputc(c, fp);
		}
		i++;
	}
}

/* 1234567 -> "1,234,567", as flamegraph.pl writes counts */
static void put_count(FILE *fp, uint64_t v)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);

	for (int i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			fputc(',', fp);
		fputc(digits[i], fp);
	}
}

/* stable per name: the same function has the same colour in every graph */
static void name_hash(const char *name, double v[3])
{
	uint64_t h = pulse_fnv1a_str(name);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 32;
	for (int i = 0; i < 3; i++)
		v[i] = ((h >> (i * 16)) & 0xffff) / 65535.0;
}

static void put_colour(const struct svg *g, const struct pulse_flame_node *n)
{
	int r, gr, b;
	double v[3];

	if (g->o->diff) {
		/* flamegraph.pl's differential palette: red grew, blue shrank */
		double new_share = g->f->nodes[0].total ? (double)n->total / g->f->nodes[0].total : 0;
		double old_share = g->o->old_samples ? (double)n->old_total / g->o->old_samples : 0;
		double d = new_share - old_share;
		int fade = g->max_delta > 0 ? (int)(210 * (1 - fabs(d) / g->max_delta)) : 210;

		if (d > 0)
			r = 255, gr = b = fade;
		else if (d < 0)
			b = 255, r = gr = fade;
		else
			r = gr = b = 250;
		fprintf(g->fp, "rgb(%d,%d,%d)", r, gr, b);
		return;
	}
	name_hash(n->name, v);
	switch (n->kind) {
	case PULSE_FLAME_KERNEL:	/* flamegraph.pl's "orange" */
		r = 190 + 65 * v[0], gr = 90 + 65 * v[0], b = 40 * v[1];
		break;
	case PULSE_FLAME_UNKNOWN:	/* greys */
		r = gr = b = 170 + 40 * v[0];
		break;
	case PULSE_FLAME_TASK:		/* "aqua" */
		r = 50 + 60 * v[0], gr = 165 + 55 * v[1], b = 165 + 55 * v[1];
		break;
	default:			/* flamegraph.pl's "hot" */
		r = 205 + 50 * v[2], gr = 230 * v[0], b = 55 * v[1];
		break;
	}
	fprintf(g->fp, "rgb(%d,%d,%d)", r, gr, b);
}

/*
 * flamegraph.pl's label: what fits of the name, ".." when cut; none under
 * 3 glyphs. Counted in characters, cut between two: half a UTF-8
 * character is not XML.
 */
static void put_label(const struct svg *g, const char *name, double x, double y, double w)
{
	size_t fit = w / (FONT_SIZE * FONT_W), len = utf8_count(name);

	if (fit < 3)
		return;
	fprintf(g->fp, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + 10.5);
	if (len <= fit) {
		put_escaped(g->fp, name, SIZE_MAX);
	} else {
		put_escaped(g->fp, name, utf8_span(name, fit - 2));
		fputs("..", g->fp);
	}
	fputs("</text>", g->fp);
}

static void put_frame(const struct svg *g, uint32_t idx, double x_samples)
{
	const struct pulse_flame_node *n = &g->f->nodes[idx];
	uint64_t total = g->f->nodes[0].total;
	double x = XPAD + x_samples * g->per_sample, w = n->total * g->per_sample;
	double y = g->o->inverted ? g->top + n->depth * FRAME_H
				  : g->top + (g->max_depth - n->depth) * FRAME_H;

	fputs("<g class=\"f\"><title>", g->fp);
	put_escaped(g->fp, n->name, SIZE_MAX);
	fputs(" (", g->fp);
	put_count(g->fp, n->total);
	fprintf(g->fp, " %s, %.2f%%", g->o->count_name ? g->o->count_name : "samples",
		100.0 * n->total / total);
	if (g->o->diff) {
		double was = g->o->old_samples ? 100.0 * n->old_total / g->o->old_samples : 0;
		double now = 100.0 * n->total / total;

		fprintf(g->fp, "; was %.2f%%, %+.2f%%", was, now - was);
	}
	fprintf(g->fp, ")</title><rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"15\" fill=\"",
		x, y, w);
	put_colour(g, n);
	fputs("\"/>", g->fp);
	put_label(g, n->name, x, y, w);
	for (uint32_t c = n->first_child; c; c = g->f->nodes[c].next_sibling) {
		if (g->f->nodes[c].total >= g->min_samples && g->f->nodes[c].total)
			put_frame(g, c, x_samples);
		x_samples += g->f->nodes[c].total;
	}
	fputs("</g>\n", g->fp);
}

static void put_head(const struct svg *g, size_t merged)
{
	const struct pulse_flame_svg_opts *o = g->o;
	const char *title = o->title ? o->title : o->inverted ? "Icicle Graph" : "Flame Graph";
	bool sep = false;

	fprintf(g->fp,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"xmlns=\"http://www.w3.org/2000/svg\" data-inverted=\"%d\" data-total=\"%" PRIu64
		"\">\n",
		g->width, g->height, g->width, g->height, o->inverted, g->f->nodes[0].total);
	fputs("<!-- made by pulse flamegraph; the conventions of Brendan Gregg's flamegraph.pl -->\n"
	      "<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" x2=\"0\">"
	      "<stop stop-color=\"#eeeeee\" offset=\"5%\"/><stop stop-color=\"#eeeeb0\" offset=\"95%\"/>"
	      "</linearGradient></defs>\n<style>\n"
	      "text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}\n"
	      "#frames text{pointer-events:none}\n"
	      "#frames rect{rx:2px;ry:2px;cursor:pointer}\n"
	      "#frames rect:hover{stroke:#000;stroke-width:0.5}\n"
	      "#title{text-anchor:middle;font-size:17px}\n#subtitle{text-anchor:middle;fill:#555}\n"
	      ".btn{cursor:pointer}\n.hide{display:none}\n.parent>rect{opacity:0.5}\n"
	      "#matched{text-anchor:end}\n</style>\n", g->fp);
	fprintf(g->fp, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"url(#bg)\"/>\n",
		g->width, g->height);
	fprintf(g->fp, "<text id=\"title\" x=\"%u\" y=\"24\">", g->width / 2);
	put_escaped(g->fp, title, SIZE_MAX);
	fputs("</text>\n", g->fp);
	if (o->subtitle || o->lost || merged) {
		fprintf(g->fp, "<text id=\"subtitle\" x=\"%u\" y=\"44\">", g->width / 2);
		if (o->subtitle) {
			put_escaped(g->fp, o->subtitle, SIZE_MAX);
			sep = true;
		}
		if (o->lost) {
			fputs(sep ? "; " : "", g->fp);
			put_count(g->fp, o->lost);
			fputs(o->lost == 1 ? " lost sample" : " lost samples", g->fp);
			sep = true;
		}
		if (merged) {
			fputs(sep ? "; " : "", g->fp);
			fprintf(g->fp, "%zu frame%s under %g\u2030 merged", merged,
				merged == 1 ? "" : "s", o->minwidth);
		}
		fputs("</text>\n", g->fp);
	}
	fprintf(g->fp,
		"<text id=\"unzoom\" class=\"btn hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"btn\" x=\"%u\" y=\"24\">Search</text>\n"
		"<text id=\"matched\" x=\"%u\" y=\"%u\"> </text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n",
		XPAD, g->width - XPAD - 100, g->width - XPAD, g->height - 8, XPAD, g->height - 8);
}

int pulse_flame__write_svg(struct pulse_flame *f, FILE *fp,
			   const struct pulse_flame_svg_opts *o, size_t *nr_merged)
{
	struct svg g = { .fp = fp, .f = f, .o = o };
	size_t merged = 0;
	uint64_t total;
	bool sub;

	if (nr_merged)
		*nr_merged = 0;
	if (!o || o->sz < sizeof(*o))
		return -EINVAL;
	pulse_flame__finish(f);
	total = f->nodes[0].total;
	if (!total)
		return -ENODATA;
	g.width = o->width ? o->width : 1200;
	if (g.width < 2 * XPAD + 100)
		g.width = 2 * XPAD + 100;
	g.per_sample = (double)(g.width - 2 * XPAD) / total;
	g.min_samples = total * (o->minwidth > 0 ? o->minwidth : 0) / 1000.0;
	for (size_t i = 1; i < f->nr; i++) {
		const struct pulse_flame_node *n = &f->nodes[i];

		/* a node is never wider than its parent: all of a dropped subtree is dropped */
		if (n->total < g.min_samples || !n->total) {
			merged += n->total > 0;
			continue;
		}
		if (n->depth > g.max_depth)
			g.max_depth = n->depth;
		if (o->diff) {
			double d = (double)n->total / total -
				   (o->old_samples ? (double)n->old_total / o->old_samples : 0);

			if (fabs(d) > g.max_delta)
				g.max_delta = fabs(d);
		}
	}
	sub = o->subtitle || o->lost || merged;
	g.top = sub ? 56 : 36;
	g.height = g.top + (g.max_depth + 1) * FRAME_H + 2 * FONT_SIZE + 10;
	put_head(&g, merged);
	fputs("<g id=\"frames\">\n", fp);
	put_frame(&g, 0, 0);
	fputs("</g>\n<script type=\"text/ecmascript\"><![CDATA[\n", fp);
	fputs(pulse_flame__script, fp);
	fputs("]]></script>\n</svg>\n", fp);
	if (nr_merged)
		*nr_merged = merged;
	return ferror(fp) ? -EIO : 0;
}
