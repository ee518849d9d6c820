#!/bin/bash
# pulse script against perf script (6.1), byte for byte, for what t3001
# does not cover: the side-band lines (--show-task-events, -mmap-, -switch-,
# -namespace-, -cgroup-, -lost-, -bpf-, -round-events) interleaved in time
# order with the samples (file order with --show-round-events), the rarer
# -F fields (addr resolved for page faults, misc, weight, phys_addr, page
# sizes, flags, a fixed -c period), +/- and per-type -F, --ns, --reltime,
# --deltatime, -G, the sample filters (--comms, --pid, --tid, --cpu,
# --time, -S, --dsos), and perf's errors and warnings for -F. Every file
# is freshly recorded, by perf and by pulse; nothing is normalised.
. "$(dirname "$0")/lib/test-lib.sh"

# filters may leave nothing to print, on both sides
SAME_SCRIPT_EMPTY=ok

# has FILE PATTERN: the last pulse output of FILE has a line matching PATTERN
has() { grep -qE -- "$2" "$1.pulse" || { echo "no line matching '$2' in $1.pulse" >&2; return 1; }; }

test_expect_success PERF 'task and mmap events of a command (perf record)' '
	perf record -q -o fr.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script fr.data --show-task-events &&
	has fr.data "PERF_RECORD_COMM exec: forkrename:" &&
	has fr.data "^ *child-0 +[0-9]+ +[0-9.]+: PERF_RECORD_EXIT\(" &&
	has fr.data "PERF_RECORD_FORK\(" &&
	same_script fr.data --show-mmap-events &&
	has fr.data "^ *swapper +0 +0\.000000: PERF_RECORD_MMAP -1/0: " &&
	has fr.data "PERF_RECORD_MMAP2 [0-9]+/[0-9]+: \[0x" &&
	same_script fr.data --show-task-events --show-mmap-events
'

test_expect_success PERF 'task and mmap events: -a, -g, two events' '
	perf record -q -a -o fra.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script fra.data --show-task-events --show-mmap-events &&
	has fra.data "\[00[01]\] +[0-9.]+: PERF_RECORD_COMM" &&
	perf record -q -g -o frg.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script frg.data --show-task-events --show-mmap-events &&
	perf record -q -e cpu-clock,task-clock -o fr2.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script fr2.data --show-task-events --show-mmap-events
'

test_expect_success PERF 'task and mmap events of files pulse recorded (file, -a -g, pipe)' '
	pulse record -q -o pfr.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script pfr.data --show-task-events --show-mmap-events &&
	pulse record -q -a -g -o pfra.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script pfra.data --show-task-events --show-mmap-events &&
	pulse record -q -o - -- "$WL/forkrename" >pfrp.data 2>/dev/null &&
	same_script pfrp.data --show-task-events --show-mmap-events &&
	perf record -q -o - -- "$WL/forkrename" >frp.data 2>/dev/null &&
	same_script frp.data --show-task-events --show-mmap-events
'

test_expect_success PERF,TRACEFS 'task events between tracepoint samples' '
	perf record -q -a -e sched:sched_switch,sched:sched_process_exit -o tp.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script tp.data --show-task-events --show-mmap-events &&
	perf record -q -a -g -e sched:sched_switch -o tpg.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script tpg.data --show-task-events
'

# pulse record has no --switch-events: perf's files only
test_expect_success PERF 'switch events (perf record --switch-events; -a: cpu-wide, :-1 threads)' '
	perf record -q --switch-events -o sw.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script sw.data --show-switch-events &&
	has sw.data "PERF_RECORD_SWITCH OUT" &&
	perf record -q -a --switch-events -o swa.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script swa.data --show-switch-events &&
	has swa.data "PERF_RECORD_SWITCH_CPU_WIDE (IN|OUT)" &&
	same_script swa.data --show-switch-events --show-task-events --show-mmap-events -F +misc &&
	same_script swa.data --show-switch-events -C 1
'

test_expect_success PERF 'namespace and cgroup events' '
	perf record -q --namespaces --all-cgroups -o ns.data -- "$WL/forkrename" >/dev/null 2>&1 &&
	same_script ns.data --show-namespace-events &&
	has ns.data "PERF_RECORD_NAMESPACES [0-9]+/[0-9]+ - nr_namespaces: " &&
	same_script ns.data --show-cgroup-events &&
	same_script ns.data --show-namespace-events --show-cgroup-events --show-task-events
'

test_expect_success PERF 'bpf and lost events (whatever the recording holds)' '
	same_script fra.data --show-bpf-events &&
	perf record -q -m 1 -F 20000 -a -g -o lost.data -- "$WL/forkrename" 8 >/dev/null 2>&1 &&
	same_script lost.data --show-lost-events &&
	n=$(perf report -i lost.data --stats 2>/dev/null | sed -n "s/^ *LOST events: *\([0-9]*\).*/\1/p") &&
	expect_eq "$(grep -c PERF_RECORD_LOST lost.data.pulse)" "${n:-0}"
'

test_expect_success PERF 'round events: file order, FINISHED_ROUND lines' '
	same_script swa.data --show-round-events &&
	has swa.data "^PERF_RECORD_FINISHED_ROUND$" &&
	same_script lost.data --show-round-events --show-lost-events --show-task-events &&
	same_script pfra.data --show-round-events --show-mmap-events &&
	same_script frp.data --show-round-events --show-task-events
'

test_expect_success PERF '-F +/- and per-type selections' '
	same_script fr.data -F +pid &&
	same_script fr.data -F -period,-dso &&
	same_script fr.data -F -ip &&
	same_script fr.data -F -symoff &&
	same_script fr.data -F +pid,-time,-event &&
	same_script fr.data -F sw:comm,tid &&
	same_script fr.data -F sw:comm,tid,ip,sym,symoff,dso &&
	same_script fr.data -F sw:+pid &&
	same_script fr.data -F sw:-dso &&
	same_script fr.data -F sw:comm,cpu,addr &&
	same_script fr.data -F sw: &&
	same_script fr.data -F sw: --show-task-events &&
	same_script fr.data -F trace:comm &&
	same_script fr.data -F comm,tid -F sw:time &&
	same_script fr.data -F ip,sym,dso &&
	same_script fr.data -F comm,sym &&
	same_script tp.data -F trace:comm,event,trace &&
	same_script tp.data -F trace:comm,tid --show-task-events &&
	same_script frg.data -F comm,ip,sym,symoff,dso &&
	same_script frg.data -F -sym,-symoff -G
'

test_expect_success PERF '--ns, -G, misc, flags' '
	same_script fra.data --ns &&
	same_script fra.data --ns -F comm,tid,time,cpu --show-task-events &&
	same_script frg.data -G &&
	same_script frg.data -G --show-task-events &&
	same_script fr.data -F +misc &&
	same_script fr.data -F comm,tid,misc,time --show-task-events --show-mmap-events &&
	same_script fr.data -F +flags
'

test_expect_success PERF '--reltime and --deltatime (side-band lines count too)' '
	same_script fra.data --reltime &&
	same_script fra.data --deltatime --ns &&
	same_script frg.data --reltime --show-task-events --show-mmap-events &&
	same_script fr.data --deltatime -F comm,tid,time --show-task-events &&
	same_script fr.data --reltime --comms child-0
'

test_expect_success '--reltime starts at 0, --deltatime sums to it; not both' '
	"$PULSE" script -i "$PULSE_TOP/tests/data/perf-cpuclock.data" -F time --ns >abs &&
	"$PULSE" script -i "$PULSE_TOP/tests/data/perf-cpuclock.data" -F time --ns --reltime >rel &&
	"$PULSE" script -i "$PULSE_TOP/tests/data/perf-cpuclock.data" -F time --ns --deltatime >delta &&
	test "$(head -1 rel | tr -d " :")" = 0.000000000 &&
	test "$(head -1 delta | tr -d " :")" = 0.000000000 &&
	awk "{ t = \$1 + 0 } NR == 1 { t0 = t } END { printf \"%.6f\\n\", t - t0 }" abs >want &&
	awk "{ sum += \$1 } END { printf \"%.6f\\n\", sum }" delta >got &&
	test_cmp want got &&
	tail -1 rel | awk "{ printf \"%.6f\\n\", \$1 + 0 }" >got &&
	test_cmp want got &&
	code=0 &&
	"$PULSE" script -i "$PULSE_TOP/tests/data/perf-cpuclock.data" --reltime --deltatime \
		>/dev/null 2>&1 || code=$? &&
	test $code = 129
'

test_expect_success PERF 'addr of page faults (symbol and dso of the data address), fixed -c period' '
	perf record -q -e page-faults -c 1 -d -o pf.data -- "$WL/calltree" >/dev/null 2>&1 &&
	same_script pf.data &&
	has pf.data "^ *calltree +[0-9]+ +[0-9.]+: +1 page-faults: " &&
	same_script pf.data -F +addr &&
	has pf.data "page-faults: +[0-9a-f]+ [^ ]+ \(" &&
	same_script pf.data -F +addr,-symoff &&
	same_script pf.data -F +addr,-dso &&
	same_script pf.data -F comm,addr &&
	same_script pf.data -F comm,addr,sym,dso &&
	same_script pf.data -F ip,sym,symoff,addr,dso &&
	perf record -q -e page-faults -c 1 -d -a -o pfa.data -- "$WL/forkrename" 2 >/dev/null 2>&1 &&
	same_script pfa.data -F +addr &&
	pulse record -q -e page-faults -c 1 -o ppf.data -- "$WL/calltree" >/dev/null 2>&1 &&
	same_script ppf.data
'

test_expect_success PERF 'weight, phys_addr, data/code page sizes, ins_lat' '
	perf record -q -d -W --phys-data --data-page-size --code-page-size -o d.data -- "$WL/spin" >/dev/null 2>&1 &&
	same_script d.data -F +addr,+weight,+phys_addr &&
	same_script d.data -F +data_page_size,+code_page_size &&
	same_script d.data -F comm,weight,ins_lat &&
	same_script d.data -F +flags,+addr
'

test_expect_success PERF 'filters: --comms, --pid, --tid, --cpu, --time, -S, --dsos' '
	same_script fra.data --comms child-1 &&
	same_script fra.data --comms forkrename,child-2 --show-task-events &&
	tid=$(perf script -i fr.data -F tid,comm | awk "/child-2/ { print \$2; exit }") &&
	[ -n "$tid" ] &&
	same_script fr.data --tid "$tid" &&
	has fr.data "child-2" &&
	same_script fr.data --pid "$tid" &&
	same_script fr.data --pid 1 &&
	same_script fra.data -C 0 &&
	same_script fra.data -C 1 --show-task-events &&
	perf script -i fr.data -F time >fr.data.perf.all &&
	t1=$(sed -n "20p" fr.data.perf.all | tr -d " :") &&
	t2=$(sed -n "60p" fr.data.perf.all | tr -d " :") &&
	same_script fr.data --time "$t1,$t2" &&
	[ -s fr.data.pulse ] && [ $(wc -l <fr.data.pulse) -lt $(wc -l <fr.data.perf.all) ] &&
	same_script fr.data --time "$t2," &&
	same_script fr.data --time ",$t1" --show-task-events &&
	same_script fr.data -S child_burn &&
	same_script frg.data -S child_burn &&
	same_script fr.data --dsos "[kernel.kallsyms]"
'

test_expect_success PERF '-F errors: usage errors exit 129, fields the samples lack exit 1 with perf'"'"'s message' '
	expect_fail 129 err pulse script -i fr.data -F bogus &&
	one_error err "invalid field requested: .bogus." &&
	expect_fail 129 err pulse script -i fr.data -F foo:comm &&
	one_error err "invalid event type .foo." &&
	expect_fail 129 err pulse script -i fr.data -F comm,+tid &&
	one_error err "cannot mix" &&
	expect_fail 129 err pulse script -i fr.data -F sw:trace &&
	one_error err "not valid for software events" &&
	for f in "comm,addr" "+weight" "+phys_addr" "comm,cpu" "comm,symoff" "hw:"; do
		perf script -i fr.data -F "$f" >/dev/null 2>perf.err
		expect_fail 1 err pulse script -i fr.data -F "$f" &&
		one_error err . &&
		expect_eq "$(sed -n "s/^error: //p" err)" "$(grep -v "^$" perf.err | tr "\n" " " | sed "s/ \$//; s/notselected/not selected/")" ||
		return 1
	done &&
	expect_fail 1 err pulse script -i fr.data -C 0 &&
	one_error err "File does not contain CPU events"
'

# tod: the wall clock of each time, from CLOCK_DATA (perf record -k); a
# file without it is refused, a pipe without it prints "disabled".
test_expect_success PERF 'tod: perf'"'"'s time of day (file, pipe, side-band lines, --ns)' '
	perf record -q -k CLOCK_MONOTONIC -o k.data -- "$WL/spin" 50 >/dev/null 2>&1 &&
	perf record -q -k CLOCK_MONOTONIC -o - -- "$WL/spin" 50 >kp.data 2>/dev/null &&
	perf record -q -o - -- "$WL/spin" 50 >np.data 2>/dev/null &&
	same_script k.data -F +tod &&
	same_script k.data -F tod,time --ns --show-task-events &&
	same_script kp.data -F +tod &&
	same_script np.data -F comm,tod,time &&
	has np.data "^ *spin disabled " &&
	expect_fail 1 err pulse script -i fr.data -F +tod &&
	one_error err "Can.t provide .tod. time, missing clock data. Please record with -k/--clockid option."
'

# perf's -F warnings go to stderr and the run goes on: a -F over an earlier
# one, a field that some types never have (perf names only four types).
test_expect_success PERF '-F warnings: perf'"'"'s lines on stderr' '
	for f in "-F comm -F tid" "-F sw:comm -F comm" "-F comm -F sw:tid" \
		 "-F sw:comm -F sw:+tid" "-F comm,trace" "-F +trace" "-F +tid -F +comm"; do
		perf script -i fr.data $f >perf.out 2>perf.err &&
		"$PULSE" script -i fr.data $f >pulse.out 2>pulse.err &&
		diff -u perf.err pulse.err && diff -u perf.out pulse.out || return 1
	done &&
	"$PULSE" script -i fr.data -F comm -F tid >/dev/null 2>err &&
	grep -qx "Overriding previous field request for all events." err &&
	"$PULSE" script -i fr.data -F comm,trace >/dev/null 2>err &&
	test "$(grep -c "not valid for unknown events. Ignoring." err)" = 4
'

test_done
