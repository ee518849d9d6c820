#!/bin/bash
# pulse record -z (--compression-level): the ring data goes into zstd
# PERF_RECORD_COMPRESSED records and the file gets HEADER_COMPRESSED, as
# perf 6.1's record -z does. perf 6.1 reads the file (report, script,
# --header-only) as pulse does; a workload that makes exactly N getppid
# calls gives N samples, as an uncompressed recording of it does; file and
# pipe mode.
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid
N=5000

# rep FILE: a --stdio report of FILE (file or pipe), perf's tip line left out
perf_rep() { perf_in "$1" report --stdio 2>"$1.perr" | grep -v "^# (Tip:"; }
pulse_rep() {
	if is_pipe_file "$1"; then
		pulse report -i - --stdio <"$1"
	else
		pulse report -i "$1" --stdio
	fi 2>"$1.err" | grep -v "^# (Tip:"
}
# nr_compressed FILE: the COMPRESSED records pulse report -D counts
nr_compressed() {
	if is_pipe_file "$1"; then
		pulse report -D -i - <"$1"
	else
		pulse report -D -i "$1"
	fi | sed -n 's/^ *COMPRESSED events: *\([0-9]\+\) .*/\1/p'
}

test_expect_success PERF,ROOT,TRACEFS 'file mode: -z gives N samples in COMPRESSED records' '
	record_ok err -z -e $TP -o z.data -- $WL/getppid $N &&
	record_ok err.u -e $TP -o u.data -- $WL/getppid $N &&
	expect_eq "$(count_samples z.data $TP)" $N &&
	expect_eq "$(count_samples u.data $TP)" $N &&
	expect_eq "$(pulse_event_count z.data $TP)" "$(pulse_event_count u.data $TP)" &&
	expect_gt "$(nr_compressed z.data)" 0 "COMPRESSED records" &&
	expect_eq "$(nr_compressed u.data)" "" &&
	# smaller than the same records uncompressed
	expect_gt "$(stat -c %s u.data)" "$(stat -c %s z.data)" "uncompressed size"
'

test_expect_success PERF,ROOT,TRACEFS 'file mode: perf report and perf script print what pulse does' '
	perf_rep z.data >perf.rep && check_perf_stderr z.data.perr &&
	pulse_rep z.data >pulse.rep &&
	test_must_be_empty z.data.err &&
	test_cmp perf.rep pulse.rep &&
	same_script z.data &&
	same_script z.data -F comm,pid,tid,cpu,time,event,ip,sym
'

test_expect_success PERF,ROOT,TRACEFS 'file mode: perf --header-only shows the compressed line as for perf -z' '
	perf record -q -z -e $TP -o perf-z.data -- $WL/getppid $N 2>/dev/null &&
	perf_ok perf-z.data report --header-only >perf.hdr &&
	perf_ok z.data report --header-only >pulse.hdr &&
	grep "^# compressed : " perf.hdr >perf.line &&
	grep "^# compressed : " pulse.hdr >pulse.line &&
	cat perf.line pulse.line &&
	grep -q "^# compressed : Zstd, level = 1, ratio = [1-9][0-9]*$" pulse.line &&
	# the ratios depend on how the rings were cut into batches
	sed "s/ratio = [0-9]*$/ratio = R/" perf.line >perf.norm &&
	sed "s/ratio = [0-9]*$/ratio = R/" pulse.line >pulse.norm &&
	test_cmp perf.norm pulse.norm &&
	pulse report --header-only -i z.data | grep "^# compressed : " >pulse2.line &&
	test_cmp pulse.line pulse2.line
'

test_expect_success PERF,ROOT,TRACEFS 'file mode: the summary says compressed, as perf' '
	cat err &&
	grep -q "^\[ pulse record: Captured and wrote [0-9]\+\.[0-9]\{3\} MB z.data ($N samples), compressed (original [0-9]\+\.[0-9]\{3\} MB, ratio is [0-9]\+\.[0-9]\{3\}) \]$" err &&
	not grep -q compressed err.u
'

test_expect_success PERF,ROOT,TRACEFS '--compression-level=N: level N, and a ring that wraps' '
	record_ok err.l --compression-level=9 -e $TP -o l.data -- $WL/getppid 20000 &&
	perf_ok l.data report --header-only | grep -q "^# compressed : Zstd, level = 9, ratio = " &&
	expect_gt "$(nr_compressed l.data)" 1 "COMPRESSED records" &&
	# a busy machine may make the kernel drop some: each call is a
	# sample or counted in a LOST record (inside the COMPRESSED ones)
	PERF_HARMLESS_STDERR="$PERF_HARMLESS_STDERR|^Warning:\$|^Processed [0-9]+ events and lost [0-9]+ chunks!\$|^Check IO/CPU overload!\$|^Processed [0-9]+ samples and lost [0-9.]+%!\$" &&
	perf_ok l.data report -D >dump &&
	# and LOST_SAMPLES, the count the events kept (read_format LOST)
	lost=$(sed -n -e "s/.*PERF_RECORD_LOST: .* lost:\([0-9]\+\)$/\1/p" \
		-e "s/.*PERF_RECORD_LOST_SAMPLES: .* lost samples :\([0-9]\+\)$/\1/p" dump |
		awk "{ s += \$1 } END { print s + 0 }") &&
	n=$(count_samples l.data $TP) &&
	echo "# $n samples, $lost lost" &&
	expect_ge $((n + lost)) 20000 "samples + lost" &&
	same_script l.data -F time,event
'

test_expect_success PERF,ROOT,TRACEFS 'pipe mode: -z is read by perf and pulse' '
	record_ok err.p -z -e $TP -o - -- $WL/getppid $N >z.pipe &&
	is_pipe_file z.pipe &&
	expect_eq "$(count_samples z.pipe $TP)" $N &&
	expect_gt "$(nr_compressed z.pipe)" 0 "COMPRESSED records" &&
	perf_rep z.pipe >perf.prep && check_perf_stderr z.pipe.perr &&
	pulse_rep z.pipe >pulse.prep &&
	test_cmp perf.prep pulse.prep &&
	same_script z.pipe &&
	# perf writes the feature at the start of a stream: ratio 0, as perf -z -o -
	perf_ok z.pipe report --header-only | grep -q "^# compressed : Zstd, level = 1, ratio = 0$" &&
	grep -q "^\[ pulse record: Captured and wrote [0-9.]\+ MB - \(($N samples)\)\?, compressed (original [0-9.]\+ MB, ratio is [0-9.]\+) \]$" err.p
'

test_expect_success PERF,ROOT '-g and -a: perf report of -z files prints what pulse does' '
	record_ok err.g -z -g -o g.data -- $WL/calltree &&
	perf_rep g.data >perf.g && check_perf_stderr g.data.perr &&
	pulse_rep g.data >pulse.g && test_cmp perf.g pulse.g &&
	record_ok err.a -z -a -o a.data -- $WL/spin 200 &&
	expect_gt "$(nr_compressed a.data)" 0 "COMPRESSED records" &&
	same_script a.data
'

test_done
