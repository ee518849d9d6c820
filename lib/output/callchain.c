// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --stdio callchains: the graph ("|", "---" and "--N.NN%--"
 * lines, one column of 11 characters per level after a 12-space margin),
 * flat (a value line, then every frame from the root) and folded ("value
 * frame;frame;..."), byte for byte as perf 6.1 prints them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <pulse/output-callchain.h>

#define LEFT_MARGIN "            "	/* perf's callchain__fprintf_left_margin() */

struct cc_print {
	FILE *fp;
	const struct pulse_callchain_param *p;
};

/* perf's callchain_list__sym_name() */
static void print_frame(FILE *fp, const struct pulse_cc_loc *loc)
{
	if (loc->sym) {
		fputs(loc->sym->name, fp);
		if (loc->sym->inlined)
			fputs(" (inlined)", fp);
	} else
		fprintf(fp, "%#" PRIx64, loc->ip);
}

static void margin(FILE *fp, int left)
{
	fputs(LEFT_MARGIN, fp);
	fprintf(fp, "%*s", left, "");
}

/* perf's callchain_node__fprintf_value() */
static void print_value(const struct cc_print *cp, uint64_t hits, uint32_t count, uint64_t total)
{
	switch (cp->p->value) {
	case PULSE_CC_PERIOD:
		fprintf(cp->fp, "%" PRIu64, hits);
		break;
	case PULSE_CC_COUNT:
		fprintf(cp->fp, "%u", count);
		break;
	case PULSE_CC_PERCENT:
		fprintf(cp->fp, "%.2f%%", total ? hits * 100.0 / total : 0.0);
		break;
	}
}

/* perf's ipchain__fprintf_graph_line(): the "|" line between siblings */
static void graph_line(const struct cc_print *cp, int depth, unsigned long mask, int left)
{
	margin(cp->fp, left);
	for (int i = 0; i < depth; i++)
		fputs(mask & (1UL << i) ? "|          " : "           ", cp->fp);
	fputc('\n', cp->fp);
}

/*
 * perf's ipchain__fprintf_graph(): one frame; the first of a node
 * (@first) carries the node's value.
 */
static void graph_frame(const struct cc_print *cp, const struct pulse_cc_loc *loc,
			const char *name, uint64_t hits, uint32_t count, int depth,
			unsigned long mask, bool first, uint64_t total, int left)
{
	margin(cp->fp, left);
	for (int i = 0; i < depth; i++) {
		fputc(mask & (1UL << i) ? '|' : ' ', cp->fp);
		if (first && i == depth - 1) {
			fputs("--", cp->fp);
			print_value(cp, hits, count, total);
			fputs("--", cp->fp);
		} else {
			fputs("          ", cp->fp);
		}
	}
	if (loc)
		print_frame(cp->fp, loc);
	else
		fputs(name, cp->fp);
	fputc('\n', cp->fp);
}

/* perf's __callchain__fprintf_graph() */
static void graph_level(const struct cc_print *cp, const struct pulse_cc_node *node,
			uint64_t total, int depth, unsigned long mask, int left)
{
	unsigned long new_mask = mask;
	uint64_t remaining = total;
	uint32_t printed = 0, cumul_count = 0;
	bool rel = cp->p->mode == PULSE_CC_GRAPH_REL;

	/* perf's masks are ints: deeper levels print no pipes */
	if (depth > (int)(sizeof(mask) * 8 - 2))
		depth = sizeof(mask) * 8 - 2;
	for (uint32_t c = 0; c < node->nr_sorted; c++) {
		const struct pulse_cc_node *child = node->sorted[c];
		uint64_t cumul = pulse_cc_node__cumul_hits(child);

		remaining -= cumul;
		cumul_count += pulse_cc_node__cumul_count(child);
		/* the last child ends its level's pipe, unless "[...]" follows */
		if (c + 1 == node->nr_sorted && (!rel || !remaining))
			new_mask &= ~(1UL << (depth - 1));
		graph_line(cp, depth, mask, left);
		for (uint32_t i = 0; i < child->val_nr; i++)
			graph_frame(cp, &child->val[i], NULL, cumul,
				    pulse_cc_node__cumul_count(child), depth, new_mask, i == 0,
				    total, left);
		graph_level(cp, child, rel ? child->children_hit : total, depth + 1,
			    new_mask | (1UL << depth), left);
		if (++printed == cp->p->print_limit)
			break;
	}
	if (rel && remaining && remaining != total) {
		uint32_t count = 0;

		if (cp->p->value == PULSE_CC_COUNT) {
			if (node->children_count <= cumul_count)
				return;
			count = node->children_count - cumul_count;
		}
		new_mask &= ~(1UL << (depth - 1));
		graph_frame(cp, NULL, "[...]", remaining, count, depth, new_mask, true, total,
			    left);
	}
}

/* perf's callchain__fprintf_graph() */
static void print_graph(const struct cc_print *cp, const struct pulse_cc_root *root,
			uint64_t total, uint64_t parent, bool skip_first)
{
	const struct pulse_cc_node *node = &root->node;
	bool printed = false, any = false;
	uint32_t nr_printed = 0;
	int left = 0;

	/* a lone chain with all of the entry's period: no percentage, "---" */
	if (node->nr_sorted == 1 &&
	    pulse_cc_node__cumul_hits(node->sorted[0]) == parent) {
		const struct pulse_cc_node *c = node->sorted[0];

		for (uint32_t i = 0; i < c->val_nr; i++) {
			if (i == 0 && skip_first)
				continue;
			if (!printed) {
				margin(cp->fp, left);
				fputs("|\n", cp->fp);
				margin(cp->fp, left);
				fputs("---", cp->fp);
				left += 3;
				printed = true;
			} else {
				margin(cp->fp, left);
			}
			print_frame(cp->fp, &c->val[i]);
			fputc('\n', cp->fp);
			any = true;
			if (++nr_printed == cp->p->print_limit)
				break;
		}
		node = c;
	}
	if (cp->p->mode == PULSE_CC_GRAPH_REL)
		total = parent;
	if (node->nr_sorted)
		any = true;
	graph_level(cp, node, total, 1, 1, left);
	/* a blank line after the chains, none when there were none */
	if (any)
		fputc('\n', cp->fp);
}

/* perf's __callchain__fprintf_flat() / _folded(): the frames from the root */
static size_t print_path(const struct cc_print *cp, const struct pulse_cc_node *node, bool folded,
			 size_t n)
{
	if (!node)
		return n;
	n = print_path(cp, node->parent, folded, n);
	for (uint32_t i = 0; i < node->val_nr; i++) {
		if (folded) {
			if (n++)
				fputc(';', cp->fp);
		} else {
			fputs("                ", cp->fp);
		}
		print_frame(cp->fp, &node->val[i]);
		if (!folded)
			fputc('\n', cp->fp);
	}
	return n;
}

int pulse_callchain__fprintf(FILE *fp, const struct pulse_cc_root *root,
			     const struct pulse_callchain_param *p, uint64_t total,
			     uint64_t parent, bool skip_first)
{
	struct cc_print cp = { .fp = fp, .p = p };
	uint32_t printed = 0;

	if (!root)
		return 0;
	switch (p->mode) {
	case PULSE_CC_GRAPH_ABS:
	case PULSE_CC_GRAPH_REL:
		print_graph(&cp, root, total, parent, skip_first);
		break;
	case PULSE_CC_FLAT:
		for (size_t i = 0; i < root->nr_flat; i++) {
			const struct pulse_cc_node *n = root->flat[i];

			fputs("           ", fp);
			print_value(&cp, pulse_cc_node__cumul_hits(n), pulse_cc_node__cumul_count(n),
				    total);
			fputc('\n', fp);
			print_path(&cp, n, false, 0);
			fputc('\n', fp);
			if (++printed == p->print_limit)
				break;
		}
		break;
	case PULSE_CC_FOLDED:
		for (size_t i = 0; i < root->nr_flat; i++) {
			const struct pulse_cc_node *n = root->flat[i];

			print_value(&cp, n->hit, n->count, total);
			fputc(' ', fp);
			print_path(&cp, n, true, 0);
			fputc('\n', fp);
			if (++printed == p->print_limit)
				break;
		}
		break;
	case PULSE_CC_NONE:
		break;
	}
	return ferror(fp) ? -EIO : 0;
}
