#!/bin/bash
# The attrs pulse record writes, as the real `perf evlist -v` prints them:
# first what they must be for a few command lines, then, for a list of
# command lines, the same as what perf record itself writes -- except for
# ID versus IDENTIFIER in sample_type (either identifies the event; perf
# picks IDENTIFIER only when the events' sample types differ).
. "$(dirname "$0")/../e2e/lib/test-lib.sh"

TP=syscalls:sys_enter_getppid

# evlist FILE: perf evlist -v, comment lines dropped.
evlist() { perf_ok "$1" evlist -v | grep -v "^#"; }
# ev_line FILE NAME: the attr line of event NAME.
ev_line() { evlist "$1" | grep "^$2: type: "; }
# ev_has FILE NAME REGEX
ev_has() {
	ev_line "$1" "$2" | grep -qE -- "$3" ||
		{ echo "event $2 in $1 lacks '$3':" >&2; evlist "$1" >&2; return 1; }
}
tp_id() {
	local d
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		[ -r "$d/events/${1%%:*}/${1#*:}/id" ] && { cat "$d/events/${1%%:*}/${1#*:}/id"; return; }
	done
}

test_expect_success PERF,ROOT,TRACEFS '-e syscalls:sys_enter_getppid: a tracepoint, every hit sampled with RAW and CPU' '
	record_ok err -e $TP -o tp.data -- $WL/getppid 10
	id=$(tp_id $TP)
	test -n "$id"
	ev_has tp.data $TP "^$TP: type: 2, size: 128, config: $(printf "0x%x" $id), "
	ev_has tp.data $TP "sample_freq \}: 1, "
	ev_has tp.data $TP "sample_type: IP\|TID\|TIME\|CPU\|PERIOD\|RAW, "
	not ev_has tp.data $TP " freq: 1" 2>/dev/null
	ev_has tp.data $TP "disabled: 1, inherit: 1, "
	ev_has tp.data $TP "enable_on_exec: 1"
	expect_eq "$(evlist tp.data | wc -l)" 1
'

test_expect_success PERF,ROOT,TRACEFS 'two events: each carries its id in the samples' '
	record_ok err -e $TP,syscalls:sys_exit_getppid -o tp2.data -- $WL/getppid 10
	ev_has tp2.data $TP "sample_type: [A-Z|]*(ID|IDENTIFIER)"
	ev_has tp2.data syscalls:sys_exit_getppid "sample_type: [A-Z|]*(ID|IDENTIFIER)"
	ev_has tp2.data $TP "sample_type: [A-Z|]*RAW"
	ev_has tp2.data $TP "sample_type: [A-Z|]*CPU"
'

test_expect_success PERF 'default: cpu-clock at 4000 Hz' '
	record_ok err -o def.data -- $WL/spin 50
	evlist def.data >ev
	cat ev
	expect_eq "$(wc -l <ev)" 1
	grep -qE "^cpu-clock(:[a-zA-Z]+)?: type: 1, size: 128, \{ sample_period, sample_freq \}: 4000, " ev
	grep -q ", freq: 1, " ev
'

# ---- pulse record vs perf record, same command line -------------------
# norm_evlist: one "event field: value" line per attr field, without the
# ID and IDENTIFIER sample_type bits.
norm_evlist() {
	grep -v "^#" | awk '
	{
		i = index($0, ": type: ")
		name = substr($0, 1, i - 1)
		rest = substr($0, i + 2)
		gsub(/\{ sample_period, sample_freq \}/, "period_or_freq", rest)
		n = split(rest, f, ", ")
		for (k = 1; k <= n; k++) {
			if (f[k] ~ /^sample_type: /) {
				v = substr(f[k], 14); m = split(v, b, "|"); o = ""
				for (j = 1; j <= m; j++)
					if (b[j] != "ID" && b[j] != "IDENTIFIER")
						o = o (o == "" ? "" : "|") b[j]
				f[k] = "sample_type: " o
			}
			print name " " f[k]
		}
	}'
}

COMPARE="-e $TP -- \$WL/getppid 10
-e $TP,syscalls:sys_exit_getppid -- \$WL/getppid 10
-e cpu-clock,$TP -- \$WL/getppid 10
-- \$WL/spin 50
-e cpu-clock -- \$WL/spin 50
-e cycles -- \$WL/spin 50
-g -- \$WL/spin 50
-e cpu-clock -F 1000 -- \$WL/spin 50
-e cpu-clock -c 100000 -- \$WL/spin 50
-e cpu-clock:u -- \$WL/spin 50
-e task-clock,page-faults -- \$WL/spin 50
-R -T --sample-cpu -e cpu-clock -- \$WL/spin 50
--no-inherit -e cpu-clock -- \$WL/spin 50
-a -- \$WL/spin 50
-a -g -e cpu-clock -- \$WL/spin 50
-a -e sched:sched_switch -- \$WL/spin 50
-C 0 -e cpu-clock -- \$WL/spin 50
-o - -e $TP,cpu-clock -- \$WL/getppid 10
-o - -g -- \$WL/spin 50
-o - -a -- \$WL/spin 50"

i=0
while read -r args; do
	i=$((i + 1))
	test_expect_success PERF,ROOT,TRACEFS "same attrs as perf record: $args" '
		eval "set -- '"$args"'"
		if [ "$1" = -o ]; then	# pipe mode: -o - is in the arguments
			timeout -k 5 $TMO perf record -q "$@" >perf.'$i'.data 2>perf.err ||
				{ cat perf.err; false; }
			record_ok pulse.err -q "$@" >pulse.'$i'.data
		else
			timeout -k 5 $TMO perf record -q -o perf.'$i'.data "$@" >/dev/null 2>perf.err ||
				{ cat perf.err; false; }
			record_ok pulse.err -q -o pulse.'$i'.data "$@"
		fi
		evlist perf.'$i'.data | norm_evlist >perf.ev
		evlist pulse.'$i'.data | norm_evlist >pulse.ev
		test -s perf.ev
		test_cmp perf.ev pulse.ev
	'
done <<<"$COMPARE"

test_done
