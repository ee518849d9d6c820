#!/bin/bash
# pulse report -U/--hide-unresolved as perf 6.1's: a sample whose address
# has no symbol is not counted (totals, sample counts), and callchain
# frames without a symbol are left out (after --max-stack counted them).
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data

test_expect_success '-U: no unresolved samples; none left, no table' '
	pulse report -i "$DATA/perf-2ev.data" --stdio -U >out 2>err &&
	! grep -q "%" out && grep -q "no samples" err &&
	pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio >expect &&
	pulse report -i "$G/calls-g.data" --symfs "$G/root" --stdio --hide-unresolved >out &&
	test_cmp expect out
'

test_expect_success PERF,ROOT 'a file with unresolved frames: the same output as perf 6.1' '
	perf record -q -g -o u.data -- dd if=/dev/zero of=/dev/null bs=1k count=100000 2>/dev/null &&
	pulse report -i u.data --stdio --no-children >all &&
	grep -q "\[.\] 0x0000" all &&
	pulse report -i u.data --stdio --no-children -U >out &&
	! grep -q "0x0000" out &&
	for a in "-U" "-U --no-children" "-U -g caller --no-children" "-U --sort dso,sym" \
		 "-U --max-stack 3" "-U -n --show-total-period"; do
		compare_report u.data $a || { echo "$a" >&2; return 1; }
	done
'

test_done
