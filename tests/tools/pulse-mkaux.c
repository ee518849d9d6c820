// SPDX-License-Identifier: GPL-2.0
/*
 * pulse-mkaux: writes a small perf.data with AUX-area records, made here
 * from nothing, for the tests of report -D and --stats on such files (no
 * machine here has Intel PT):
 *
 *   pulse-mkaux [options] OUT
 *     -p          pipe mode (a pipe header and a HEADER_ATTR) instead of a file
 *     -t TYPE     auxtrace type of the AUXTRACE_INFO (1 intel_pt, 2 intel_bts,
 *                 3 cs_etm, 4 arm_spe, ...; default 1)
 *     -w WORDS    private words of the AUXTRACE_INFO (default 17, perf 4.9 and
 *                 up; 10, 15, 16 are older perf's sizes); the words count
 *                 1, 2, 3... except intel_pt's, which are plausible values
 *     -f FILTER   intel_pt: the address filter string after the words
 *     -W A,B,...  the private words themselves (numbers, 0x for hex), not counted
 *     -L LEN      intel_pt: the filter string length word says LEN (a bad one)
 *     -e VALUE    intel_pt: a Cap Event Trace word after the filter (perf 5.19+)
 *     -x PAYLOAD  the AUXTRACE payloads: "all" (default: every packet libipt's
 *                 encoder makes, then the byte patterns only perf's decoder
 *                 knows, bad bytes and a packet cut by the end), "none" (no
 *                 AUXTRACE), "random:SEED:LEN" (LEN bytes of noise),
 *                 "opcodes:SEED:LEN" (LEN bytes of packet openings),
 *                 "spe:SEED:LEN" (LEN bytes of ARM SPE packets), "past"
 *                 (an AUXTRACE whose size runs past the end of the file)
 *     -E          AUXTRACE_ERROR records (formats 0, 1 and 2, two types)
 *     -F          pipe mode: a HEADER_FEATURE (hostname) before the HEADER_ATTR
 *     -a          AUX records with each flag (TRUNCATED, OVERWRITE, PARTIAL,
 *                 COLLISION and some together), ITRACE_START, AUX_OUTPUT_HW_ID
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <intel-pt.h>
#include <pulse/perf-abi.h>

#define ATTR_SIZE 128		/* PERF_ATTR_SIZE_VER7, what perf 6.1 writes */

struct buf {
	unsigned char *p;
	size_t len, cap;
};

static void die(const char *what)
{
	fprintf(stderr, "pulse-mkaux: %s\n", what);
	exit(1);
}

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			die("out of memory");
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put64(struct buf *b, __u64 v)
{
	put(b, &v, 8);
}

static void put32(struct buf *b, __u32 v)
{
	put(b, &v, 4);
}

static void put_hdr(struct buf *b, __u32 type, __u16 misc, __u16 size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = size };

	put(b, &h, sizeof(h));
}

/* sample_id_all's trailer: TID, TIME, CPU */
static void put_id(struct buf *b, __u32 pid, __u64 time, __u32 cpu)
{
	put32(b, pid);
	put32(b, pid);
	put64(b, time);
	put32(b, cpu);
	put32(b, 0);
}

static void attr_bytes(unsigned char *out)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.size = ATTR_SIZE;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;
	a.sample_id_all = 1;
	a.disabled = 1;
	memset(out, 0, ATTR_SIZE);
	memcpy(out, &a, sizeof(a) < ATTR_SIZE ? sizeof(a) : ATTR_SIZE);
}

/* ---- payloads ------------------------------------------------------------ */

static void enc(struct pt_encoder *e, const struct pt_packet *pk)
{
	int err = pt_enc_next(e, pk);

	if (err < 0) {
		fprintf(stderr, "pulse-mkaux: pt_enc_next(type %d): %s\n", pk->type,
			pt_errstr(pt_errcode(err)));
		exit(1);
	}
}

static struct pt_packet *pk_init(struct pt_packet *pk, enum pt_packet_type type)
{
	memset(pk, 0, sizeof(*pk));
	pk->type = type;
	return pk;
}

/* every packet libipt's encoder makes, in most of their forms */
static size_t encode_all(unsigned char *out, size_t cap)
{
	static const enum pt_packet_type ips[] = { ppt_tip, ppt_tip_pge, ppt_tip_pgd, ppt_fup };
	static const enum pt_ip_compression ipcs[] = {
		pt_ipc_suppressed, pt_ipc_update_16, pt_ipc_update_32, pt_ipc_update_48,
		pt_ipc_sext_48, pt_ipc_full,
	};
	struct pt_config cfg;
	struct pt_encoder *e;
	struct pt_packet pk;
	uint64_t off;

	pt_config_init(&cfg);
	cfg.begin = out;
	cfg.end = out + cap;
	e = pt_alloc_encoder(&cfg);
	if (!e)
		die("pt_alloc_encoder failed");
	enc(e, pk_init(&pk, ppt_psb));
	enc(e, pk_init(&pk, ppt_pad));
	enc(e, pk_init(&pk, ppt_pad));
	pk_init(&pk, ppt_mode);
	pk.payload.mode.leaf = pt_mol_tsx;
	pk.payload.mode.bits.tsx.intx = 1;
	enc(e, &pk);
	pk_init(&pk, ppt_mode);
	pk.payload.mode.leaf = pt_mol_exec;
	pk.payload.mode.bits.exec.csl = 1;
	enc(e, &pk);
	pk_init(&pk, ppt_pip);
	pk.payload.pip.cr3 = 0x3fd43400;
	pk.payload.pip.nr = 1;
	enc(e, &pk);
	pk_init(&pk, ppt_tsc);
	pk.payload.tsc.tsc = 0xbc4cd2cfe8ULL;
	enc(e, &pk);
	pk_init(&pk, ppt_tma);
	pk.payload.tma.ctc = 0xb23c;
	pk.payload.tma.fc = 0x130;
	enc(e, &pk);
	pk_init(&pk, ppt_cbr);
	pk.payload.cbr.ratio = 0x1d;
	enc(e, &pk);
	pk_init(&pk, ppt_vmcs);
	pk.payload.vmcs.base = 0x12345678000ULL;
	enc(e, &pk);
	enc(e, pk_init(&pk, ppt_psbend));
	for (size_t i = 0; i < sizeof(ips) / sizeof(ips[0]); i++) {
		for (size_t j = 0; j < sizeof(ipcs) / sizeof(ipcs[0]); j++) {
			pk_init(&pk, ips[i]);
			pk.payload.ip.ipc = ipcs[j];
			pk.payload.ip.ip = 0xffffb960d302ULL + i * 0x111 + j;
			enc(e, &pk);
		}
	}
	for (int bits = 1; bits <= 6; bits++) {
		pk_init(&pk, ppt_tnt_8);
		pk.payload.tnt.bit_size = bits;
		pk.payload.tnt.payload = 0x2d >> (6 - bits);
		enc(e, &pk);
	}
	pk_init(&pk, ppt_tnt_64);
	pk.payload.tnt.bit_size = 47;
	pk.payload.tnt.payload = 0x5a5a5a5a5a5aULL & ((1ULL << 47) - 1);
	enc(e, &pk);
	pk_init(&pk, ppt_tnt_64);
	pk.payload.tnt.bit_size = 9;
	pk.payload.tnt.payload = 0x155;
	enc(e, &pk);
	pk_init(&pk, ppt_mtc);
	pk.payload.mtc.ctc = 0x48;
	enc(e, &pk);
	for (uint64_t v = 0; v < (1ULL << 40); v = v * 37 + 11) {
		pk_init(&pk, ppt_cyc);
		pk.payload.cyc.value = v;
		enc(e, &pk);
	}
	enc(e, pk_init(&pk, ppt_stop));
	enc(e, pk_init(&pk, ppt_ovf));
	pk_init(&pk, ppt_mnt);
	pk.payload.mnt.payload = 0x0123456789abcdefULL;
	enc(e, &pk);
	pk_init(&pk, ppt_exstop);
	enc(e, &pk);
	pk.payload.exstop.ip = 1;
	enc(e, &pk);
	pk_init(&pk, ppt_mwait);
	pk.payload.mwait.hints = 0x21;
	pk.payload.mwait.ext = 1;
	enc(e, &pk);
	pk_init(&pk, ppt_pwre);
	pk.payload.pwre.state = 3;
	pk.payload.pwre.sub_state = 2;
	pk.payload.pwre.hw = 1;
	enc(e, &pk);
	pk_init(&pk, ppt_pwrx);
	pk.payload.pwrx.last = 6;
	pk.payload.pwrx.deepest = 7;
	pk.payload.pwrx.interrupt = 1;
	enc(e, &pk);
	for (int plc = 0; plc < 2; plc++) {
		pk_init(&pk, ppt_ptw);
		pk.payload.ptw.plc = plc;
		pk.payload.ptw.ip = plc;
		pk.payload.ptw.payload = plc ? 0x1122334455667788ULL : 0xdeadbeef;
		enc(e, &pk);
	}
	if (pt_enc_get_offset(e, &off) < 0)
		die("pt_enc_get_offset failed");
	pt_free_encoder(e);
	return off;
}

/* byte patterns libipt's encoder cannot make, perf's decoder reads (or refuses) */
static const unsigned char raw_tail[] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* PAD run */
	0x06, 0x00, 0x00,			/* TNT, zeros join it */
	0x99, 0x05,				/* MODE.Exec IF:1 64 */
	0x99, 0x03,				/* MODE.Exec, bad */
	0x99, 0x23,				/* MODE.TSX, bad */
	0x99, 0x40,				/* MODE leaf 2, bad */
	0x02, 0x73, 0x01, 0x02, 0x03, 0x04, 0xff,	/* TMA with reserved bits */
	0x02, 0xa3, 0, 0, 0, 0, 0, 0,		/* long TNT with no stop bit */
	0x07, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x02,	/* CYC, 10 bytes */
	0x07, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81,	/* CYC, too long */
	0x02, 0x63, 0x83,			/* BBP 4-byte */
	0x0c, 0x01, 0x02, 0x03, 0x04,		/* BIP */
	0x14, 0x05, 0x06, 0x07, 0x08,		/* BIP */
	0x02, 0xb3,				/* BEP IP:1 */
	0x0c,					/* TNT again */
	0x02, 0x63, 0x05,			/* BBP 8-byte */
	0x1c, 1, 2, 3, 4, 5, 6, 7, 8,		/* BIP */
	0x02, 0x33,				/* BEP IP:0 */
	0x02, 0x13, 0x81, 0x03,			/* CFE IP:1 */
	0x02, 0x13, 0x1f, 0xff,			/* CFE IP:0 */
	0x02, 0x53, 0x09, 1, 2, 3, 4, 5, 6, 7, 8,	/* EVD */
	0x02, 0xc3, 0x77, 0x01,			/* 3-byte header, not MNT: bad */
	0x02, 0x99,				/* unknown ext: bad */
	0x02, 0x82, 0x02, 0x82, 0x02, 0x83,	/* PSB broken */
	0x02, 0x52, 0x01,			/* PTWRITE plc 2: bad */
	0xad, 0x01, 0x02,			/* TIP ipc 5: bad */
	0x02, 0x53, 0x01, 0x02,			/* EVD cut by the end */
};

static size_t payload_all(unsigned char **out)
{
	size_t cap = 4096, n;

	*out = calloc(1, cap + sizeof(raw_tail) + 8);
	if (!*out)
		die("out of memory");
	n = encode_all(*out, cap);
	memcpy(*out + n, raw_tail, sizeof(raw_tail));
	/* perf pads AUX data to 8 bytes: the tail's last packet stays cut */
	return (n + sizeof(raw_tail) + 7) & ~(size_t)7;
}

/*
 * "SEED:LEN" bytes of packet openings: extended opcodes (0x02 and a second
 * byte perf or libipt knows), one-byte headers, PSB pieces, noise
 */
static size_t opcode_noise(unsigned char **out, const char *arg)
{
	static const unsigned char ext[] = {
		0xa3, 0x43, 0x83, 0x03, 0xc8, 0xf3, 0x82, 0x23, 0x73, 0xc3, 0x62, 0xe2, 0xc2,
		0x22, 0xa2, 0x63, 0x33, 0xb3, 0x13, 0x53, 0x12, 0x32, 0x52, 0x72, 0x92, 0xb2,
		0xd2, 0xf2, 0x88,
	};
	static const unsigned char one[] = {
		0x00, 0x99, 0x19, 0x59, 0x0d, 0x2d, 0x4d, 0x6d, 0x8d, 0xcd, 0x11, 0x31, 0x51,
		0x71, 0xd1, 0x01, 0x21, 0x41, 0x61, 0xc1, 0x1d, 0x3d, 0x5d, 0x7d, 0xdd, 0x03,
		0x07, 0x0b, 0x06, 0x04, 0x0c, 0x14, 0x1c, 0x24,
	};
	unsigned int seed = strtoul(arg, NULL, 0);
	const char *c = strchr(arg, ':');
	size_t len = c ? strtoul(c + 1, NULL, 0) : 4096, n = 0;
	unsigned char *b = malloc(len + 16);

	if (!b)
		die("out of memory");
	srand(seed);
	while (n < len) {
		int r = rand() % 100;

		if (r < 35) {
			b[n++] = 0x02;
			b[n++] = ext[rand() % sizeof(ext)];
		} else if (r < 70) {
			b[n++] = one[rand() % sizeof(one)];
		} else if (r < 80) {
			for (int k = rand() % 8 + 1; k; k--) {
				b[n++] = 0x02;
				b[n++] = 0x82;
			}
		} else {
			b[n++] = rand() >> 8;
		}
	}
	*out = b;
	return len;
}

/* "SEED:LEN" bytes of ARM SPE packet headers (short and extended) and payloads */
static size_t spe_noise(unsigned char **out, const char *arg)
{
	static const unsigned char hdr[] = {
		0x00, 0x01, 0x71, 0x42, 0x52, 0x62, 0x43, 0x53, 0x64, 0x65, 0x66, 0x67, 0x48,
		0x49, 0x4a, 0x4b, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0x98, 0x99, 0x9a, 0x9b, 0xa8,
	};
	unsigned int seed = strtoul(arg, NULL, 0);
	const char *c = strchr(arg, ':');
	size_t len = c ? strtoul(c + 1, NULL, 0) : 4096, n = 0;
	unsigned char *b = malloc(len + 32);

	if (!b)
		die("out of memory");
	srand(seed);
	while (n < len) {
		int r = rand() % 100;
		unsigned char h = hdr[rand() % sizeof(hdr)];

		if (r < 10) {			/* extended header: address, counter, alignment */
			b[n++] = 0x20 | (rand() % 4);
			b[n++] = rand() % 3 == 0 ? 0x00 : (rand() & 1 ? 0xb0 : 0x98) | (rand() % 8)
				| (rand() % 4) << 4;
		} else if (r < 90) {
			b[n++] = (h & 0xcf) | (h == 0x00 || h == 0x01 || h == 0x71 ? 0 :
					       (rand() % 4) << 4);
		} else {
			b[n++] = rand() >> 8;
		}
		for (int k = rand() % 9; k && n < len + 16; k--)
			b[n++] = rand() % 3 ? rand() >> 8 : 0;
	}
	*out = b;
	return len;
}

/* ---- the file ------------------------------------------------------------ */

static long filter_len_word = -1;
static const char *words_given;

static void put_info(struct buf *b, __u32 type, int words, const char *filter, long cap_et)
{
	static const __u64 pt_words[] = {
		8, 31, 1789569706, 18446744041015200657ULL, 1, 0x400, 0x800, 0,
		0, 1, 0x200, 0x3c000, 100, 2, 0x2, 12, 0,
	};
	size_t flen = filter ? strlen(filter) : 0, fpad = filter ? (flen + 1 + 7) & ~7UL : 0;
	size_t size = 16 + 8 * (size_t)words + fpad + (cap_et >= 0 ? 8 : 0);
	unsigned char zero[8] = { 0 };

	put_hdr(b, PERF_RECORD_AUXTRACE_INFO, 0, size);
	put32(b, type);
	put32(b, 0);
	const char *w = words_given;

	for (int i = 0; i < words; i++) {
		__u64 v = type == 1 && i < 17 ? pt_words[i] : (__u64)i + 1;

		if (w) {
			char *end;

			v = strtoull(w, &end, 0);
			w = *end == ',' ? end + 1 : NULL;
			put64(b, v);
			continue;
		}

		if (type == 1 && i == 16)
			v = filter_len_word >= 0 ? (__u64)filter_len_word : flen;
		put64(b, v);
	}
	if (filter) {
		put(b, filter, flen);
		put(b, zero, fpad - flen);
	}
	if (cap_et >= 0)
		put64(b, cap_et);
}

static void put_auxtrace(struct buf *b, const void *p, size_t n, __u64 claimed, __u32 idx,
			 __u32 cpu)
{
	put_hdr(b, PERF_RECORD_AUXTRACE, 0, 48);
	put64(b, claimed);
	put64(b, 0);
	put64(b, 0xbc4cd519a6ULL + idx);
	put32(b, idx);
	put32(b, 3174);
	put32(b, cpu);
	put32(b, 0);
	put(b, p, n);
}

/*
 * AUXTRACE_ERROR: type, code, cpu, pid, tid, fmt, ip, time (fmt >= 1),
 * msg[64], machine_pid and vcpu (fmt >= 2)
 */
static void put_errors(struct buf *b)
{
	static const struct { __u32 type, code, fmt; const char *msg; } e[] = {
		{ 1, 6, 0, "Trace doesn't match instruction" },
		{ 1, 7, 1, "Overflow packet" },
		{ 1, 9, 2, "Lost trace data" },
		{ 2, 1, 1, "not an instruction trace error" },
	};

	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++) {
		char msg[64] = { 0 };
		__u16 size = 8 + 32 + 64 + (e[i].fmt >= 1 ? 8 : 0) + (e[i].fmt >= 2 ? 8 : 0);

		strncpy(msg, e[i].msg, sizeof(msg) - 1);
		put_hdr(b, PERF_RECORD_AUXTRACE_ERROR, 0, size);
		put32(b, e[i].type);
		put32(b, e[i].code);
		put32(b, (__u32)i);		/* cpu */
		put32(b, 3174);
		put32(b, 3175);
		put32(b, e[i].fmt);
		put64(b, 0xffffb960d300ULL + i);
		if (e[i].fmt >= 1)
			put64(b, 1234567890123ULL + i);
		put(b, msg, sizeof(msg));
		if (e[i].fmt >= 2) {
			put32(b, 77);
			put32(b, 2);
		}
	}
}

static void put_aux_records(struct buf *b)
{
	static const __u64 flags[] = { 0, 1, 2, 4, 8, 5, 0xf, 1, 4, 0x100 };
	__u64 t = 2000;

	put_hdr(b, PERF_RECORD_ITRACE_START, 0, 16 + 24);
	put32(b, 3174);
	put32(b, 3175);
	put_id(b, 3174, t++, 0);
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		put_hdr(b, PERF_RECORD_AUX, 0, 32 + 24);
		put64(b, i * 0x1000);
		put64(b, 0x1000);
		put64(b, flags[i]);
		put_id(b, 3174, t++, i & 1);
	}
	put_hdr(b, 21 /* PERF_RECORD_AUX_OUTPUT_HW_ID */, 0, 16 + 24);
	put64(b, 0x2a);
	put_id(b, 3174, t++, 0);
}

int main(int argc, char **argv)
{
	const char *filter = NULL, *payload = "all";
	unsigned char attr[ATTR_SIZE], *pl = NULL;
	struct buf data = { 0 }, file = { 0 };
	int opt, words = 17, type = 1;
	bool pipe = false, aux = false, feature = false, errors = false;
	long cap_et = -1;
	size_t pl_len = 0;
	FILE *f;

	while ((opt = getopt(argc, argv, "pt:w:f:e:x:aFL:W:E")) != -1) {
		switch (opt) {
		case 'p': pipe = true; break;
		case 't': type = atoi(optarg); break;
		case 'w': words = atoi(optarg); break;
		case 'f': filter = optarg; break;
		case 'e': cap_et = atol(optarg); break;
		case 'x': payload = optarg; break;
		case 'a': aux = true; break;
		case 'F': feature = true; break;
		case 'E': errors = true; break;
		case 'L': filter_len_word = atol(optarg); break;
		case 'W':
			words_given = optarg;
			words = 1;
			for (const char *c = optarg; *c; c++)
				words += *c == ',';
			break;
		default: die("usage: pulse-mkaux [-p] [-t TYPE] [-w WORDS] [-f FILTER] [-L LEN] [-W WORDS] [-e CAP] [-x PAYLOAD] [-a] [-E] [-F] OUT");
		}
	}
	if (optind + 1 != argc || words < 0 || words > 1000)
		die("usage: pulse-mkaux [-p] [-t TYPE] [-w WORDS] [-f FILTER] [-L LEN] [-W WORDS] [-e CAP] [-x PAYLOAD] [-a] [-E] [-F] OUT");
	attr_bytes(attr);

	put_info(&data, type, words, filter, cap_et);
	if (aux)
		put_aux_records(&data);
	if (errors)
		put_errors(&data);
	if (!strcmp(payload, "all")) {
		pl_len = payload_all(&pl);
		/* one whole, one in two pieces on another cpu */
		put_auxtrace(&data, pl, pl_len, pl_len, 0, 0);
		put_auxtrace(&data, pl, 64, 64, 1, 1);
		put_auxtrace(&data, pl + 64, pl_len - 64, pl_len - 64, 1, 1);
	} else if (!strncmp(payload, "random:", 7)) {
		unsigned int seed = strtoul(payload + 7, NULL, 0);
		const char *c = strchr(payload + 7, ':');

		pl_len = c ? strtoul(c + 1, NULL, 0) : 256;
		pl = malloc(pl_len + 1);
		if (!pl)
			die("out of memory");
		srand(seed);
		for (size_t i = 0; i < pl_len; i++) {
			int r = rand();

			/* favour opcode bytes so that packets happen */
			pl[i] = r % 5 == 0 ? 0x02 : r % 7 == 0 ? 0 : (unsigned char)(r >> 8);
		}
		put_auxtrace(&data, pl, pl_len, pl_len, 0, 0);
	} else if (!strncmp(payload, "opcodes:", 8)) {
		pl_len = opcode_noise(&pl, payload + 8);
		put_auxtrace(&data, pl, pl_len, pl_len, 0, 0);
	} else if (!strncmp(payload, "spe:", 4)) {
		pl_len = spe_noise(&pl, payload + 4);
		put_auxtrace(&data, pl, pl_len, pl_len, 0, 0);
	} else if (!strcmp(payload, "past")) {
		unsigned char small[16] = { 0x02, 0x82 };

		put_auxtrace(&data, small, sizeof(small), 0x100000, 0, 0);
	} else if (strcmp(payload, "none")) {
		die("unknown -x payload");
	}
	if (strcmp(payload, "past")) {
		put_hdr(&data, PERF_RECORD_FINISHED_ROUND, 0, 8);
	}

	if (pipe) {
		put64(&file, 0x32454c4946524550ULL);	/* "PERFILE2" */
		put64(&file, 16);
		if (feature) {
			char host[16] = "localhost";

			put_hdr(&file, PERF_RECORD_HEADER_FEATURE, 0, 8 + 8 + 4 + 16 + 4);
			put64(&file, 3);		/* HEADER_HOSTNAME */
			put32(&file, sizeof(host));
			put(&file, host, sizeof(host));
			put32(&file, 0);
		}
		put_hdr(&file, PERF_RECORD_HEADER_ATTR, 0, 8 + ATTR_SIZE + 8);
		put(&file, attr, ATTR_SIZE);
		put64(&file, 1);			/* its id */
	} else {
		/* the attr's id before the data: a file ending past its data
		 * and without features reads as an unfinished recording */
		__u64 attrs_off = 104, ids_off = attrs_off + ATTR_SIZE + 16, data_off = ids_off + 8;

		put64(&file, 0x32454c4946524550ULL);
		put64(&file, 104);
		put64(&file, ATTR_SIZE + 16);
		put64(&file, attrs_off);
		put64(&file, ATTR_SIZE + 16);
		put64(&file, data_off);
		put64(&file, data.len);
		put64(&file, 0);			/* event_types */
		put64(&file, 0);
		for (int i = 0; i < 4; i++)
			put64(&file, 0);		/* no features */
		put(&file, attr, ATTR_SIZE);
		put64(&file, ids_off);
		put64(&file, 8);
		put64(&file, 1);			/* the attr's id */
	}
	put(&file, data.p, data.len);
	f = strcmp(argv[optind], "-") ? fopen(argv[optind], "wb") : stdout;
	if (!f || fwrite(file.p, 1, file.len, f) != file.len || fclose(f))
		die("cannot write the output");
	free(pl);
	free(data.p);
	free(file.p);
	return 0;
}
