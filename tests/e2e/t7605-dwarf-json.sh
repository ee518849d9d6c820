#!/bin/bash
# data convert --to-json on a --call-graph dwarf file (recorded by perf):
# perf 6.1 prints each sample's raw callchain (the kernel part only; the
# user stack is not unwound for JSON), and so does pulse, byte for byte,
# while report and script on the same file show the unwound frames.
. "$(dirname "$0")/lib/test-lib.sh"

test_expect_success PERF 'record dwarf-tree with perf --call-graph dwarf' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/dwarf-tree" 200 >/dev/null 2>&1
'

test_expect_success PERF '--to-json is perf'"'"'s: the raw callchain, not unwound' '
	perf data convert -i dw.data --to-json perf.json >/dev/null 2>&1 &&
	pulse data convert -i dw.data --to-json pulse.json 2>err &&
	cmp perf.json pulse.json &&
	not grep -q "\"symbol\": \"mid\"" pulse.json &&
	pulse script -i dw.data | grep -q " mid+0x"
'

test_done
