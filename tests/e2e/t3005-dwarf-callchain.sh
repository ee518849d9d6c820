#!/bin/bash
# A file recorded with --call-graph dwarf carries each sample's user
# registers and stack: report and script unwind them (t7600-t7603) without
# a word on stderr; -D shows the stack's size as perf does.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF 'record --call-graph dwarf (perf)' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf report -i dw.data --stdio >/dev/null 2>&1
'

test_expect_success PERF 'report unwinds, quietly' '
	pulse report -i dw.data --stdio >out 2>err &&
	test_must_be_empty err &&
	grep -q "leaf_a" out && grep -q "^               mid$" out
'

test_expect_success PERF 'script too' '
	pulse script -i dw.data >out 2>err &&
	test_must_be_empty err &&
	grep -q " mid+0x" out
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
