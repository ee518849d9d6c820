#!/bin/bash
# pulse record -z / --compression-level[=n] parses its level as perf 6.1
# does: strtol(n, NULL, 0) into an unsigned int, never refused (exit 0);
# no number keeps the level given before, 0 is level 1, anything above 22
# (-1 too) is 22;
# --no-compression-level turns it off. Each spelling is run through perf
# and pulse: same exit status, same "# compressed" header line (level).
. "$(dirname "$0")/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

# level_of TOOL ARGS...: "rc=N <the compressed header line or none>"
level_of() {
	local tool=$1 rc=0; shift
	rm -f lv.data
	if [ "$tool" = perf ]; then
		timeout -k 5 "$TMO" perf record -q "$@" -e $TP -o lv.data -- $WL/getppid 10 \
			>/dev/null 2>lv.err || rc=$?
	else
		pulse record -q "$@" -e $TP -o lv.data -- $WL/getppid 10 >/dev/null 2>lv.err || rc=$?
	fi
	echo "rc=$rc $(perf report --header-only -i lv.data 2>/dev/null |
		sed -n "s/^# compressed : \(.*\), ratio = .*/\1/p")"
}

for args in "-z" "-z3" "-z22" "-z0" "-z=22" "-z99" "--compression-level" \
	"--compression-level=0" "--compression-level=1" "--compression-level=22" \
	"--compression-level=23" "--compression-level=-1" "--compression-level=abc" \
	"--compression-level=5x" "--compression-level=0x5" "--compression-level=010" \
	"--compression-level=1000000000000" "--compression-level=" \
	"--compression-level=7 --compression-level" "-z7 -z0" "-z99 -z" "--compression" \
	"--no-compression-level" "-z5 --no-compression-level" "--no-compression-level -z"; do
	test_expect_success PERF,ROOT,TRACEFS "record $args: as perf" '
		perf_says=$(level_of perf '"$args"') &&
		pulse_says=$(level_of pulse '"$args"') &&
		echo "# perf: $perf_says; pulse: $pulse_says" &&
		expect_eq "$pulse_says" "$perf_says"
	'
done

test_expect_success 'record -h lists -z, --compression-level' '
	expect_fail 129 help.err pulse record -h &&
	grep -q "^ *-z, --compression-level" help.err
'

test_done
