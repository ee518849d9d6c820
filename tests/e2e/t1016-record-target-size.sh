#!/bin/bash
# -p/-t with a command is refused (perf 6.1 refuses it too, silently, exit
# 255); a tiny recording is about perf's size (perf: ~5 KB; the gap kept
# for the closing features was 128 KiB whatever the target); a truncated
# file's warning names the file read, not "perf.data".
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF '-p PID -- cmd and -t TID -- cmd: refused, as perf' '
	expect_fail 129 err pulse record -p 1 -o x.data -- true
	one_error err "command.*-p"
	test ! -s x.data
	expect_fail 129 err pulse record -t 1 -o x.data -- true
	one_error err "command.*-t"
	! perf record -p 1 -o p.data -- true 2>/dev/null
	! perf record -t 1 -o p.data -- true 2>/dev/null
'

test_expect_success PERF 'record -- true: a file of perf size, readable, with BUILD_ID' '
	record_ok err -o t.data -- true
	size=$(stat -c %s t.data)
	perf record -q -o p.data -- true
	psize=$(stat -c %s p.data)
	echo "# pulse $size bytes, perf $psize bytes"
	expect_gt $((psize * 2)) "$size" "file size"
	perf_ok t.data report --stdio >/dev/null
	perf_ok t.data buildid-list >bids
	grep -q "kernel.kallsyms\|/" bids
'

test_expect_success PERF 'a -g recording keeps its BUILD_ID with the smaller gap' '
	record_ok err -g -o g.data -- $WL/spin 50
	perf_ok g.data buildid-list >gbids
	grep -q "/spin$" gbids
'

test_expect_success 'a truncated file: the warning names it' '
	record_ok err -o whole.data -- $WL/spin 50
	size=$(stat -c %s whole.data)
	head -c $((size - 1000)) whole.data >cut.data
	pulse report -i cut.data --stdio >/dev/null 2>rep.err || true
	cat rep.err
	grep -q "^warning: cut.data: data section runs past the end" rep.err
	not grep -q "perf.data:" rep.err
'

test_done
