#!/bin/bash
# pulse report -D against perf 6.1's report -D on fresh recordings, by perf
# and by pulse: cpu-clock, -g, a tracepoint, pipe mode, -z, two events.
# The lines that depend on what perf finds on this machine rather than on
# the file are normalised on both sides (see tests/e2e/t2501): the dso line
# of kernel samples is dropped and perf's extracted vDSO copy is [vdso].
. "$(dirname "$0")/../e2e/lib/test-lib.sh"

norm() {
	sed -E 's#dso: /tmp/perf-vdso\.so-[A-Za-z0-9]{6}$#dso: [vdso]#' |
	awk '/PERF_RECORD_SAMPLE\(IP, 0x1\)/ { k = 1 }
	     /^$/ { k = 0 }
	     /^ \.\.\.\.\.\. dso: / && k { k = 0; next }
	     { print }'
}

# same FILE: perf's and pulse's dumps of FILE are the same
same() {
	perf report -D -i "$1" 2>/dev/null | norm >expect
	pulse report -D -i "$1" 2>err | norm >actual
	cmp expect actual || { diff expect actual | head -20; false; }
}

CASES="cpuclock|-e cpu-clock -c 100000
g|-e cpu-clock -c 100000 -g
tp|-e syscalls:sys_enter_getppid
z|-e cpu-clock -c 100000 -z
twoev|-e cpu-clock -e task-clock -c 200000"

while IFS='|' read -r name opts; do
	test_expect_success PERF,ROOT,TRACEFS "perf record $opts: same dump" '
		case '"$name"' in tp) wl="$WL/getppid 2000" ;; *) wl="$WL/spin 100" ;; esac
		perf record -q -o '"$name"'.data '"$opts"' -- $wl >/dev/null 2>&1
		same '"$name"'.data
	'
	# pulse record has no -z
	[ "$name" = z ] && continue
	test_expect_success PERF,ROOT,TRACEFS "pulse record $opts: same dump" '
		case '"$name"' in tp) wl="$WL/getppid 2000" ;; *) wl="$WL/spin 100" ;; esac
		pulse record -q -o p-'"$name"'.data '"$opts"' -- $wl >/dev/null 2>&1
		same p-'"$name"'.data
	'
done <<<"$CASES"

test_expect_success PERF,ROOT,TRACEFS 'pipe mode: perf record -o - | report -D' '
	perf record -q -o - -e cpu-clock -c 100000 -- $WL/spin 100 2>/dev/null >pipe.data
	perf report -D -i - <pipe.data 2>/dev/null | norm >expect
	cat pipe.data | pulse report -D | norm >actual
	cmp expect actual || { diff expect actual | head; false; }
'

test_expect_success PERF,ROOT,TRACEFS 'pipe mode: pulse record -o - | report -D' '
	pulse record -q -o - -e cpu-clock -c 100000 -- $WL/spin 100 2>/dev/null >ppipe.data
	perf report -D -i - <ppipe.data 2>/dev/null | norm >expect
	cat ppipe.data | pulse report -D | norm >actual
	cmp expect actual || { diff expect actual | head; false; }
'

test_expect_success PERF,ROOT,TRACEFS 'system-wide, with side-band of other processes' '
	perf record -q -a -o sw.data -e cpu-clock -c 1000000 -- $WL/spin 100 >/dev/null 2>&1
	same sw.data
'

test_done
