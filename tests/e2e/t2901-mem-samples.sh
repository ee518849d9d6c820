#!/bin/bash
# Memory samples (DATA_SRC, WEIGHT / WEIGHT_STRUCT, ADDR, PHYS_ADDR), which
# this machine cannot record: files written by pulse-synth in several
# layouts (perf mem's raw cpu/mem-loads/ event, an AMD ibs_op-like dynamic
# PMU type, a hardware event; WEIGHT and WEIGHT_STRUCT; 64-, 96-, 112- and
# 128-byte attrs, with and without sample_id_all and sample ids; file and
# pipe mode; byte-swapped; callchains), against
# perf 6.1's script and report on the same files, plus exact lines that
# need no perf. The samples land in the test's own calltree binary (code)
# and in its data segment, the stack and unmapped memory (data).
. "$(dirname "$0")/lib/test-lib.sh"

SYNTH=$TOOLS/pulse-synth
BIN=$WL/calltree
[ -x "$SYNTH" ] && [ -x "$BIN" ] || { echo "Bail out! build pulse-synth and the workloads first"; exit 1; }

# where calltree's functions and data are, mapped as perf maps a PIE
BASE=0x555555554000
sym_addr() { printf '0x%x' $((BASE + 0x$(nm "$BIN" | awk -v s="$1" '$3 == s { print $1 }'))); }
LEAF_A=$(sym_addr leaf_a)
MAIN=$(sym_addr main)
DATA=$(sym_addr __data_start)

# ds OP LVL SNOOP LOCK DTLB LVLNUM REMOTE SNOOPX BLK HOPS: a data_src value
ds() {
	printf '0x%x' $(($1 | $2 << 5 | $3 << 19 | $4 << 24 | $5 << 26 | $6 << 33 | $7 << 37 |
			 $8 << 38 | $9 << 40 | ${10} << 43))
}

# What perf mem records, by kind: Intel loads and stores (mem_lvl bits),
# AMD/Power-style lvl_num with remote and hops, N/A and odd mixtures.
KINDS=(
	"$(ds 2 0x0a 2 2 0x0a 0 0 0 1 0)"	# load L1 hit, snoop none, TLB L1 hit
	"$(ds 2 0x0a 2 2 0x0a 1 0 0 1 0)"	# the same with lvl_num L1 ("L1 or L1 hit")
	"$(ds 2 0x22 2 2 0x12 0 0 0 1 0)"	# L2 hit, TLB L2 hit
	"$(ds 2 0x42 0x10 0x2 0x0c 0 0 0 1 0)"	# L3 hit, HitM, locked, TLB walker
	"$(ds 2 0x84 8 2 0x24 0 0 0 1 0)"	# local RAM miss, snoop miss
	"$(ds 2 0x402 4 2 0x0a 0 0 0 1 0)"	# remote cache (1 hop)
	"$(ds 2 0x12 1 2 0x0a 0 0 0 2 0)"	# LFB hit, blocked by data
	"$(ds 2 0x02 1 1 0x01 0xb 1 0 4 2)"	# remote node any cache, blocked by address
	"$(ds 2 0x02 1 1 0x01 0xd 1 0 0 3)"	# remote socket RAM
	"$(ds 2 0x02 1 1 0x01 0x1 0 0 0 0)"	# lvl_num L1 only
	"$(ds 2 0x02 1 1 0x01 0x9 0 2 0 0)"	# CXL, snoop peer
	"$(ds 2 0x02 0x10 1 0x41 0xc 1 1 0 1)"	# remote core LFB, HitM or Fwd
	"$(ds 4 0x0a 1 2 0x0a 0 0 0 1 0)"	# store L1 hit
	"$(ds 4 0x0c 1 2 0x0a 0 0 0 1 0)"	# store L1 miss
	"$(ds 4 0x01 1 1 0x01 0 0 0 1 0)"	# store N/A
	"$(ds 1 0 0 0 0 0 0 0 0 0)"		# op N/A
	"$(ds 8 0x1002 0 0 0x40 0xf 0 0 0 0)"	# prefetch I/O, lvl_num N/A
	"$(ds 0x10 0x2002 0 0 0 0 0 0 0 0)"	# exec uncached
	"$(ds 2 0x3f02 0x1f 2 0x7f 0xe 1 3 6 4)"	# every bit: perf's cut at 99 characters
	0x0
)

# gen KIND-OFFSET N EV MISC...: N sample lines of event EV, data_src from
# KINDS, weights, instruction latencies and data addresses varied
gen() {
	local off=$1 n=$2 ev=$3 i k ip addr
	for ((i = 0; i < n; i++)); do
		k=$(((i * 7 + off) % ${#KINDS[@]}))
		ip=$([ $((i % 3)) = 0 ] && echo "$MAIN" || echo "$LEAF_A")
		case $((i % 4)) in
		0) addr=$DATA ;;
		1) addr=$((DATA + 8 * (i % 3))) ;;
		2) addr=0x7ffd12340000 ;;
		3) addr=$((0x7f0000001000 + 64 * (i % 5))) ;;
		esac
		echo "sample ev=$ev ip=$ip pid=4242 tid=4242 time=$((1000000 + i * 1000)) addr=$addr" \
		     "cpu=$((i % 2)) period=$((1000 + i)) weight=$(((i * 37) % 11 * 10)) ins_lat=$((i % 4 * 3))" \
		     "p_stage=$((i % 2)) data_src=${KINDS[$k]} phys_addr=$((0x1000000 + i * 4096)) misc=user"
	done
}

# spec NAME TYPE CONFIG STYPE [format=..] [attr_size=..] [flags=..]: one
# event's file with the calltree maps and 60 samples
spec() {
	local name=$1 type=$2 config=$3 stype=$4 format=file asz=128 flags=sample_id_all\|comm\|mmap\|mmap2
	local desc=1
	shift 4
	local a
	for a in "$@"; do
		case $a in
		format=*) format=${a#format=} ;;
		attr_size=*) asz=${a#attr_size=} ;;
		flags=*) flags=${a#flags=} ;;
		nodesc) desc=0 ;;
		esac
	done
	cat <<-EOF
	format $format
	attr_size $asz
	event name=$name type=$type config=$config period=1000 sample_type=$stype ids=11 flags=$flags
	$([ $format = pipe ] || [ $desc = 0 ] || echo feature event_desc)
	comm pid=4242 tid=4242 comm=memload time=900000
	mmap2 pid=4242 tid=4242 start=$((BASE + 0x1000)) len=0x1000 pgoff=0x1000 name=$BIN maj=8 min=1 ino=77 gen=0 prot=5 flags=2 time=900001
	mmap2 pid=4242 tid=4242 start=$((BASE + 0x3000)) len=0x2000 pgoff=0x2000 name=$BIN maj=8 min=1 ino=77 gen=0 prot=3 flags=2 time=900002
	mmap2 pid=4242 tid=4242 start=0x7f0000001000 len=0x80 pgoff=0 name=$WL/spin maj=8 min=1 ino=78 gen=0 prot=3 flags=2 time=900003
	EOF
	gen 0 40 0
	gen 3 20 0
}

STYPE=IP\|TID\|TIME\|ADDR\|ID\|CPU\|PERIOD\|WEIGHT\|DATA_SRC\|PHYS_ADDR
STYPE_S=IP\|TID\|TIME\|ADDR\|ID\|CPU\|PERIOD\|WEIGHT_STRUCT\|DATA_SRC\|PHYS_ADDR
LOADS=cpu/mem-loads,ldlat=30/P

# the generator is test scaffolding: a sanitizer build's leak report on
# its exit (it frees nothing) is not the product's
synth() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 "$SYNTH" "$1" "$2" 2>"$2.err" ||
		{ cat "$2.err" >&2; return 1; }
}

test_expect_success 'pulse-synth writes the memory files' '
	spec "$LOADS" 4 0x1cd "$STYPE" >loads.spec && synth loads.spec loads.data &&
	spec "$LOADS" 4 0x1cd "$STYPE_S" >struct.spec && synth struct.spec struct.data &&
	spec "$LOADS" 4 0x1cd "$STYPE" format=pipe >pipe.spec && synth pipe.spec pipe.data &&
	spec "$LOADS" 4 0x1cd "$STYPE" attr_size=64 flags=comm\|mmap\|mmap2 >old.spec &&
	synth old.spec old.data &&
	spec "$LOADS" 4 0x1cd IP\|TID\|TIME\|ADDR\|CPU\|PERIOD\|WEIGHT\|DATA_SRC attr_size=96 \
	     flags=comm\|mmap\|mmap2 >noid.spec && synth noid.spec noid.data &&
	spec "$LOADS" 4 0x1cd IP\|TID\|TIME\|ADDR\|CPU\|PERIOD\|WEIGHT_STRUCT\|DATA_SRC\|PHYS_ADDR \
	     attr_size=112 format=pipe >pipe112.spec && synth pipe112.spec pipe112.data &&
	spec ibs_op// 11 0 "$STYPE" >ibs.spec && synth ibs.spec ibs.data &&
	spec cycles 0 0 "$STYPE" >hw.spec && synth hw.spec hw.data &&
	spec "$LOADS" 4 0x1cd "$STYPE_S" nodesc >nodesc.spec && synth nodesc.spec nodesc.data &&
	"$TOOLS/pulse-mkdata" swap nodesc.data swapped.data &&
	"$TOOLS/pulse-mkdata" swap pipe.data swapped-pipe.data
'

# exact lines: perf 6.1 printed these for the same samples
test_expect_success 'script: the data_src column as perf prints it' '
	pulse script -i loads.data -F data_src >ds.out &&
	sed -n 1p ds.out >line1 &&
	echo "     1002a100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK Yes|BLK  N/A" >expect &&
	test_cmp expect line1 &&
	echo "    143605080042 |OP LOAD|LVL Remote node, same socket Any cache hit|SNP N/A|TLB N/A|LCK N/A|BLK  A" >expect &&
	sed -n 3p ds.out >line3 && test_cmp expect line3 &&
	grep -q "^     1022a100142 |OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 hit|LCK Yes|BLK  N/A \{20\}$" ds.out &&
	grep -q "|LVL Remote core, same node LFB/MAB hit|SNP HitM or Fwd|TLB N/A or Fault|L$" ds.out &&
	grep -q "^ \{15\}1 |OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A *$" ds.out &&
	grep -q "^ \{15\}0 |OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A *$" ds.out &&
	awk "{ if (length(\$0) != 99 && NR > 2) exit 1 }" ds.out
'

test_expect_success 'script: default fields of raw, dynamic-PMU and hardware memory events' '
	pulse script -i loads.data >def.out &&
	grep -q "^ *memload  4242 \[000\]     0.001000: *1000 cpu/mem-loads,ldlat=30/P:     ${DATA#0x}     1002a100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 hit|LCK Yes|BLK  N/A               0     ${MAIN#0x} main+0x0 (.*/calltree)         1000000$" def.out &&
	pulse script -i ibs.data >ibs.out &&
	not grep -q "|OP " ibs.out
'

test_expect_success PERF 'script vs perf: default line (raw, WEIGHT and WEIGHT_STRUCT)' '
	same_script loads.data &&
	same_script struct.data &&
	same_script ibs.data &&
	same_script hw.data
'

test_expect_success PERF 'script vs perf: -F with data_src, weight, ins_lat, addr, phys_addr' '
	same_script loads.data -F data_src &&
	same_script loads.data -F ip,sym,addr,data_src,weight,phys_addr &&
	same_script struct.data -F+ins_lat &&
	same_script struct.data -F weight,ins_lat,data_src &&
	same_script ibs.data -F comm,addr,data_src,weight,sym &&
	same_script hw.data -F+data_src,+addr &&
	same_script loads.data -F raw:data_src,weight
'

test_expect_success PERF 'script vs perf: pipe, old attr without sample_id_all, byte-swapped' '
	same_script pipe.data &&
	same_script old.data &&
	same_script noid.data &&
	same_script pipe112.data -F+ins_lat &&
	same_script swapped.data &&
	# perf 6.1 does not swap the u32 halves of CPU in a swapped pipe (its
	# evsels there lack needs_swap): the cpu column is left out
	same_script swapped-pipe.data -F comm,tid,time,event,addr,data_src,weight,ip,sym,phys_addr &&
	same_script swapped.data -F+ins_lat,+data_src
'

test_expect_success PERF 'script vs perf: a field the samples lack' '
	spec "$LOADS" 4 0x1cd IP\|TID\|TIME\|PERIOD\|WEIGHT >nods.spec && synth nods.spec nods.data &&
	same_script nods.data &&
	not perf script -i nods.data -F ip,data_src >/dev/null 2>perf.err &&
	not pulse script -i nods.data -F ip,data_src >/dev/null 2>pulse.err &&
	grep -q "do not have DATA_SRC attribute set" pulse.err
'

test_expect_success PERF 'report -D vs perf: weight, data_src, phys_addr lines' '
	for f in loads struct swapped; do
		perf report -D -i $f.data 2>/dev/null | grep -E "^(\.\.\. weight|  *\. data_src| \.\. phys_addr)" >$f.dperf &&
		pulse report -D -i $f.data 2>/dev/null | grep -E "^(\.\.\. weight|  *\. data_src| \.\. phys_addr)" >$f.dpulse &&
		test_cmp $f.dperf $f.dpulse && test -s $f.dperf || return 1
	done &&
	grep -q "^\.\.\. weight: 10,0x3,0x0$" struct.dpulse
'

# same_report FILE ARGS...: pulse report --stdio prints what perf's does
# (file or pipe), perf's random tip left out
same_report() {
	local f=$1; shift
	perf_in "$f" report --stdio "$@" 2>/dev/null | grep -v "^# (Tip:" >"$f.rperf" || {
		echo "perf report $* failed on $f" >&2; return 1; }
	pulse_in "$f" report --stdio "$@" 2>"$f.rerr" | grep -v "^# (Tip:" >"$f.rpulse" || {
		cat "$f.rerr" >&2; return 1; }
	grep -q "%" "$f.rperf" || { echo "perf printed no rows for $f $*" >&2; return 1; }
	diff -u "$f.rperf" "$f.rpulse" >"$f.rdiff" || {
		echo "report $* differs on $f:" >&2; head -30 "$f.rdiff" >&2; return 1; }
}

test_expect_success PERF 'report --mem-mode vs perf (perf mem report'"'"'s default keys)' '
	for f in loads struct ibs hw pipe old noid pipe112 swapped; do
		same_report $f.data --mem-mode &&
		same_report $f.data --mem-mode -n || return 1
	done
'

test_expect_success PERF 'report: each memory key vs perf' '
	for k in mem symbol_daddr dso_daddr snoop tlb locked blocked local_weight weight \
		 local_ins_lat ins_lat; do
		same_report loads.data --mem-mode --sort $k &&
		same_report struct.data --mem-mode --sort $k || return 1
	done &&
	same_report loads.data --mem-mode --sort dso_daddr,tlb,snoop,mem &&
	same_report loads.data --mem-mode --sort blocked,locked &&
	same_report loads.data --mem-mode --sort symbol_daddr,dso_daddr,sym &&
	same_report struct.data --mem-mode -n --sort weight,sym,symbol_daddr &&
	same_report pipe.data --mem-mode --sort mem,snoop,tlb,locked,blocked,dso_daddr
'

test_expect_success PERF 'report: weight keys without --mem-mode, p_stage_cyc dropped as on x86' '
	same_report loads.data --sort local_weight,weight,ins_lat,local_ins_lat,p_stage_cyc &&
	same_report struct.data --sort sym,weight,dso &&
	same_report struct.data -n --sort ins_lat,local_ins_lat,local_p_stage_cyc &&
	same_report swapped.data --sort local_ins_lat,comm &&
	same_report struct.data --sort symbol_size
'

test_expect_success PERF 'report vs perf: callchains (--mem-mode, --children), weight 0, address 0' '
	cat >cc.spec <<-EOF &&
	event name=$LOADS type=4 config=0x1cd period=1000 sample_type=IP|TID|TIME|ADDR|ID|CPU|PERIOD|CALLCHAIN|WEIGHT|DATA_SRC ids=11 flags=sample_id_all|comm|mmap|mmap2
	feature event_desc
	comm pid=4242 tid=4242 comm=memload time=900000
	mmap2 pid=4242 tid=4242 start=$((BASE + 0x1000)) len=0x1000 pgoff=0x1000 name=$BIN maj=8 min=1 ino=77 gen=0 prot=5 flags=2 time=900001
	mmap2 pid=4242 tid=4242 start=$((BASE + 0x3000)) len=0x2000 pgoff=0x2000 name=$BIN maj=8 min=1 ino=77 gen=0 prot=3 flags=2 time=900002
	sample ev=0 ip=$LEAF_A pid=4242 tid=4242 time=1000000 addr=$DATA cpu=0 weight=30 data_src=0x1002a100142 callchain=0xfffffffffffffe00,$LEAF_A,$MAIN misc=user
	sample ev=0 ip=$LEAF_A pid=4242 tid=4242 time=1001000 addr=$((DATA + 8)) cpu=0 weight=40 data_src=0x1002a100142 callchain=0xfffffffffffffe00,$LEAF_A,$MAIN misc=user
	sample ev=0 ip=$MAIN pid=4242 tid=4242 time=1003000 addr=0 cpu=0 weight=0 data_src=0x1002a100142 callchain=0xfffffffffffffe00,$MAIN misc=user
	EOF
	synth cc.spec cc.data &&
	same_report cc.data --mem-mode &&
	same_report cc.data --mem-mode -g none --sort symbol_daddr,mem &&
	grep -q "\[.\] 0000000000000000 " cc.data.rpulse &&
	# --children: perf looks a frame up without its weight, and a sample
	# with a weight adds to its own entry twice
	same_report cc.data --sort local_weight,sym &&
	same_report cc.data --sort weight,sym -g caller &&
	same_report cc.data --no-children --sort ins_lat,sym &&
	same_script cc.data
'

test_expect_success 'report: the memory columns, exactly' '
	pulse report -i struct.data --stdio --mem-mode >mm.out &&
	grep -q "^# Total weight : 2946$" mm.out &&
	grep -q "^# Sort order   : local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc$" mm.out &&
	grep -q "^# Overhead  Local Weight  Memory access             Symbol      Shared Object  Data Symbol                         Data Object       Snoop         TLB access              Locked  Blocked     Local INSTR Latency$" mm.out &&
	grep -q "^ *[0-9.]*%  100           N/A                       \[.\] leaf_a  calltree       \[.\] __data_start                    calltree          N/A           N/A                     No       N/A        [0-9] *$" mm.out &&
	grep -q "\[.\] 0x00007ffd12340000              \[unknown\]" mm.out &&
	grep -q " spin  " mm.out
'

test_expect_success PERF 'report: memory keys need --mem-mode, --mem-mode needs DATA_SRC' '
	expect_fail 129 sort.err pulse report -i loads.data --stdio --sort mem &&
	one_error sort.err "memory key" &&
	expect_fail 1 nods.err pulse report -i nods.data --stdio --mem-mode &&
	one_error nods.err "no mem data"
'

test_done
