#!/bin/bash
# A big file's data section is read into reused buffers on a helper thread
# (lib/data/chunks.c; PULSE_READ_CHUNK=0: its mapped windows populated
# ahead on one, lib/data/prefetch.c) and the running kernel's kallsyms is
# read on another while the session walks (lib/symbols/kallsyms-preload.c):
# they only move work off the walking thread, so the report stays perf
# 6.1's byte for byte (--no-inline, as t7600), and a small file starts no
# helper. PULSE_DEBUG shows which helpers ran.
. "$(dirname "$0")/lib/test-lib.sh"
# the default read (a big file in chunks) is what is tested here
unset PULSE_READ_CHUNK

test_declare_prereq BIG

# perf's random tip; its "[...] (inlined)" (as t7600)
normalise() {
	grep -v '^# (Tip:' | sed 's/\[\.\.\.\] (inlined)$/[...]/'
}
same() { # ARGS...: pulse report and perf report of big.data print the same
	perf report -i big.data --stdio --no-inline "$@" 2>/dev/null | normalise >perf.out &&
	PULSE_DEBUG=1 pulse report -i big.data --stdio --no-inline "$@" 2>pulse.err |
		normalise >pulse.out &&
	grep -q "%" perf.out &&
	test_cmp perf.out pulse.out
}

# a --call-graph dwarf file of more than one 32 MB window: 64 KB stacks
pulse record -q -F 1999 --call-graph dwarf,65528 -o big.data -- "$WL/dwarf-tree" 600 \
	>/dev/null 2>&1 && [ "$(stat -c %s big.data)" -ge 40000000 ] && test_set_prereq BIG

test_expect_success BIG,PERF 'a big file: read in chunks by a helper, perf'"'"'s report' '
	same &&
	grep -q "^perf.data: data section read in 524288-byte chunks on a helper thread$" pulse.err
'

test_expect_success BIG,PERF 'PULSE_READ_CHUNK=0: windows populated by a helper, perf'"'"'s report' '
	PULSE_READ_CHUNK=0 same &&
	grep -q "^perf.data: windows populated ahead on a helper thread$" pulse.err &&
	not grep -q "chunks on a helper" pulse.err
'

test_expect_success BIG,PERF 'PULSE_READ_CHUNK=65536: records cut by every read, perf'"'"'s report' '
	PULSE_READ_CHUNK=65536 same --no-children -g caller &&
	grep -q "^perf.data: data section read in 65536-byte chunks on a helper thread$" pulse.err
'

test_expect_success BIG,PERF 'the same with --no-children -g caller and --sort dso,sym' '
	same --no-children -g caller &&
	same --sort dso,sym
'

test_expect_success BIG 'a small file starts no helper' '
	pulse record -q --call-graph dwarf -o small.data -- "$WL/dwarf-tree" 100 \
		>/dev/null 2>&1 &&
	PULSE_DEBUG=1 pulse report -i small.data --stdio >out 2>err &&
	grep -q "%" out &&
	not grep -q "populated ahead" err &&
	not grep -q "chunks on a helper" err
'

# kernel samples resolved from /proc/kallsyms need the running kernel's
test_expect_success BIG,PERF 'kallsyms read ahead, taken by the kernel map: perf'"'"'s symbols' '
	same --sort dso,sym --no-children -g none &&
	if grep -q "\[kernel.kallsyms\] *\[k\] [a-z_]" pulse.out; then
		grep -q "^symbols: /proc/kallsyms read ahead on a helper thread: [1-9][0-9]* symbols$" pulse.err
	else
		echo "no kernel symbols here (kptr_restrict?)"
	fi
'

test_expect_success BIG 'a vmlinux named: no kallsyms read' '
	PULSE_DEBUG=1 pulse report -i big.data --stdio -k /nonexistent >out 2>err &&
	not grep -q "read ahead" err
'

test_done
