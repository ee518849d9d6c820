#!/bin/bash
# pulse report --mmaps as perf 6.1's: --tasks with each thread's maps under
# its line, by address: start-end, prot and MAP_SHARED, the pgoff as
# recorded (an anonymous map's too; a vdso's 0), the inode perf reads from
# MMAP2 (from a build-id MMAP2: the union's bytes; a vdso: 0) and the path.
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
DATA=$PULSE_TOP/tests/data
W=$PULSE_BUILD/workloads/forkrename

test_expect_success '--mmaps: the tasks, each with its maps' '
	pulse report -i "$G/fork-tp.data" --mmaps >out &&
	m="                                " &&
	printf "%s\n" "#      pid      tid     ppid  comm" \
		"         0        0       -1 |swapper" \
		"      1356     1356       -1 |gl-fork" \
		"${m}401000-402000 r-xp 00001000 10961011 /tmp/pulse-golden/bin/gl-fork" \
		"${m}7f0dfa0a7000-7f0dfa0a9000 r-xp 00000000 0 [vdso]" \
		"      1363     1363     1356 | gl-child" \
		"$m 401000-402000 r-xp 00001000 10961011 /tmp/pulse-golden/bin/gl-fork" \
		"$m 7f0dfa0a7000-7f0dfa0a9000 r-xp 00000000 0 [vdso]" >expect &&
	test_cmp expect out &&
	pulse report -i "$G/fork-tp.data" --tasks --mmaps >out &&
	test_cmp expect out &&
	pulse report -i "$G/fork-tp.data" --tasks >out &&
	test $(wc -l <out) = 4
'

same_mmaps() {
	perf report -i "$1" --mmaps 2>/dev/null >perf.out &&
	pulse report -i "$1" --mmaps 2>/dev/null >pulse.out &&
	diff -u perf.out pulse.out
}

test_expect_success PERF 'the same maps as perf 6.1 on its and pulse files' '
	for f in "$DATA/perf-2ev.data" "$DATA/perf-g.data" "$DATA/perf-pipe.data" "$DATA/perf-z.data" \
		 "$G/calls.data" "$G/calls-pipe.data"; do
		same_mmaps "$f" || { echo "$f" >&2; return 1; }
	done
'

test_expect_success PERF,ROOT 'fresh recordings: data maps, build-id mmaps, pipes, system-wide' '
	perf record -q -d -o d.data -- "$W" 2 >/dev/null 2>&1 &&
	perf record -q --buildid-mmap -o b.data -- "$W" 1 >/dev/null 2>&1 &&
	perf record -q -o - -- "$W" 1 >p.data 2>/dev/null &&
	perf record -q -d -a -o a.data -- "$W" 1 >/dev/null 2>&1 &&
	pulse record -q -o q.data -- "$W" 2 >/dev/null 2>&1 &&
	pulse record -q -o - -- "$W" 1 >qp.data 2>/dev/null &&
	pulse record -q -a -o qa.data -- "$W" 1 >/dev/null 2>&1 &&
	grep -q "rw-p" <(perf report -i d.data --mmaps 2>/dev/null) &&
	for f in d.data b.data p.data a.data q.data qp.data qa.data; do
		same_mmaps "$f" || { echo "$f" >&2; return 1; }
	done
'

test_done
