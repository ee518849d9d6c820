#!/bin/bash
# pulse report -D of AUX-area files against perf 6.1, byte for byte: the
# AUXTRACE_INFO words of intel_pt in every size perf wrote (perf 4.2's 10
# words, 4.3's 15, 4.6's 16, 4.9's 17 with and without a filter string,
# 5.19's Cap Event Trace after them), of intel_bts, arm_spe, s390_cpumsf and
# hisi_ptt; the BTS branch records and ARM SPE packets (of made-up packet
# streams) under their AUXTRACEs; the Intel PT packet dump under each
# AUXTRACE, on payloads made with libipt's encoder (every packet it
# encodes) followed by the byte patterns only perf's decoder reads, bad
# bytes and packets cut by the end of their data, on noise, and on
# recordings of a real program's control flow; the AUX, ITRACE_START,
# AUX_OUTPUT_HW_ID and AUXTRACE_ERROR records and perf's AUX warnings. The
# files are made by tests/tools/pulse-mkaux and tests/tools/pulse-mkpt
# (pt-loop as perf records it). Without perf: pulse agrees with itself on
# the same trace as a file, a pipe-mode file and a pipe on stdin.
. "$(dirname "$0")/lib/test-lib.sh"

MK=$TOOLS/pulse-mkaux

# same_dump FILE: perf 6.1's and pulse's report -D print the same bytes
same_dump() {
	perf report -D -i "$1" >"$1.perf" 2>"$1.perf.err" || true
	pulse report -D -i "$1" >"$1.pulse" 2>"$1.pulse.err" || {
		cat "$1.pulse.err" >&2; return 1; }
	test_cmp "$1.perf" "$1.pulse"
}

# the packet lines (and their header) of a dump, with the AUXTRACE_INFO words
packets() {
	sed "/^Aggregated stats:/,\$d" "$1" | grep -a -e '^\.  [0-9a-f]\{8\}:' -e 'Intel Processor Trace data' -e '^  [A-Z]'
}

test_expect_success PERF 'intel_pt, 17 words (perf 4.9 and up): words, packets, AUX records' '
	"$MK" -a all.data &&
	same_dump all.data &&
	grep -q "Intel Processor Trace data: size" all.data.pulse &&
	grep -q "Bad packet!" all.data.pulse &&
	grep -q "EVD Type 0x09 Payload 0x807060504030201" all.data.pulse &&
	grep -q "MODE.Exec IF:1 64" all.data.pulse &&
	grep -q "PERF_RECORD_AUX_OUTPUT_HW_ID" all.data.pulse
'

test_expect_success PERF 'intel_pt, older and newer AUXTRACE_INFO sizes' '
	for w in 10 14 15 16 17 18; do
		"$MK" -w $w w$w.data && same_dump w$w.data || return 1
	done &&
	"$MK" -w 17 -f "filter 0x1000/0x200@/bin/ls" -e 1 -x none filt.data &&
	same_dump filt.data &&
	grep -q "^  Filter string       filter 0x1000/0x200@/bin/ls$" filt.data.pulse &&
	grep -q "^  Cap Event Trace     1$" filt.data.pulse &&
	"$MK" -w 17 -e 7 -x none et.data && same_dump et.data
'

test_expect_success PERF 'intel_bts (and its branch records), arm_spe (and its packets), s390_cpumsf, hisi_ptt' '
	for tw in "2 6" "2 7" "4 2" "4 3" "5 0" "5 4" "6 1" "6 2"; do
		set -- $tw
		"$MK" -t $1 -w $2 -a -x none t$1w$2.data && same_dump t$1w$2.data || return 1
	done &&
	"$MK" -t 2 -w 6 bts.data && same_dump bts.data &&
	grep -q "Intel BTS data: size 432 bytes" bts.data.pulse &&
	grep -q " Bad record!$" bts.data.pulse &&
	for seed in 1 2 3 4; do
		"$MK" -t 4 -w 2 -x spe:$seed:4096 spe$seed.data && same_dump spe$seed.data || return 1
	done &&
	grep -q "ARM SPE data: size 0x1000 bytes" spe1.data.pulse
'

test_expect_success PERF 'Intel PT packets of noise and of packet openings, as perf decodes them' '
	for seed in 1 2 3 4 5 6 7 8; do
		"$MK" -x random:$seed:4096 r$seed.data && same_dump r$seed.data || return 1
		"$MK" -x opcodes:$seed:4096 o$seed.data && same_dump o$seed.data || return 1
	done
'

test_expect_success PERF 'a pipe that starts with a FEATURE record: -1 -1 as perf' '
	"$MK" -p -F -a -x none feat.pipe &&
	same_dump feat.pipe &&
	grep -q "^-1 -1 0 \[0x28\]: PERF_RECORD_FEATURE" feat.pipe.pulse
'

test_expect_success PERF 'AUX flags: perf 6.1 warnings after -D and report; --stats as perf' '
	"$MK" -a -x none aux.data &&
	pulse report -D -i aux.data >/dev/null 2>aux.err &&
	grep -q "^warning: AUX data lost 4 times out of 10!" aux.err &&
	grep -q "^warning: AUX data had gaps in it 4 times out of 10!" aux.err &&
	grep -q "^warning: AUX data detected collision  2 times out of 10!" aux.err &&
	pulse report --stdio -i aux.data >/dev/null 2>rep.err &&
	grep -q "^warning: AUX data lost 4 times out of 10!" rep.err &&
	perf report --stats -i aux.data >stats.perf 2>/dev/null &&
	pulse report --stats -i aux.data >stats.pulse 2>stats.err &&
	test_cmp stats.perf stats.pulse &&
	not grep -q "AUX data" stats.err
'

test_expect_success PERF 'AUXTRACE_ERROR: report -D and script -D as perf, the error count' '
	"$MK" -E -x none err.data && same_dump err.data &&
	grep -q "PERF_RECORD_AUXTRACE_ERROR: unhandled!" err.data.pulse &&
	grep -q "^warning: 3 instruction trace errors$" err.data.pulse.err &&
	"$MK" -E -x none -p err.pipe && same_dump err.pipe &&
	perf script -D -i err.data >script.perf 2>/dev/null &&
	pulse script -D -i err.data >script.pulse 2>/dev/null &&
	test_cmp script.perf script.pulse &&
	grep -q "ERROR instruction trace error type 1 time 1234.567890125 machine_pid 77 vcpu 2 cpu 2" script.pulse &&
	# written by a machine of the other byte order: each fmt swapped as perf does
	"$TOOLS/pulse-mkdata" swap err.data swapped.data &&
	perf script -D -i swapped.data 2>/dev/null | grep "ERROR " >sw.perf &&
	pulse script -D -i swapped.data 2>/dev/null | grep "ERROR " >sw.pulse &&
	test_cmp sw.perf sw.pulse &&
	sed "s/^.*ERROR//" sw.pulse >sw.words &&
	grep "ERROR " script.pulse | sed "s/^.*ERROR//" >native.words &&
	test_cmp native.words sw.words
'

test_expect_success PERF 'pulse-mkpt recordings of pt-loop (a real control flow): -D as perf' '
	for v in "" --noretcomp "--mtc --cyc" --tsx "--ovf 3" "--intr 4" --per-thread \
		"--info 10" "--mtc --cyc --tsx --psb 3 --chunk 300"; do
		"$TOOLS/pulse-mkpt" -n 20 $v mkpt.data "$WL/pt-loop" &&
		same_dump mkpt.data || return 1
	done &&
	expect_ge "$(grep -c "Intel Processor Trace data" mkpt.data.pulse)" 3
'

test_expect_success 'the same packets from a file, a pipe-mode file and a pipe (report -D, script -D)' '
	"$MK" -a file.data &&
	"$MK" -a -p pipe.data &&
	pulse report -D -i file.data >file.out 2>/dev/null &&
	pulse report -D -i pipe.data >pipe.out 2>/dev/null &&
	cat pipe.data | pulse report -D -i - >stdin.out 2>/dev/null &&
	cat pipe.data | pulse script -D -i - >script.out 2>/dev/null &&
	packets file.out >file.pk && packets pipe.out >pipe.pk && packets stdin.out >stdin.pk &&
	packets script.out >script.pk &&
	test -s file.pk &&
	expect_ge "$(grep -c "Intel Processor Trace data" file.pk)" 3 &&
	test_cmp file.pk pipe.pk &&
	test_cmp file.pk stdin.pk &&
	test_cmp file.pk script.pk
'

test_expect_success 'no PT dump without an intel_pt AUXTRACE_INFO' '
	"$MK" -t 5 -w 0 s390.data &&
	pulse report -D -i s390.data >s390.out &&
	grep -q "PERF_RECORD_AUXTRACE size" s390.out &&
	not grep -q "Intel Processor Trace" s390.out
'

test_done
