#!/bin/bash
# pulse report -D and --stats on zstd-compressed (-z) recordings against
# perf 6.1 on the same files and streams, fresh from perf record: file and
# pipe mode, -a, -g, a tracepoint, two events, and a file turned into a
# pipe stream by pulse-mkdata. perf counts each COMPRESSED record and each
# record in it; in pipe mode pulse cannot peek at the file for them.
#
# perf 6.1's --stats fails on a compressed pipe ("Couldn't decompress
# data": its stats tool skips the FEATURE record that sizes the buffer), so
# pulse's --stats on a pipe is compared with the tables that end perf's -D
# of the same stream. Lines that depend on this machine rather than the
# file are normalised on both sides as in t2501.
. "$(dirname "$0")/lib/test-lib.sh"

norm() {
	sed -E 's#dso: /tmp/perf-vdso\.so-[A-Za-z0-9]{6}$#dso: [vdso]#' |
	awk '/PERF_RECORD_SAMPLE\(IP, 0x1\)/ { k = 1 }
	     /^$/ { k = 0 }
	     /^ \.\.\.\.\.\. dso: / && k { k = 0; next }
	     { print }'
}

# stats_of: the stats tables that end a -D, as --stats prints them
stats_of() {
	echo
	sed -n '/^Aggregated stats:/,$p'
}

# check NAME: NAME.data (file) and NAME.pipe (the same recording's stream)
check() {
	perf report -D -i "$1.data" 2>/dev/null | norm >expect.fD
	pulse report -D -i "$1.data" 2>err | norm >actual.fD
	cmp expect.fD actual.fD || { diff expect.fD actual.fD | head -20; false; }
	test ! -s err || { cat err; false; }

	perf report --stats -i "$1.data" >expect.fS 2>&1
	pulse report --stats -i "$1.data" >actual.fS 2>&1
	cmp expect.fS actual.fS || { diff expect.fS actual.fS; false; }
	grep -q "COMPRESSED events:" actual.fS

	perf report -D -i - <"$1.pipe" 2>/dev/null | norm >expect.pD
	pulse report -D -i - <"$1.pipe" 2>err | norm >actual.pD
	cmp expect.pD actual.pD || { diff expect.pD actual.pD | head -20; false; }
	test ! -s err || { cat err; false; }
	grep -q "COMPRESSED events:" actual.pD

	stats_of <expect.pD >expect.pS
	pulse report --stats -i - <"$1.pipe" >actual.pS 2>&1
	cmp expect.pS actual.pS || { diff expect.pS actual.pS; false; }
}

CASES="spin|-e cpu-clock -c 100000
a|-a -e cpu-clock -c 1000000
g|-e cpu-clock -c 100000 -g
twoev|-e cpu-clock -e task-clock -c 200000"

while IFS='|' read -r name opts; do
	test_expect_success PERF,ROOT "perf record -z $opts: file and pipe" '
		perf record -q -z -o '"$name"'.data '"$opts"' -- $WL/spin 100 >/dev/null 2>&1
		perf record -q -z -o - '"$opts"' -- $WL/spin 100 2>/dev/null >'"$name"'.pipe
		check '"$name"'
	'
done <<<"$CASES"

test_expect_success PERF,ROOT,TRACEFS 'perf record -z with a tracepoint: file and pipe' '
	perf record -q -z -o tp.data -e syscalls:sys_enter_getppid -- $WL/getppid 2000 \
		>/dev/null 2>&1
	perf record -q -z -o - -e syscalls:sys_enter_getppid -- $WL/getppid 2000 \
		2>/dev/null >tp.pipe
	check tp
'

test_expect_success PERF,ROOT 'a -z file as a pipe stream by pulse-mkdata (records unpacked)' '
	perf record -q -z -o mk.data -e cpu-clock -c 100000 -- $WL/spin 100 >/dev/null 2>&1
	"$TOOLS"/pulse-mkdata pipe mk.data mk.pipe
	perf report -D -i - <mk.pipe 2>/dev/null | norm >expect
	pulse report -D -i - <mk.pipe | norm >actual
	cmp expect actual || { diff expect actual | head -20; false; }
	! grep -q "COMPRESSED events:" actual
	perf report --stats -i - <mk.pipe >expect 2>&1
	pulse report --stats -i - <mk.pipe >actual 2>&1
	cmp expect actual || { diff expect actual; false; }
'

test_done
