#!/bin/bash
# pulse data convert --to-json against perf 6.1's on the same files: byte
# for byte, on recordings by pulse and by perf (with and without -g,
# system-wide, several events, tracepoints, a --threads directory, perf
# record -k's CLOCK_DATA, comms that need escaping), and the JSON parses.
# The headers come from the file: a hostname recorded elsewhere,
# captured-on from its mtime. An output that exists is refused (perf's
# rule), --force overwrites it. A pipe, on which perf 6.1 crashes,
# converts: as many samples as perf script prints, the hostname perf reads.
. "$(dirname "$0")/lib/test-lib.sh"

# same FILE: perf's and pulse's JSON of FILE are the same bytes, and parse
same() {
	rm -f "$1.perf.json" "$1.pulse.json" &&
	perf data convert --to-json "$1.perf.json" -i "$1" 2>"$1.perr" &&
	pulse data convert --to-json "$1.pulse.json" -i "$1" 2>"$1.err" &&
	test_cmp "$1.perf.json" "$1.pulse.json" &&
	python3 -m json.tool "$1.pulse.json" >/dev/null &&
	# perf's two lines, with pulse's name: the same size and sample count
	expect_eq "$(sed "s/perf data convert/pulse data convert/; s/perf\.json/pulse.json/" "$1.perr" | tail -2)" \
		  "$(tail -2 "$1.err")"
}

test_expect_success PERF 'pulse record, no callchains' '
	record_ok err -o p.data -- "$WL/spin" 50 &&
	same p.data &&
	grep -q "\"symbol\": \"spin\"\|\"dso\": \"spin\"" p.data.pulse.json
'

test_expect_success PERF 'pulse record -g, several events' '
	record_ok err -g -e cpu-clock -e page-faults -o pg.data -- "$WL/calltree" &&
	same pg.data &&
	grep -q "\"callchain\": \[" pg.data.pulse.json
'

test_expect_success PERF 'perf record, perf record -g' '
	perf record -q -o f.data -- "$WL/spin" 50 >/dev/null 2>&1 &&
	same f.data &&
	perf record -q -g -o fg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	same fg.data
'

test_expect_success PERF 'system-wide with callchains (kernel frames, cpu), pulse and perf' '
	perf record -q -a -g -o a.data -- "$WL/calltree" >/dev/null 2>&1 &&
	same a.data &&
	grep -q "\"cpu\": " a.data.pulse.json &&
	record_ok err -a -g -o pa.data -- "$WL/forkrename" &&
	same pa.data
'

test_expect_success PERF,TRACEFS 'tracepoints (perf 6.1 writes no tracepoint fields)' '
	perf record -q -a -e sched:sched_switch -e sched:sched_process_exit -o tp.data -- \
		"$WL/forkrename" >/dev/null 2>&1 &&
	same tp.data &&
	record_ok err -e sched:sched_process_exit -e cpu-clock -o ptp.data -- "$WL/forkrename" &&
	same ptp.data
'

test_expect_success PERF 'perf record --threads (a directory): captured-on from DIR/data' '
	perf record -q --threads -g -o dir.data -- "$WL/calltree" >/dev/null 2>&1 &&
	[ -d dir.data ] &&
	touch -d "2002-03-04 05:06:07 UTC" dir.data/data &&
	same dir.data &&
	grep -q "\"captured-on\": \"2002-03-04T05:06:07Z\"" dir.data.pulse.json
'

test_expect_success PERF 'perf record -k: the clock keys' '
	perf record -q -k mono -o k.data -- "$WL/spin" 20 >/dev/null 2>&1 &&
	same k.data &&
	grep -q "\"clockid\": 1,\$" k.data.pulse.json
'

test_expect_success PERF 'comms that need escaping: a quote, a tab, UTF-8 (perf: \uffffffXX)' '
	cp "$WL/spin" "a\"b	c" && cp "$WL/spin" "ünï" &&
	record_ok err -o e.data -- "./a\"b	c" 20 &&
	perf record -q -o e2.data -- "./ünï" 20 >/dev/null 2>&1 &&
	same e.data && same e2.data &&
	grep -q "\"comm\": \"a\\\\\"b\\\\tc\"" e.data.pulse.json &&
	grep -q "\"comm\": \"\\\\uffffffc3\\\\uffffffbc" e2.data.pulse.json
'

test_expect_success PERF,UNSHARE 'the headers are the file'"'"'s: hostname recorded elsewhere, captured-on its mtime' '
	unshare --uts sh -c "hostname json-elsewhere && \"$PULSE\" record -o h.data -- \"$WL/spin\" 20" \
		2>err &&
	touch -d "2001-02-03 04:05:06 UTC" h.data &&
	same h.data &&
	grep -q "^		\"hostname\": \"json-elsewhere\",\$" h.data.pulse.json &&
	grep -q "^		\"captured-on\": \"2001-02-03T04:05:06Z\",\$" h.data.pulse.json
'

test_expect_success PERF 'an existing output: refused, left alone; --force overwrites as perf does' '
	record_ok err -o o.data -- "$WL/spin" 20 &&
	echo keep >out.json &&
	expect_fail 1 err pulse data convert --to-json out.json -i o.data &&
	one_error err "output file .out.json. exists" &&
	has_hint err "--force" &&
	expect_eq "$(cat out.json)" keep &&
	rc=0; perf data convert --to-json out.json -i o.data 2>perr || rc=$?
	expect_eq $rc 255 &&
	expect_eq "$(cat out.json)" keep &&
	pulse data convert --force --to-json out.json -i o.data 2>err &&
	echo keep >perf.json &&
	perf data convert -f --to-json perf.json -i o.data 2>perr &&
	test_cmp perf.json out.json
'

test_expect_success PERF 'default input perf.data; -i -: a pipe converts' '
	record_ok err -o pipe.data -- "$WL/spin" 20 &&
	cp pipe.data perf.data &&
	pulse data convert --to-json d.json 2>err &&
	grep -q "Converted .perf.data. into JSON data .d.json." err &&
	pulse record -o - -- "$WL/calltree" 2>/dev/null >stream.data &&
	pulse data convert --to-json pipe.json -i - <stream.data 2>err &&
	grep -q "Converted .-. into JSON data .pipe.json." err &&
	python3 -m json.tool pipe.json >/dev/null &&
	n=$(grep -c "^		{\$" pipe.json) &&
	expect_eq "$n" "$(perf script -i stream.data 2>/dev/null | wc -l)" &&
	grep -q "\"hostname\": \"$(perf report -i stream.data --header-only 2>/dev/null |
		sed -n "s/^# hostname : //p")\"" pipe.json
'

test_done
