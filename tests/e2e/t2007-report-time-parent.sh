#!/bin/bash
# pulse report --time percent slices, --symbols with addresses, the parent
# sort key (-p, -x) and filters on what the sort keys do not show, against
# perf report --stdio on files the real perf records. Only perf's random
# "Tip" line is left out.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF,ROOT 'record the files' '
	perf record -q -o a.data -- "$WL/spin" >/dev/null 2>&1 &&
	perf record -q -g -o sc.data -- "$WL/getppid" 2000000 >/dev/null 2>&1 &&
	perf record -q -g -o g.data -- "$WL/calltree" >/dev/null 2>&1
'

test_expect_success PERF,ROOT '--time percent slices and ranges, "(time slices: ...)" in the header' '
	compare_report a.data --time 10%/1 &&
	grep -q "of event .* (time slices: 10%/1)\$" pulse.out &&
	compare_report a.data --time 10%/2 -n &&
	compare_report a.data --time 25% &&
	compare_report a.data --time 0%-10% &&
	compare_report a.data --time 10%-20%,30%-40% &&
	compare_report a.data --time 10%/1,10%/3 &&
	compare_report a.data --time 33.3%/3 &&
	compare_report a.data --time 100%/1 &&
	compare_report sc.data --time 50%/2 --no-children &&
	compare_report sc.data --time 20%-60% --comms getppid
'

test_expect_success PERF,ROOT '--time in seconds: several ranges, open ends, blanks' '
	first=$(perf report -i a.data --header-only | sed -n "s/^# time of first sample : //p") &&
	s=${first%.*} &&
	compare_report a.data --time "$first," &&
	compare_report a.data --time ",$s.5" &&
	compare_report a.data --time "$s.1,$s.2 $s.3," &&
	compare_report a.data --time "$s.1, $s.9"
'

test_expect_success PERF,ROOT 'a --time that leaves no sample: no table' '
	compare_report a.data --time 20%-10% &&
	test "$(wc -l <pulse.out)" = 2
'

test_expect_success PERF,ROOT 'malformed --time: an error, as in perf' '
	for t in abc 10%- 0%/1 10%/11 "1,3 2,4" "3,4 1,2" 1.0123456789, "1,2 "; do
		rc=0 && "$PULSE" report -i a.data --stdio --time "$t" >out 2>err || rc=$? &&
		test "$rc" = 129 && grep -q "^error: invalid --time" err || return 1
	done
'

test_expect_success PERF,ROOT '--symbols with sample addresses: the first sample decides its entry' '
	ip=$(perf script -i a.data -F ip 2>/dev/null | sort | uniq -c | sort -rn | awk "NR == 1 { print \$2 }") &&
	ip2=$(perf script -i a.data -F ip 2>/dev/null | sort | uniq -c | sort -rn | awk "NR == 2 { print \$2 }") &&
	compare_report a.data --symbols "0x$ip" -n &&
	compare_report a.data --symbols "$ip" &&
	compare_report a.data --symbols "0x$ip,0x$ip2" --sort sym &&
	compare_report a.data --symbols "0x$ip,spin_loop" &&
	compare_report a.data --symbols "main,0x$ip2" &&
	compare_report a.data --symbols "0x$ip" --percentage relative
'

test_expect_success PERF,ROOT 'filters on what the sort keys do not show' '
	compare_report a.data --sort dso --symbols spin_loop &&
	compare_report a.data --sort comm --dsos spin &&
	compare_report a.data --sort dso --comms spin &&
	compare_report sc.data --no-children --dsos "[kernel.kallsyms]" --percentage relative
'

test_expect_success PERF,ROOT 'a list with an entry twice is refused' '
	rc=0 && "$PULSE" report -i a.data --stdio --symbols spin_loop,spin_loop >out 2>err || rc=$? &&
	test "$rc" = 129 && grep -q "problems parsing symbol list" err
'

test_expect_success PERF,ROOT 'parent: default regex, -p, -x, in both callchain orders' '
	compare_report sc.data --sort parent &&
	compare_report sc.data --no-children --sort parent,sym &&
	compare_report sc.data -p __x64_sys &&
	compare_report sc.data --no-children -p __x64_sys &&
	compare_report sc.data --no-children -g none -p __x64_sys -x &&
	compare_report sc.data -p __x64_sys -x &&
	compare_report sc.data --no-children -x &&
	compare_report sc.data --no-children --sort sym,parent -p "^do_|^entry" &&
	compare_report sc.data --no-children -g caller -p "^do_|^entry" &&
	compare_report sc.data --sort symbol -p sys -n &&
	compare_report sc.data --no-children -p sys --percentage relative -x &&
	compare_report g.data --sort parent,comm -p "^(main|a|b|c)$"
'

test_expect_success PERF,ROOT 'parent without callchains, a bad regex: errors' '
	rc=0 && "$PULSE" report -i a.data --stdio --sort parent >out 2>err || rc=$? &&
	test "$rc" = 1 && grep -q "Selected --sort parent, but no callchain data" err &&
	rc=0 && "$PULSE" report -i sc.data --stdio -p "foo(" >out 2>err || rc=$? &&
	test "$rc" = 129 && grep -q "^error: invalid --parent regex" err
'

test_expect_success PERF,ROOT '--no-<option> of callbacks, abbreviated too, the last one wins' '
	compare_report sc.data --no-children &&
	compare_report sc.data --no-child -p sys &&
	compare_report sc.data --no-children --children &&
	compare_report sc.data --children --no-children -g caller &&
	compare_report sc.data --no-children --no-call-graph &&
	rc=0 && "$PULSE" report -i sc.data --stdio --no-children=1 >out 2>err || rc=$? &&
	test "$rc" = 129 && grep -q "takes no value" err
'

test_done
