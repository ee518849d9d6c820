#!/bin/bash
# pulse record --threads -z: each reader's data.N holds the COMPRESSED
# records of a zstd stream of its own, as perf 6.1 writes them, and the
# directory's data file gets HEADER_COMPRESSED with the ratio of all the
# readers together. perf 6.1 and pulse read the directory alike, and a
# workload that makes exactly N getppid calls gives N samples.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
N=20000

# the COMPRESSED records pulse report -D counts in a directory
nr_compressed() { pulse report -D -i "$1" | sed -n 's/^ *COMPRESSED events: *\([0-9]\+\) .*/\1/p'; }

test_expect_success PERF,ROOT,TRACEFS '--threads -z: N samples in COMPRESSED records of the data.N files' '
	record_ok err --threads -z -a -e $TP -o z.data -- $WL/getppid $N &&
	test -d z.data && test -f z.data/data.0 &&
	expect_eq "$(count_samples z.data $TP)" $N &&
	expect_eq "$(pulse_event_count z.data $TP)" $N &&
	expect_gt "$(nr_compressed z.data)" 0 "COMPRESSED records" &&
	grep -q "Captured and wrote .* compressed (original" err &&
	# the same recording uncompressed: its data.N files are several times bigger
	record_ok err.u --threads -a -e $TP -o u.data -- $WL/getppid $N &&
	expect_eq "$(count_samples u.data $TP)" $N &&
	expect_gt "$(cat u.data/data.* | wc -c)" "$(($(cat z.data/data.* | wc -c) * 3))" "uncompressed size"
'

test_expect_success PERF,ROOT,TRACEFS '--threads -z: perf reads the directory as pulse does' '
	perf_in z.data report --stdio 2>perf.err | grep -v "^# (Tip:" >perf.rep &&
	check_perf_stderr perf.err &&
	pulse report -i z.data --stdio 2>pulse.err | grep -v "^# (Tip:" >pulse.rep &&
	test_must_be_empty pulse.err &&
	test_cmp perf.rep pulse.rep &&
	same_script z.data
'

test_expect_success PERF,ROOT,TRACEFS '--threads --compression-level=3: the level, and one ratio for all the readers' '
	record_ok err3 --threads --compression-level=3 -a -e $TP -o z3.data -- $WL/getppid $N &&
	perf_ok z3.data report --header-only >hdr &&
	grep "^# compressed : " hdr >line &&
	cat line &&
	grep -q "^# compressed : Zstd, level = 3, ratio = [1-9][0-9]*$" line
'

test_done
