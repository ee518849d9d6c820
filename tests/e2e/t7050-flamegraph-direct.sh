#!/bin/bash
# pulse flamegraph builds its stacks straight from report's walk (one trie
# of resolved frames, no hist entries or callchain trees) unless a filter
# that hides entries (--comms, --pid, ...) or the pid/tid keys need the
# entries: both ways give the tree of `pulse report -g
# folded,0,caller,count --no-children` with the same options, and a sample
# whose chain has no frames is no stack (report's tree takes none).
. "$(dirname "$0")/lib/test-lib.sh"

FS=$WL/flamesplit
svgpy() { python3 "$PULSE_TOP/tests/e2e/lib/flame-svg.py" "$@"; }
tree() { # FILE OPTIONS...: the flame graph's tree
	local f=$1; shift
	pulse flamegraph -q -i "$f" -o t.svg --minwidth 0 "$@" && svgpy svg t.svg
}
folded_tree() { # FILE OPTIONS...: the tree of report's folded lines
	local f=$1; shift
	pulse report -i "$f" -g folded,0,caller,count --no-children --stdio -q "$@" >t.folded &&
	svgpy folded t.folded
}

test_expect_success 'record flamesplit with -g' '
	pulse record -q -g -o fs.data -- "$FS" 300 75 &&
	pulse report -i fs.data --sort comm -g none -q --stdio | awk "NF {print \$NF}" | sort -u | paste -sd, >comms &&
	test -s comms
'

test_expect_success 'the same stacks as report'"'"'s entries, with and without --sort comm,dso' '
	tree fs.data >direct.tree &&
	folded_tree fs.data >folded.tree &&
	test_cmp folded.tree direct.tree &&
	# --comms naming every comm hides nothing but takes the entries
	tree fs.data --comms "$(cat comms)" >entries.tree &&
	test_cmp direct.tree entries.tree &&
	tree fs.data --sort comm,dso >direct-cd.tree &&
	tree fs.data --sort comm,dso --comms "$(cat comms)" >entries-cd.tree &&
	test_cmp entries-cd.tree direct-cd.tree &&
	grep -q "^[0-9]* flamesplit;flamesplit;__libc_start_call_main;main;flame_a$" direct-cd.tree
'

test_expect_success '--time and --max-stack as report'"'"'s' '
	tree fs.data --time 10%-60% >t.tree &&
	folded_tree fs.data --time 10%-60% >ft.tree &&
	test_cmp ft.tree t.tree &&
	tree fs.data --max-stack 3 >m.tree &&
	folded_tree fs.data --max-stack 3 >fm.tree &&
	test_cmp fm.tree m.tree &&
	not grep -q "^[0-9]* [^;]*;[^;]*;[^;]*;" m.tree
'

test_expect_success 'a chain without frames is no stack; an event without chains one frame' '
	{
		echo "event name=cpu-clock type=1 config=0 period=1000 sample_type=IDENTIFIER|IP|TID|TIME|PERIOD|CALLCHAIN flags=sample_id_all|mmap|comm ids=1"
		echo "event name=task-clock type=1 config=1 period=1000 sample_type=IDENTIFIER|IP|TID|TIME|PERIOD flags=sample_id_all|mmap|comm ids=2"
		echo "comm pid=100 tid=100 comm=x"
		echo "sample ip=0x1000 pid=100 tid=100 time=1000 period=1000 misc=user callchain=0x1000,0x2000"
		echo "sample ip=0x1000 pid=100 tid=100 time=1001 period=1000 misc=user callchain=0x1000,0x2000"
		echo "sample ip=0x3000 pid=100 tid=100 time=1002 period=1000 misc=user callchain=0xfffffffffffffe00"
		echo "sample ev=1 ip=0x4000 pid=100 tid=100 time=1003 period=1000 misc=user"
		echo "sample ev=1 ip=0x4000 pid=100 tid=100 time=1004 period=1000 misc=user"
	} >empty.spec &&
	"$TOOLS/pulse-synth" empty.spec empty.data &&
	printf "2 [unknown]\n2 [unknown];[unknown]\n" >expect &&
	tree empty.data >e.tree &&
	test_cmp expect e.tree &&
	tree empty.data --comms x >ec.tree &&
	test_cmp expect ec.tree &&
	echo "2 [unknown]" >expect1 &&
	tree empty.data -e task-clock >e1.tree &&
	test_cmp expect1 e1.tree &&
	tree empty.data -e task-clock --pid 100 >e1p.tree &&
	test_cmp expect1 e1p.tree
'

test_expect_success 'the same file drawn twice: the same SVG' '
	pulse flamegraph -q -i fs.data -o a.svg &&
	pulse flamegraph -q -i fs.data -o b.svg &&
	test_cmp a.svg b.svg
'

test_done
