/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Intel PT packet dump perf report -D prints under each AUXTRACE record
 * of an intel_pt file (perf 6.1 util/intel-pt.c intel_pt_dump() with
 * util/intel-pt-decoder/intel-pt-pkt-decoder.c's words):
 *
 *   .
 *   . ... Intel Processor Trace data: size 12240 bytes
 *   .  00000000:  02 82 02 82 02 82 02 82 02 82 02 82 02 82 02 82 PSB
 *   .  00000010:  00 00 00                                        PAD
 *   .  00000015:  99 01                                           MODE.Exec IF:0 64
 *
 * Packets are decoded with libipt's packet decoder (pt_pkt_next()); the
 * packets libipt 2.0 does not know (BBP, BIP, BEP, CFE, EVD) through its
 * unknown-packet callback, and the few byte patterns perf reads that libipt
 * refuses (a TMA with reserved bits set, a long TNT without a stop bit, a
 * 10-byte CYC) as perf reads them. As in perf, up to 8 bytes of a packet
 * and the zero bytes after it make one line (a run of PAD bytes is one
 * line of at most 8), and a byte that starts no packet, or a packet cut by
 * the end of the data, is one "Bad packet!" line: decoding goes on at the
 * next byte.
 */
#ifndef PULSE_PT_DUMP_H
#define PULSE_PT_DUMP_H

#include <stddef.h>
#include <stdio.h>

/*
 * pulse_pt_dump__fprintf - perf's dump of @len bytes of Intel PT trace
 * @out: where to print
 * @buf: the trace (an AUXTRACE record's payload)
 * @len: its size
 *
 * Return: 0, -ENOMEM when the libipt decoder cannot be had, -EIO when
 * @out failed.
 */
int pulse_pt_dump__fprintf(FILE *out, const void *buf, size_t len);

#endif
