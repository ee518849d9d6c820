// SPDX-License-Identifier: GPL-2.0
/*
 * Intel PT packets as perf report -D prints them (include/pulse/pt-dump.h):
 * libipt splits the trace into packets; each is then described in perf
 * 6.1's words, its fields read from the packet's own bytes the way perf's
 * packet decoder reads them, so that the numbers are perf's even where
 * libipt normalises them (a PIP's CR3, a VMCS base, a CBR's second byte).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <intel-pt.h>
#include <pulse/pt-dump.h>

/* perf's packet context: a BBP makes the bytes ...100b after it BIPs */
enum blk_ctx { NO_CTX, BLK_4_CTX, BLK_8_CTX };

/* one packet as perf describes it */
struct pkt {
	int len;			/* > 0 */
	char desc[96];
	enum blk_ctx ctx;		/* the context after this packet */
	bool keep_ctx;			/* PAD, TSC, ... leave the context alone */
};

/* little-endian @n bytes at @p */
static uint64_t le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* perf's TNT words: the bits below the stop bit, highest first */
static void tnt_desc(struct pkt *k, uint64_t bits, int count)
{
	int n = snprintf(k->desc, sizeof(k->desc), "TNT ");

	for (int i = count - 1; i >= 0; i--)
		k->desc[n++] = bits >> i & 1 ? 'T' : 'N';
	snprintf(k->desc + n, sizeof(k->desc) - n, " (%d)", count);
}

/*
 * The packets libipt 2.0 does not know, handed to its unknown-packet
 * callback: BBP, BEP (block items), CFE, EVD (event trace). @context is the
 * struct pkt being filled. Anything else is refused as perf refuses it.
 */
static int unknown_packet(struct pt_packet_unknown *unknown, const struct pt_config *config,
			  const uint8_t *pos, void *context)
{
	struct pkt *k = context;
	size_t left = config->end - pos;
	uint64_t v;

	unknown->priv = k;
	if (left < 2 || pos[0] != 0x02)
		return -pte_bad_opc;
	switch (pos[1]) {
	case 0x63:	/* BBP */
		if (left < 3)
			return -pte_eos;
		snprintf(k->desc, sizeof(k->desc), "BBP SZ %s-byte Type 0x%x",
			 pos[2] >> 7 ? "4" : "8", pos[2] & 0x1f);
		k->ctx = pos[2] >> 7 ? BLK_4_CTX : BLK_8_CTX;
		return 3;
	case 0x33:	/* BEP */
	case 0xb3:
		snprintf(k->desc, sizeof(k->desc), "BEP IP:%d", pos[1] >> 7);
		return 2;
	case 0x13:	/* CFE */
		if (left < 4)
			return -pte_eos;
		snprintf(k->desc, sizeof(k->desc), "CFE IP:%d Type 0x%02x Vector 0x%x",
			 pos[2] >> 7, pos[2] & 0x1f, pos[3]);
		return 4;
	case 0x53:	/* EVD */
		if (left < 11)
			return -pte_eos;
		v = le(pos + 3, 8);
		snprintf(k->desc, sizeof(k->desc), "EVD Type 0x%02x Payload 0x%" PRIx64,
			 pos[2] & 0x3f, v);
		return 11;
	default:
		return -pte_bad_opc;
	}
}

static const char *ip_name(enum pt_packet_type type)
{
	switch (type) {
	case ppt_tip:		return "TIP";
	case ppt_tip_pge:	return "TIP.PGE";
	case ppt_tip_pgd:	return "TIP.PGD";
	default:		return "FUP";
	}
}

/*
 * Describe the packet libipt found at @p; false where perf refuses what
 * libipt accepts (a MODE with both low bits set).
 */
static bool describe(struct pkt *k, const struct pt_packet *pk, const uint8_t *p)
{
	char *d = k->desc;
	size_t n = sizeof(k->desc);
	uint64_t v;

	k->len = pk->size;
	switch (pk->type) {
	case ppt_pad:
		snprintf(d, n, "PAD");
		k->keep_ctx = true;
		break;
	case ppt_psb:
		snprintf(d, n, "PSB");
		break;
	case ppt_psbend:
		snprintf(d, n, "PSBEND");
		break;
	case ppt_stop:
		snprintf(d, n, "TraceSTOP");
		break;
	case ppt_ovf:
		snprintf(d, n, "OVF");
		break;
	case ppt_tnt_8:
	case ppt_tnt_64:
		tnt_desc(k, pk->payload.tnt.payload, pk->payload.tnt.bit_size);
		break;
	case ppt_tip:
	case ppt_tip_pge:
	case ppt_tip_pgd:
	case ppt_fup:
		if (pk->payload.ip.ipc == pt_ipc_suppressed)
			snprintf(d, n, "%s no ip", ip_name(pk->type));
		else
			snprintf(d, n, "%s 0x%" PRIx64, ip_name(pk->type), pk->payload.ip.ip);
		k->keep_ctx = pk->type == ppt_fup;
		break;
	case ppt_mode:
		if ((p[1] & 3) == 3)
			return false;
		if (pk->payload.mode.leaf == pt_mol_exec)
			snprintf(d, n, "MODE.Exec IF:%d %d", !!(p[1] & 4),
				 (p[1] & 3) == 1 ? 64 : (p[1] & 3) == 2 ? 32 : 16);
		else
			snprintf(d, n, "MODE.TSX TXAbort:%u InTX:%u", p[1] >> 1 & 1, p[1] & 1);
		break;
	case ppt_pip:
		v = le(p + 2, 6);
		snprintf(d, n, "PIP 0x%" PRIx64 " (NR=%d)", (uint64_t)(v & ~1ULL) >> 1, (int)(v & 1));
		break;
	case ppt_tsc:
		snprintf(d, n, "TSC 0x%" PRIx64, le(p + 1, 7));
		k->keep_ctx = true;
		break;
	case ppt_cbr:
		snprintf(d, n, "CBR 0x%" PRIx64, le(p + 2, 2));
		k->keep_ctx = true;
		break;
	case ppt_tma:
		snprintf(d, n, "TMA CTC 0x%x FC 0x%x", p[2] | p[3] << 8, p[5] | (p[6] & 1) << 8);
		k->keep_ctx = true;
		break;
	case ppt_mtc:
		snprintf(d, n, "MTC 0x%x", p[1]);
		k->keep_ctx = true;
		break;
	case ppt_cyc:
		snprintf(d, n, "CYC 0x%" PRIx64, pk->payload.cyc.value);
		k->keep_ctx = true;
		break;
	case ppt_vmcs:
		snprintf(d, n, "VMCS 0x%" PRIx64, le(p + 2, 5));
		break;
	case ppt_mnt:
		snprintf(d, n, "MNT 0x%" PRIx64, le(p + 3, 8));
		k->keep_ctx = true;
		break;
	case ppt_exstop:
		snprintf(d, n, "EXSTOP IP:%d", pk->payload.exstop.ip);
		k->keep_ctx = true;
		break;
	case ppt_mwait:
		v = le(p + 2, 8);
		snprintf(d, n, "MWAIT 0x%" PRIx64 " Hints 0x%x Extensions 0x%x", v,
			 (unsigned int)(v & 0xff), (unsigned int)(v >> 32 & 3));
		break;
	case ppt_pwre:
		v = le(p + 2, 2);
		snprintf(d, n, "PWRE 0x%" PRIx64 " HW:%u CState:%u Sub-CState:%u", v,
			 !!(v & 0x80), (unsigned int)(v >> 12 & 0xf), (unsigned int)(v >> 8 & 0xf));
		k->keep_ctx = true;
		break;
	case ppt_pwrx:
		v = le(p + 2, 5);
		snprintf(d, n, "PWRX 0x%" PRIx64 " Last CState:%u Deepest CState:%u Wake Reason 0x%x",
			 v, (unsigned int)(v >> 4 & 0xf), (unsigned int)(v & 0xf),
			 (unsigned int)(v >> 8 & 0xf));
		k->keep_ctx = true;
		break;
	case ppt_ptw:
		snprintf(d, n, "PTWRITE 0x%" PRIx64 " IP:%d", pk->payload.ptw.payload,
			 pk->payload.ptw.ip);
		break;
	case ppt_unknown:
		/* described by unknown_packet(); a BEP ends the block */
		break;
	default:
		return false;
	}
	return true;
}

/*
 * What perf reads where libipt refuses: a TMA with reserved bits set, a
 * long TNT with no stop bit (0 branches), a CYC of 10 bytes; BIPs after a
 * BBP. Returns false for a bad packet.
 */
static bool perf_only(struct pkt *k, const uint8_t *p, size_t left, enum blk_ctx ctx)
{
	if (ctx != NO_CTX && (p[0] & 7) == 4) {
		int sz = ctx == BLK_4_CTX ? 4 : 8;

		if (left < (size_t)sz + 1)
			return false;
		snprintf(k->desc, sizeof(k->desc), "BIP ID 0x%02x Value 0x%" PRIx64, p[0] >> 3,
			 le(p + 1, sz));
		k->len = sz + 1;
		k->keep_ctx = true;
		return true;
	}
	if (left >= 7 && p[0] == 0x02 && p[1] == 0x73) {
		snprintf(k->desc, sizeof(k->desc), "TMA CTC 0x%x FC 0x%x", p[2] | p[3] << 8,
			 p[5] | (p[6] & 1) << 8);
		k->len = 7;
		k->keep_ctx = true;
		return true;
	}
	if (left >= 8 && p[0] == 0x02 && p[1] == 0xa3 && !le(p + 2, 6)) {
		tnt_desc(k, 0, 0);
		k->len = 8;
		return true;
	}
	if ((p[0] & 3) == 3) {		/* CYC: perf reads up to 9 more bytes */
		uint64_t v = p[0] >> 3;
		size_t i = 1;

		for (unsigned int b = p[0] >> 2, sh = 5; b & 1; sh += 7) {
			if (i > 9 || i >= left)
				return false;
			b = p[i++];
			v |= sh < 64 ? (uint64_t)(b >> 1) << sh : 0;
		}
		snprintf(k->desc, sizeof(k->desc), "CYC 0x%" PRIx64, v);
		k->len = (int)i;
		k->keep_ctx = true;
		return true;
	}
	return false;
}

/* One packet at @off: its length and words, or 0 for perf's bad packet. */
static int next_packet(struct pt_packet_decoder *dec, const uint8_t *buf, size_t len, size_t off,
		       struct pkt *k, enum blk_ctx ctx)
{
	struct pt_packet pk;
	int err;

	memset(k, 0, sizeof(*k));
	k->ctx = NO_CTX;
	if (ctx != NO_CTX && (buf[off] & 7) == 4)
		return perf_only(k, buf + off, len - off, ctx) ? k->len : 0;
	err = pt_pkt_sync_set(dec, off);
	if (!err)
		err = pt_pkt_next(dec, &pk, sizeof(pk));
	if (err >= 0 && describe(k, &pk, buf + off))
		return k->len;
	memset(k, 0, sizeof(*k));
	return perf_only(k, buf + off, len - off, NO_CTX) ? k->len : 0;
}

int pulse_pt_dump__fprintf(FILE *out, const void *data, size_t len)
{
	const uint8_t *buf = data;
	struct pt_packet_decoder *dec = NULL;
	struct pt_config cfg;
	enum blk_ctx ctx = NO_CTX;
	struct pkt k;
	size_t pos = 0;

	fprintf(out, ".\n. ... Intel Processor Trace data: size %zu bytes\n", len);
	if (len) {
		pt_config_init(&cfg);
		cfg.begin = (uint8_t *)buf;
		cfg.end = (uint8_t *)buf + len;
		cfg.decode.callback = unknown_packet;
		cfg.decode.context = &k;
		dec = pt_pkt_alloc_decoder(&cfg);
		if (!dec)
			return -ENOMEM;
	}
	while (pos < len) {
		int n = next_packet(dec, buf, len, pos, &k, ctx);
		int shown = n > 0 ? n : 1, i;

		/* perf's intel_pt_get_packet(): zero bytes after a packet join it */
		while (n > 0 && shown < 8 && pos + shown < len && !buf[pos + shown])
			shown++;
		fprintf(out, ".  %08zx: ", pos);
		for (i = 0; i < shown; i++)
			fprintf(out, " %02x", buf[pos + i]);
		for (; i < 16; i++)
			fputs("   ", out);
		if (n > 0) {
			fprintf(out, " %s\n", k.desc);
			if (!k.keep_ctx)
				ctx = k.ctx;
		} else {
			fputs(" Bad packet!\n", out);
		}
		pos += shown;
	}
	pt_pkt_free_decoder(dec);
	return ferror(out) ? -EIO : 0;
}
