#!/bin/bash
# Branch stacks (PERF_SAMPLE_BRANCH_STACK) against perf 6.1: report -D's
# "... branch stack" lines, script -F brstack/brstacksym/brstackoff, and
# report's branch mode (its default when the header has the BRANCH_STACK
# feature; -b forces it, --no-branch-stack turns it off) with the branch
# sort keys. This machine's PMU cannot record branch stacks, so the files
# are written by pulse-synth, in every layout: with and without hw_idx, with
# callchains, LBR call-stack mode, older attr sizes, no sample_id_all, pipe
# mode, and byte-swapped (pulse-mkdata swap). Symbols come from the calltree
# workload, mapped where its type (PIE or not) puts it. A few exact lines are
# checked without perf.
. "$(dirname "$0")/lib/test-lib.sh"

CT=$WL/calltree
# where calltree's file offset 0 is mapped, and its symbols' addresses there
if readelf -h "$CT" 2>/dev/null | grep -q 'Type: *EXEC'; then BASE=0; else BASE=0x555555554000; fi
sym() { printf '0x%x' $((BASE + 0x$(nm "$CT" | awk -v s="$1" '$3 == s { print $1 }') + ${2:-0})); }
MAIN=$(sym main) MID=$(sym mid) LEAF_A=$(sym leaf_a) LEAF_B=$(sym leaf_b)
MID8=$(sym mid 8) MAIN13=$(sym main 13) MAIN29=$(sym main 29)

# synth NAME [LAYOUT-LINES...]: NAME.data from the common events below
# (branch types, cycles, flags of every kind, unresolved and kernel
# addresses), with the layout the extra lines ask for
synth() {
	local name=$1 st=${ST:-IP|TID|TIME|PERIOD|BRANCH_STACK} bst=${BST:-ANY|USER}
	shift
	{
		printf '%s\n' "$@"
		echo "event name=cycles type=0 config=0 period=1000 sample_type=$st branch_sample_type=$bst flags=${FLAGS:-sample_id_all|mmap|comm|mmap2} ids=1"
		echo "feature event_desc"
		echo "feature branch_stack"
		echo "feature hostname synth"
		echo "comm pid=100 tid=100 comm=foo"
		echo "comm pid=101 tid=101 comm=barbaz"
		for p in 100 101; do
			if [ -n "${MMAP1-}" ]; then
				echo "mmap pid=$p tid=$p start=$BASE len=0x10000 pgoff=0 name=$CT"
			else
				echo "mmap2 pid=$p tid=$p start=$BASE len=0x10000 pgoff=0 name=$CT maj=0 min=0 ino=0 gen=0 prot=5 flags=2"
			fi
		done
		echo "sample ip=$LEAF_A pid=100 tid=100 time=1000 period=1000 misc=user hw_idx=3 callchain=0xfffffffffffffe00,$LEAF_A,$MID8 branch=$MID8/$LEAF_A/0x100002,$MAIN13/$MID/0x51,$MAIN29/$LEAF_A/0x3,0xffffffff81000000/$MAIN/0x4c,0x401000/0x401100/0xf00060,0x401a00/0x401b00/0x4100003"
		echo "sample ip=$LEAF_B pid=101 tid=101 time=2000 period=1000 misc=user hw_idx=0 callchain=0xfffffffffffffe00,$LEAF_B branch=$MID8/$LEAF_B/0x600002,$MAIN13/$MID/0x50,0x1/0x2/0xe000f0007,0x3/0x4/0x8f00000,0x5/0x6/0x24f00000,$MID8/$LEAF_A/0x2"
		# perf reads past an empty stack in call-stack mode: not there
		echo "sample ip=$MAIN pid=100 tid=100 time=3000 period=1000 misc=user hw_idx=1 callchain=0xfffffffffffffe00,$MAIN branch=${S3BR-}"
		echo "sample ip=$LEAF_A pid=100 tid=100 time=4000 period=1000 misc=user hw_idx=2 callchain=0xffffffffffffff80,0xffffffff81000000,0xfffffffffffffe00,$LEAF_A branch=$MID8/$LEAF_A/0xc,$MID8/$LEAF_A/0xc,$MID8/$LEAF_A/0x1"
	} >"$name.spec" && "$TOOLS/pulse-synth" "$name.spec" "$name.data"
}

# same_dump FILE ARGS...: report -D prints the same lines as perf's
same_dump() {
	local f=$1; shift
	perf report -D -i "$f" "$@" >"$f.perf.D" 2>/dev/null
	pulse report -D -i "$f" "$@" >"$f.pulse.D" 2>"$f.pulse.err" || { cat "$f.pulse.err"; return 1; }
	diff "$f.perf.D" "$f.pulse.D" >"$f.D.diff" || { head -20 "$f.D.diff"; return 1; }
}

# all_same FILE: -D, the script fields and the report sorts, as perf
all_same() {
	local f=$1
	same_dump "$f" &&
	for fields in brstack brstacksym brstackoff ip,sym,brstack,dso ip,sym,brstacksym,dso \
		      comm,tid,brstackoff,dso; do
		same_script "$f" -F "$fields" || return 1
	done &&
	for sort in "" "-s dso_from,dso_to" "-s mispredict,in_tx,abort" "-s cycles,comm" \
		    "-s dso_to,mispredict,cycles,in_tx" "-s dso,sym" "-s sym,dso_from,cycles"; do
		compare_report "$f" $sort || return 1
	done &&
	compare_report "$f" -n --show-total-period &&
	compare_report "$f" --no-branch-stack
}

test_expect_success 'files in every layout (pulse-synth, pulse-mkdata swap)' '
	synth plain &&
	BST="ANY|USER|HW_INDEX" synth hwidx &&
	ST="IP|TID|TIME|PERIOD|CALLCHAIN|BRANCH_STACK" BST="ANY|USER|HW_INDEX" synth chain &&
	ST="IP|TID|TIME|PERIOD|CALLCHAIN|BRANCH_STACK" BST="CALL_STACK|USER" S3BR="$MAIN13/$MID/0x0" synth callstack &&
	synth attr64 "attr_size 64" &&
	BST="ANY|HW_INDEX" synth attr80 "attr_size 80" &&
	FLAGS="mmap|comm|mmap2" synth noid &&
	BST="ANY|USER|HW_INDEX" synth pipe "format pipe" &&
	ST="IDENTIFIER|IP|TID|TIME|PERIOD|CALLCHAIN|BRANCH_STACK" BST="ANY|HW_INDEX" synth idf &&
	# perf 6.1 does not swap MMAP2 prot and flags: MMAP records here
	MMAP1=1 ST="IP|TID|TIME|PERIOD|CALLCHAIN|BRANCH_STACK" BST="ANY|USER|HW_INDEX" synth chain1 &&
	MMAP1=1 synth plain1 &&
	"$TOOLS/pulse-mkdata" swap chain1.data swapped.data &&
	"$TOOLS/pulse-mkdata" swap plain1.data swapped-plain.data
'

test_expect_success 'report -D: the branch stack lines, exactly' '
	pulse report -D -i plain.data >plain.D &&
	grep -A6 "^\.\.\. branch stack: nr:6" plain.D | head -7 >got &&
	cat >want <<-EOF &&
	... branch stack: nr:6
	.....  0: $(printf %016x $MID8) -> $(printf %016x $LEAF_A) 0 cycles  P   0 COND
	.....  1: $(printf %016x $MAIN13) -> $(printf %016x $MID) 5 cycles M    0 
	.....  2: $(printf %016x $MAIN29) -> $(printf %016x $LEAF_A) 0 cycles MP   0 
	.....  3: ffffffff81000000 -> $(printf %016x $MAIN) 4 cycles   AT 0 
	.....  4: 0000000000401000 -> 0000000000401100 6 cycles      0 FAULT_ALGN
	.....  5: 0000000000401a00 -> 0000000000401b00 0 cycles MP   0 COND
	EOF
	test_cmp want got &&
	grep -q "^\.\.\.\.\.  2: 0000000000000001 -> 0000000000000002 61440 cycles MP T 7 $" plain.D &&
	grep -q "^\.\.\.\.\.  4: 0000000000000005 -> 0000000000000006 0 cycles      0 (null)$" plain.D &&
	grep -q "^\.\.\. branch stack: nr:0$" plain.D &&
	grep -q "^          SAMPLE events:         15$" plain.D &&
	pulse report -D --no-branch-stack -i plain.data | grep -q "^          SAMPLE events:          4$" &&
	pulse report -D -i callstack.data >cs.D &&
	grep -q "^\.\.\. LBR call chain: nr:7$" cs.D &&
	grep -q "^\.\.\. branch callstack: nr:4$" cs.D
'

test_expect_success 'script -F brstack, brstacksym: exactly' '
	pulse script -F brstack -i plain.data >got &&
	head -1 got >got1 &&
	echo " $MID8/$LEAF_A/P/-/-/0/COND  $MAIN13/$MID/M/-/-/5/  $MAIN29/$LEAF_A/P/-/-/0/  0xffffffff81000000/$MAIN/-/X/A/4/  0x401000/0x401100/-/-/-/6/FAULT_ALGN  0x401a00/0x401b00/P/-/-/0/COND " >want &&
	test_cmp want got1 &&
	pulse script -F brstacksym -i plain.data | head -1 >got &&
	echo "mid+0x8/leaf_a+0x0/P/-/-/0/COND main+0xd/mid+0x0/M/-/-/5/ main+0x1d/leaf_a+0x0/P/-/-/0/ [unknown]/main+0x0/-/X/A/4/ [unknown]/[unknown]/-/-/-/6/FAULT_ALGN [unknown]/[unknown]/P/-/-/0/COND " >want &&
	test_cmp want got
'

test_expect_success 'report: branch mode rows and statistics, exactly' '
	pulse report --stdio -i plain.data -s mispredict,in_tx >got &&
	sed -n "6,14p" got >rows &&
	cat >want <<-EOF &&
	# Samples: 15  of event '"'"'cycles'"'"'
	# Event count (approx.): 15
	#
	# Overhead  Branch Mispredicted  Branch in transaction
	# ........  ...................  .....................
	#
	    20.00%  N/A                  .                    
	    20.00%  N/A                  T                    
	     6.67%  Y                    .                    
	EOF
	test_cmp want rows &&
	# the last line has no newline, as perf'"'"'s
	sed -n "/^# Branch Statistics/,\$p" got >stats &&
	printf "# Branch Statistics:\n#\nCOND_FWD:  33.3%%\nCOND_BWD:  33.3%%\n    COND:  66.7%%\n     RET:  33.3%%\nFAULT_ALGN:  33.3%%" >want &&
	cmp want stats
'

for f in plain hwidx chain callstack attr64 attr80 noid idf swapped swapped-plain; do
	test_expect_success PERF "$f: report -D, script and report as perf" "all_same $f.data"
done

test_expect_success PERF 'pipe: -D, script, report (not branch mode unless -b) as perf' '
	same_dump pipe.data &&
	same_dump pipe.data --branch-stack &&
	same_script pipe.data -F ip,brstack,brstacksym &&
	compare_report pipe.data &&
	compare_report pipe.data -b -s dso_from,symbol_to
'

test_expect_success PERF 'report filters in branch mode: hidden entries, totals, elided columns' '
	for o in "--comms foo" "--comms foo -s comm" "--comms foo,barbaz -s comm,cycles" \
		 "--pid 101" "--percentage relative --tid 100" "-S mid -n" "--dsos calltree" \
		 "-C 0" "--percent-limit 10" "-s dso,sym --dsos calltree" "-s sym,dso -S mid" \
		 "-s comm,dso,sym --comms foo --dsos calltree -S leaf_a" "-s pid,dso_to --dsos calltree,x"; do
		compare_report plain.data $o || return 1
	done
'

test_expect_success PERF 'report --header: a hardware event'"'"'s attr, the branch stack feature' '
	compare_report plain.data --header-only &&
	grep -q "^# contains samples with branch stack$" pulse.out &&
	compare_report hwidx.data --header -s cycles
'

test_expect_success PERF 'report -g in branch mode: branches have no callchains' '
	compare_report chain.data -g &&
	compare_report chain.data -g caller,0.5,callee --no-children &&
	compare_report callstack.data -g --no-branch-stack
'

test_expect_success PERF 'report: sorts naming a symbol get perf'"'"'s IPC column' '
	compare_report plain.data -s symbol_from &&
	compare_report noid.data -s dso_from,symbol_to
'

# perf says "Error:" and exits 0; pulse exits 1, as for -g without callchains
test_expect_success PERF '--branch-stack without branch stacks: perf'"'"'s reason, exit 1' '
	echo "event name=cycles type=0 config=0 period=1000 sample_type=IP|TID|TIME|PERIOD flags=sample_id_all ids=1" >nob.spec &&
	echo "sample ip=0x401000 pid=1 tid=1 time=1 period=1 misc=user" >>nob.spec &&
	"$TOOLS/pulse-synth" nob.spec nob.data &&
	for a in --stdio -D; do
		perf report $a -b -i nob.data >perf.out 2>perf.err &&
		grep -qx "Selected -b but no branch data. Did you call perf record without -b?" perf.err &&
		expect_fail 1 pulse.err pulse report $a -b -i nob.data &&
		echo "error: Selected -b but no branch data. Did you call perf record without -b?" >want &&
		test_cmp want pulse.err && test_must_be_empty pulse.err.out || return 1
	done
'

# many samples, three threads (one renamed), branches between symbols,
# unmapped and kernel addresses with random flags: the entries perf merges
# and the order of its rows come from the shape of its trees
mixed() {
	awk -v seed="$1" -v ct="$CT" -v base="$BASE" -v a="$MAIN $MID $LEAF_A $LEAF_B $MID8 $MAIN13 $MAIN29" '
	BEGIN {
		srand(seed)
		n = split(a " 0x401000 0x401100 0xffffffff81000000 0x7f0000001000 0x1", addr, " ")
		print "event name=cycles type=0 config=0 period=1000 sample_type=IDENTIFIER|IP|TID|TIME|PERIOD|BRANCH_STACK branch_sample_type=ANY flags=sample_id_all|mmap|comm|mmap2 ids=1"
		print "event name=instructions type=0 config=1 period=1000 sample_type=IDENTIFIER|IP|TID|TIME|PERIOD|CALLCHAIN|BRANCH_STACK branch_sample_type=ANY|HW_INDEX flags=sample_id_all ids=2"
		print "feature event_desc"; print "feature branch_stack"
		split("foo barbaz x", comm, " ")
		for (p = 0; p < 3; p++) {
			print "comm pid=" 100 + p " tid=" 100 + p " comm=" comm[p + 1]
			print "mmap2 pid=" 100 + p " tid=" 100 + p " start=" base " len=0x10000 pgoff=0 name=" ct " maj=0 min=0 ino=0 gen=0 prot=5 flags=2"
		}
		t = 1000
		for (i = 0; i < 60; i++) {
			p = 100 + int(rand() * 3); t += 1 + int(rand() * 100); ev = int(rand() * 2)
			if (i == 30)
				print "comm pid=101 tid=101 comm=renamed time=" t
			br = ""
			for (j = int(rand() * 9); j > 0; j--) {
				fl = 0
				if (rand() < 0.5) fl += 1 + int(rand() * 3)
				if (rand() < 0.2) fl += 4
				if (rand() < 0.2) fl += 8
				if (rand() < 0.3) fl += 16 * (1 + int(rand() * 3))
				if (rand() < 0.4) fl += 1048576 * int(rand() * 16)
				if (rand() < 0.2) fl += 16777216 * (int(rand() * 4) + 4 * int(rand() * 12))
				br = br (br == "" ? "" : ",") addr[1 + int(rand() * n)] "/" addr[1 + int(rand() * n)] "/" sprintf("0x%x", fl)
			}
			printf "sample ev=%d ip=%s pid=%d tid=%d time=%d period=1000 misc=user%s branch=%s\n", ev, addr[1], p, p, t, ev ? " hw_idx=3 callchain=0xfffffffffffffe00,0x401000" : "", br
		}
	}' >"mixed$1.spec" && "$TOOLS/pulse-synth" "mixed$1.spec" "mixed$1.data"
}

test_expect_success PERF 'many branches, two events, three threads: rows as perf' '
	for seed in 1 2 3 4 5 6; do
		mixed $seed &&
		compare_report mixed$seed.data &&
		compare_report mixed$seed.data -s mispredict,in_tx,abort &&
		compare_report mixed$seed.data -s cycles,dso_to,in_tx &&
		compare_report mixed$seed.data -s comm,dso_from,abort &&
		compare_report mixed$seed.data -s dso,sym,mispredict &&
		same_dump mixed$seed.data &&
		same_script mixed$seed.data -F comm,brstack,brstacksym || return 1
	done
'

test_done
