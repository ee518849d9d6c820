#!/bin/bash
# Synthetic variants of the perf 6.1 golden files, made by pulse-mkdata:
# byte-swapped (file and pipe mode), AUXTRACE-bearing, and pipe mode from
# a COMPRESSED file. pulse must read each as the original: the same attrs,
# features it can swap, and the same records byte for byte after swapping
# back (pulse-mkdata dump), and the same report. Where perf is installed,
# perf 6.1 must read the swapped file-mode files and the pipe conversion
# as it reads the originals. (perf 6.1 cannot read the swapped pipe files,
# it does not swap a HEADER_FEATURE's id, nor AUXTRACE records without an
# AUXTRACE_INFO: those are only checked against pulse.)
. "$(dirname "$0")/lib/test-lib.sh"

DATA=$PULSE_TOP/tests/data
MK=$TOOLS/pulse-mkdata
# the features pulse does not know how to swap, dropped from swapped files
dropped='^feature (25|26|31|32) '

report() { timeout 10 "$PULSE" report -i "$1" --stdio 2>/dev/null; }
perf_report() { timeout 30 perf report -i "$1" --stdio --no-children -g none 2>/dev/null | grep -v '^#' | grep -v '^$'; }

for f in perf-cpuclock perf-g perf-tp perf-2ev perf-pipe perf-pipe-tp; do
	test_expect_success "$f byte-swapped: the same attrs, features and records" '
		"$MK" swap $DATA/$f.data sw.data 2>/dev/null &&
		[ "$(od -An -c -N 8 sw.data | tr -d " ")" = "2ELIFREP" ] &&
		"$MK" dump $DATA/$f.data - | grep -Ev "$dropped" >a.txt &&
		"$MK" dump sw.data - >b.txt &&
		[ $(grep -c "^record" a.txt) -gt 20 ] &&
		diff a.txt b.txt &&
		report $DATA/$f.data >a.rep && report sw.data >b.rep &&
		diff a.rep b.rep
	'
done

for f in perf-cpuclock perf-g perf-2ev; do
	test_expect_success PERF "$f byte-swapped: perf 6.1 reports it as the original" '
		"$MK" swap $DATA/$f.data sw.data 2>/dev/null &&
		perf_report $DATA/$f.data >a.txt && perf_report sw.data >b.txt &&
		[ -s a.txt ] && diff a.txt b.txt
	'
done

# --time percentages come from SAMPLE_TIME, which the reader swaps once
test_expect_success 'byte-swapped: --time percentages as on the original' '
	"$MK" swap $DATA/perf-cpuclock.data sw.data 2>/dev/null &&
	"$PULSE" report -i $DATA/perf-cpuclock.data --stdio --time 0%-50% >a.rep 2>&1 &&
	"$PULSE" report -i sw.data --stdio --time 0%-50% >b.rep 2>&1 &&
	grep -q "^# Samples: " a.rep &&
	diff a.rep b.rep
'

test_expect_success 'AUXTRACE records are skipped with their payload' '
	for f in perf-cpuclock perf-pipe; do
		"$MK" auxtrace $DATA/$f.data aux.data 1000 &&
		"$MK" dump $DATA/$f.data - | grep "^record" | cut -d" " -f4- >a.txt &&
		"$MK" dump aux.data - | grep "^record" | cut -d" " -f4- >b.txt &&
		grep -q "^type 71 size 48 " b.txt &&
		grep -v "^type 71 " b.txt | diff a.txt - &&
		report $DATA/$f.data >a.rep && report aux.data >b.rep &&
		diff a.rep b.rep || return 1
	done
'

test_expect_success 'a COMPRESSED file as a pipe: the same records unpacked' '
	"$MK" pipe $DATA/perf-z.data zp.data &&
	"$MK" dump $DATA/perf-z.data - | grep "^record" | cut -d" " -f4- >a.txt &&
	"$MK" dump zp.data - | grep "^record" | cut -d" " -f4- | grep -v "^type 64 " >b.txt &&
	[ $(wc -l <a.txt) -gt 1000 ] && diff a.txt b.txt &&
	timeout 10 "$PULSE" report -i - --stdio <zp.data >/dev/null
'

test_expect_success PERF 'perf 6.1 reads the pipe conversion of a COMPRESSED file' '
	"$MK" pipe $DATA/perf-z.data zp.data &&
	perf_report $DATA/perf-z.data >a.txt && perf_report zp.data >b.txt &&
	[ -s a.txt ] && diff a.txt b.txt
'

test_done
