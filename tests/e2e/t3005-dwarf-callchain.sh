#!/bin/bash
# A file recorded with --call-graph dwarf carries each sample's user
# registers and stack for perf to unwind. Until pulse unwinds them, report
# and script say so once (one warning line), and go on; -D, which only
# shows the stack's size as perf does, and fp files say nothing.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF 'record --call-graph dwarf (perf)' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf report -i dw.data --stdio >/dev/null 2>&1
'

test_expect_success PERF 'report warns once that the stacks are not unwound' '
	pulse report -i dw.data --stdio >out 2>err &&
	grep -c "^warning: .*dwarf.* not unwound" err >n && expect_eq "$(cat n)" 1 &&
	grep -c . err >n && expect_eq "$(cat n)" 1 &&
	grep -q "leaf_a" out
'

test_expect_success PERF 'script warns once too' '
	pulse script -i dw.data >out 2>err &&
	grep -c "^warning: .*dwarf.* not unwound" err >n && expect_eq "$(cat n)" 1 &&
	grep -c . err >n && expect_eq "$(cat n)" 1 &&
	grep -q "calltree" out
'

test_expect_success PERF 'report -D does not warn' '
	pulse report -D -i dw.data >out 2>err &&
	not grep -q "not unwound" err &&
	grep -q "ustack: size" out
'

test_expect_success PERF 'a frame-pointer file does not warn' '
	perf record -q -g -o fp.data -- "$WL/calltree" >/dev/null 2>&1 &&
	pulse report -i fp.data --stdio >out 2>err &&
	not grep -q "not unwound" err
'

test_done
