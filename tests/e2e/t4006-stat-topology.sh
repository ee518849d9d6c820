#!/bin/bash
# pulse stat --per-core, --per-socket, --per-die, --per-node: rows keyed by
# the sysfs topology, key by key with every event, the aggregate's cpu
# count, default, -x, -j and -I layouts against perf 6.1's.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/stat-lib.sh"

for m in core socket die node; do
	test_expect_success PERF "--per-$m: perf's rows and columns, default, -x, -j, -I" '
		both --per-'$m' -a -e cpu-clock,page-faults,cycles -- $WL/spin 100
		shape perf.out >a; shape pulse.out >b; test_cmp a b
		both --per-'$m' -a -x, -e cpu-clock,page-faults,cycles -- $WL/spin 100
		fields perf.out >a; fields pulse.out >b; test_cmp a b
		both --per-'$m' -a -j -e cpu-clock,page-faults,cycles -- $WL/spin 100
		fields perf.out >a; fields pulse.out >b; test_cmp a b
		both --per-'$m' -a -I 100 --interval-count 2 -e cpu-clock
		shape perf.out >a; shape pulse.out >b; test_cmp a b
	'
done

test_expect_success '--per-socket: the key is the package of each cpu, counting every cpu' '
	n=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | wc -l)
	s=$(cat /sys/devices/system/cpu/cpu0/topology/physical_package_id)
	pulse stat --per-socket -a -x, -e cpu-clock -- $WL/spin 50 2>out
	grep -q "^S$s,$n,[0-9.]*,msec,cpu-clock," out
	pulse stat --per-core -C 0 -x, -e cpu-clock -- $WL/spin 50 2>out
	expect_eq "$(wc -l <out)" 1
	grep -q "^S$s-D[0-9]*-C$(cat /sys/devices/system/cpu/cpu0/topology/core_id),1," out
'

test_expect_success TRACEFS '--per-node: the calls of the workload are in its node'"'"'s row' '
	pulse stat --per-node -a -x, -e syscalls:sys_enter_getppid -- $WL/getppid 3000 2>out
	expect_ge "$(awk -F, "{n += \$3} END {print n}" out)" 3000
'

test_expect_success 'usage errors: without -a/-C, two modes at once' '
	expect_fail 129 err pulse stat --per-core -- true
	one_error err "need -a or -C"
	expect_fail 129 err pulse stat --per-core --per-socket -a -- true
	one_error err "exclude each other"
'

test_done
