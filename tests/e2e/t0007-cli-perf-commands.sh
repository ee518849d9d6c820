#!/bin/bash
# A perf command pulse does not have: the one error line, exit 129, and
# one hint line naming the perf command to use, and saying when that
# command reads pulse's perf.data files. Other unknown commands: no hint.
. "$(dirname "$0")/lib/test-lib.sh"

for c in annotate inject buildid-list evlist archive; do
	test_expect_success "pulse $c: perf $c reads pulse's files" '
		expect_fail 129 err pulse '"$c"'
		one_error err "'"'$c'"' is not a pulse command"
		has_hint err "not in pulse yet; .perf '"$c"'. reads pulse.s perf.data files"
		expect_eq "$(wc -l <err)" 2
	'
done

for c in top trace kmem lock mem sched timechart c2c kvm probe bench ftrace daemon iostat kwork; do
	test_expect_success "pulse $c: use perf $c" '
		expect_fail 129 err pulse '"$c"' -a
		one_error err "'"'$c'"' is not a pulse command"
		has_hint err "not in pulse yet; use .perf '"$c"'."
		expect_eq "$(wc -l <err)" 2
	'
done

test_expect_success 'pulse diff is a pulse command now: no hint, its own error' '
	expect_fail 1 err pulse diff nothing-here.old nothing-here.data
	one_error err "nothing-here.old"
	not grep -q "not a pulse command" err
	not grep -q "^hint:" err
'

test_expect_success 'pulse help annotate: the same error and hint' '
	expect_fail 129 err pulse help annotate
	one_error err "annotate"
	has_hint err "perf annotate"
'

test_expect_success 'pulse data is a command (issue 13): its usage, no hint' '
	expect_fail 129 err pulse data
	grep -q "usage: pulse data convert" err
	not grep -q "not a pulse command" err
	not grep -q "^hint:" err
'

test_expect_success 'an unknown command perf does not have: no hint' '
	expect_fail 129 err pulse frobnicate
	one_error err "frobnicate"
	not grep -q "^hint:" err
'

test_expect_success PERF 'perf annotate and perf evlist do read a pulse recording' '
	record_ok err -o p.data -- $WL/spin 50
	perf evlist -i p.data >ev 2>perr
	test -s ev
	perf annotate -i p.data --stdio >an 2>perr
	test -s an
'

test_done
