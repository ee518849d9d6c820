/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text perf 6.1 makes of a PERF_SAMPLE_DATA_SRC value (lib/data/data-src.c,
 * after perf's util/mem-events.c): the "|OP LOAD|LVL L1 hit|SNP None|TLB L1
 * or L2 hit|LCK No|BLK  N/A" of perf script and the columns of perf report's
 * memory sort keys (mem, snoop, tlb, locked, blocked).
 *
 * The value is the kernel's union perf_mem_data_src (include/uapi/linux/
 * perf_event.h), little-endian bit fields of one u64:
 *
 *   bits   field         meaning
 *   0-4    mem_op        NA, LOAD, STORE, PFETCH, EXEC (one bit each)
 *   5-18   mem_lvl       NA, HIT, MISS, L1, LFB, L2, L3, LOC_RAM, REM_RAM1,
 *                        REM_RAM2, REM_CCE1, REM_CCE2, IO, UNC
 *   19-23  mem_snoop     NA, NONE, HIT, MISS, HITM
 *   24-25  mem_lock      NA, LOCKED
 *   26-32  mem_dtlb      NA, HIT, MISS, L1, L2, WK (walker), OS (fault)
 *   33-36  mem_lvl_num   1-4 L1-L4, 9 CXL, 10 IO, 11 ANY_CACHE, 12 LFB,
 *                        13 RAM, 14 PMEM, 15 NA (a number, not bits)
 *   37     mem_remote    remote
 *   38-39  mem_snoopx    FWD, PEER
 *   40-42  mem_blk       NA, DATA, ADDR
 *   43-45  mem_hops      1 core, 2 node, 3 socket, 4 board
 *
 * Each function writes at most @sz - 1 characters and a NUL, with perf's
 * truncation, and returns what perf's function returns (the characters it
 * counted). @ds NULL is perf's sample without mem_info (the N/A texts).
 */
#ifndef PULSE_DATA_SRC_H
#define PULSE_DATA_SRC_H

#include <stddef.h>
#include <stdint.h>

int pulse_data_src__op_scnprintf(char *out, size_t sz, const uint64_t *ds);
int pulse_data_src__lvl_scnprintf(char *out, size_t sz, const uint64_t *ds);
int pulse_data_src__snp_scnprintf(char *out, size_t sz, const uint64_t *ds);
int pulse_data_src__tlb_scnprintf(char *out, size_t sz, const uint64_t *ds);
int pulse_data_src__lck_scnprintf(char *out, size_t sz, const uint64_t *ds);
int pulse_data_src__blk_scnprintf(char *out, size_t sz, const uint64_t *ds);

/* perf's perf_script__meminfo_scnprintf(): the six above, "|OP ...|BLK ..." */
int pulse_data_src__scnprintf(char *out, size_t sz, uint64_t ds);

/*
 * perf script's data_src__fprintf() column, without its padding: the
 * value as "%16" PRIx64, a space and the text above, cut to 99 characters
 * as perf's 100-byte buffers cut it. @out must hold 100 bytes.
 */
int pulse_data_src__script_column(char out[100], uint64_t ds);

/* The fields, for the sort keys' comparisons */
#define PULSE_DS_OP(ds)		((ds) & 0x1f)
#define PULSE_DS_LVL(ds)	(((ds) >> 5) & 0x3fff)
#define PULSE_DS_SNOOP(ds)	(((ds) >> 19) & 0x1f)
#define PULSE_DS_LOCK(ds)	(((ds) >> 24) & 0x3)
#define PULSE_DS_DTLB(ds)	(((ds) >> 26) & 0x7f)
#define PULSE_DS_LVL_NUM(ds)	(((ds) >> 33) & 0xf)
#define PULSE_DS_REMOTE(ds)	(((ds) >> 37) & 0x1)
#define PULSE_DS_SNOOPX(ds)	(((ds) >> 38) & 0x3)
#define PULSE_DS_BLK(ds)	(((ds) >> 40) & 0x7)
#define PULSE_DS_HOPS(ds)	(((ds) >> 43) & 0x7)

#endif
