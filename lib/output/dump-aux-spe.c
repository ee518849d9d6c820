// SPDX-License-Identifier: GPL-2.0
/*
 * The ARM SPE packet dump perf report -D prints under each AUXTRACE record
 * of an arm_spe file (perf 6.1 util/arm-spe.c arm_spe_dump() with the words
 * of util/arm-spe-decoder/arm-spe-pkt-decoder.c), from the Arm ARM's
 * packet formats: a header byte (two for the extended format), a payload of
 * 1, 2, 4 or 8 bytes. PAD bytes are grouped up to 16 on a line; a byte that
 * starts no packet, or a packet cut by the end, is one "Bad packet!" line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pulse/data.h>
#include "dump-int.h"

enum spe_type { SPE_BAD, SPE_PAD, SPE_END, SPE_TS, SPE_ADDR, SPE_LAT, SPE_CONTEXT, SPE_OP,
		SPE_EVENTS, SPE_SOURCE };

static const char *const spe_names[] = {
	[SPE_BAD] = "Bad Packet!", [SPE_PAD] = "PAD", [SPE_END] = "END", [SPE_TS] = "TS",
	[SPE_ADDR] = "ADDR", [SPE_LAT] = "LAT", [SPE_CONTEXT] = "CONTEXT",
	[SPE_OP] = "OP-TYPE", [SPE_EVENTS] = "EVENTS", [SPE_SOURCE] = "DATA-SOURCE",
};

struct spe_pkt {
	enum spe_type type;
	unsigned int index;
	uint64_t payload;
};

/* the payload after @hdr_len header bytes: 1 << sz bytes (sz: bits 5:4) */
static int spe_payload(const unsigned char *buf, size_t len, size_t hdr_len, struct spe_pkt *p)
{
	size_t n = (size_t)1 << ((buf[hdr_len - 1] >> 4) & 3);

	if (len < hdr_len + n)
		return -1;
	p->payload = 0;
	for (size_t i = n; i; i--)
		p->payload = p->payload << 8 | buf[hdr_len + i - 1];
	return (int)(hdr_len + n);
}

/* perf's arm_spe_do_get_packet(): the length, or <= 0 for a bad packet */
static int spe_do_packet(const unsigned char *buf, size_t len, struct spe_pkt *p)
{
	unsigned int hdr = buf[0];
	size_t hdr_len = 1;
	int n;

	memset(p, 0, sizeof(*p));
	if (hdr == 0x00) {
		p->type = SPE_PAD;
		return 1;
	}
	if (hdr == 0x01) {
		p->type = SPE_END;
		return 1;
	}
	if (hdr == 0x71) {
		p->type = SPE_TS;
		return spe_payload(buf, len, 1, p);
	}
	if ((hdr & 0xcf) == 0x42 || (hdr & 0xcf) == 0x43) {
		p->type = (hdr & 0xcf) == 0x42 ? SPE_EVENTS : SPE_SOURCE;
		p->index = 1u << ((hdr >> 4) & 3);	/* the payload's size */
		return spe_payload(buf, len, 1, p);
	}
	if ((hdr & 0xfc) == 0x64) {
		p->type = SPE_CONTEXT;
		p->index = hdr & 3;
		return spe_payload(buf, len, 1, p);
	}
	if ((hdr & 0xfc) == 0x48) {
		p->type = SPE_OP;
		p->index = hdr & 3;
		return spe_payload(buf, len, 1, p);
	}
	if ((hdr & 0xfc) == 0x20) {		/* extended header */
		if (len == 1)
			return -1;
		hdr_len = 2;
		hdr = buf[1];
		if (hdr == 0x00) {		/* alignment: to the buffer's address */
			unsigned int align = 1u << ((buf[0] & 0xf) + 1);

			if (len < align)
				return -1;
			p->type = SPE_PAD;
			n = (int)(align - ((uintptr_t)buf & (align - 1)));
			return n;
		}
	}
	if ((hdr & 0xf8) == 0xb0 || (hdr & 0xf8) == 0x98) {
		p->type = (hdr & 0xf8) == 0xb0 ? SPE_ADDR : SPE_LAT;
		p->index = hdr_len == 2 ? (buf[0] & 3) << 3 | (hdr & 7) : hdr & 7;
		return spe_payload(buf, len, hdr_len, p);
	}
	return -1;
}

/* perf's arm_spe_get_packet(): zero bytes after a PAD join it, up to 16 */
static int spe_packet(const unsigned char *buf, size_t len, struct spe_pkt *p)
{
	int n = spe_do_packet(buf, len, p);

	while (n > 0 && p->type == SPE_PAD && n < 16 && (size_t)n < len && !buf[n])
		n++;
	return n;
}

struct out {
	char *p;
	size_t left;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->p, o->left, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < o->left) {
		o->p += n;
		o->left -= n;
	}
}

static void spe_events(struct out *o, const struct spe_pkt *p)
{
	static const struct { int bit; const char *name; } ev[] = {
		{ 0, " EXCEPTION-GEN" }, { 1, " RETIRED" }, { 2, " L1D-ACCESS" },
		{ 3, " L1D-REFILL" }, { 4, " TLB-ACCESS" }, { 5, " TLB-REFILL" },
		{ 6, " NOT-TAKEN" }, { 7, " MISPRED" }, { 8, " LLC-ACCESS" },
		{ 9, " LLC-REFILL" }, { 10, " REMOTE-ACCESS" }, { 11, " ALIGNMENT" },
		{ 17, " SVE-PARTIAL-PRED" }, { 18, " SVE-EMPTY-PRED" },
	};

	put(o, "EV");
	for (size_t i = 0; i < ARRAY_SIZE(ev); i++)
		if (p->payload & (1ULL << ev[i].bit))
			put(o, "%s", ev[i].name);
}

/* false for an index perf does not know: the raw words are printed instead */
static bool spe_op(struct out *o, const struct spe_pkt *p)
{
	uint64_t v = p->payload;

	switch (p->index) {
	case 0:		/* other */
		if ((v & 0x89) == 0x8) {
			put(o, "SVE-OTHER EVLEN %d", 32 << ((v >> 4) & 7));
			if (v & 2)
				put(o, " FP");
			if (v & 4)
				put(o, " PRED");
		} else {
			put(o, "OTHER %s", v & 1 ? "COND-SELECT" : "INSN-OTHER");
		}
		return true;
	case 1:		/* load, store, atomic */
		put(o, "%s", v & 1 ? "ST" : "LD");
		if ((v & 0xe2) == 0x2) {
			if (v & 4)
				put(o, " AT");
			if (v & 8)
				put(o, " EXCL");
			if (v & 0x10)
				put(o, " AR");
		}
		switch (v & 0xfe) {
		case 0x4:	put(o, " SIMD-FP"); break;
		case 0x0:	put(o, " GP-REG"); break;
		case 0x10:	put(o, " UNSPEC-REG"); break;
		case 0x30:	put(o, " NV-SYSREG"); break;
		default:	break;
		}
		if ((v & 0xa) == 0x8) {
			put(o, " EVLEN %d", 32 << ((v >> 4) & 7));
			if (v & 4)
				put(o, " PRED");
			if (v & 0x80)
				put(o, " SG");
		}
		return true;
	case 2:		/* branch, exception return */
		put(o, "B");
		if (v & 1)
			put(o, " COND");
		if ((v & 0xfe) == 0x2)
			put(o, " IND");
		return true;
	default:
		return false;
	}
}

static bool spe_addr(struct out *o, const struct spe_pkt *p)
{
	static const char *const idx_name[] = { "PC", "TGT" };
	uint64_t v = p->payload, addr = v & ((1ULL << 56) - 1);

	switch (p->index) {
	case 0:
	case 1:
		put(o, "%s 0x%" PRIx64 " el%d ns=%d", idx_name[p->index], addr,
		    (int)(v >> 61 & 3), (int)(v >> 63));
		return true;
	case 2:
		put(o, "VA 0x%" PRIx64, v);
		return true;
	case 3:
		put(o, "PA 0x%" PRIx64 " ns=%d ch=%d pat=%x", addr, (int)(v >> 63),
		    (int)(v >> 62 & 1), (unsigned int)(v >> 56 & 0xf));
		return true;
	default:
		return false;
	}
}

/* perf's arm_spe_pkt_desc() */
static void spe_desc(char *buf, size_t len, const struct spe_pkt *p)
{
	struct out o = { buf, len };
	bool ok = true;

	buf[0] = '\0';
	switch (p->type) {
	case SPE_PAD:
	case SPE_END:
		put(&o, "%s", spe_names[p->type]);
		break;
	case SPE_EVENTS:
		spe_events(&o, p);
		break;
	case SPE_OP:
		ok = spe_op(&o, p);
		break;
	case SPE_SOURCE:
	case SPE_TS:
		put(&o, "%s %lld", spe_names[p->type], (long long)p->payload);
		break;
	case SPE_ADDR:
		ok = spe_addr(&o, p);
		break;
	case SPE_CONTEXT:
		put(&o, "%s 0x%lx el%d", spe_names[p->type], (unsigned long)p->payload,
		    p->index + 1);
		break;
	case SPE_LAT:
		put(&o, "%s %d ", spe_names[p->type], (unsigned short)p->payload);
		if (p->index < 3)
			put(&o, "%s", p->index == 0 ? "TOT" : p->index == 1 ? "ISSUE" : "XLAT");
		break;
	default:
		ok = false;
		break;
	}
	if (!ok)
		snprintf(buf, len, "%s 0x%llx (%d)", spe_names[p->type],
			 (unsigned long long)p->payload, p->index);
}

int pulse_dump__spe(FILE *out, const unsigned char *buf, size_t len)
{
	char desc[256];

	fprintf(out, ".\n. ... ARM SPE data: size %#zx bytes\n", len);
	for (size_t pos = 0; pos < len;) {
		struct spe_pkt p;
		int n = spe_packet(buf + pos, len - pos, &p), shown = n > 0 ? n : 1, i;

		fprintf(out, ".  %08zx: ", pos);
		for (i = 0; i < shown; i++)
			fprintf(out, " %02x", buf[pos + i]);
		for (; i < 16; i++)
			fputs("   ", out);
		if (n > 0) {
			spe_desc(desc, sizeof(desc), &p);
			fprintf(out, " %s\n", desc);
		} else {
			fputs(" Bad packet!\n", out);
		}
		pos += shown;
	}
	return ferror(out) ? -EIO : 0;
}
