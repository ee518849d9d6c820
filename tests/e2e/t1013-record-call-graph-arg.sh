#!/bin/bash
# --call-graph takes a required argument, as in perf 6.1 (`-g` is the form
# without one): `--call-graph fp -- cmd` records frame-pointer chains and
# never runs "fp"; fp,N sets sample_max_stack; lbr, which pulse cannot
# record yet, is one error line and exit 129 (dwarf: t7500); an unknown mode is a
# usage error in both tools. Every record option's argument kind is perf's.
. "$(dirname "$0")/lib/test-lib.sh"

evlist() { perf_ok "$1" evlist -v | grep -v "^#"; }

test_expect_success PERF '--call-graph fp -- cmd: callchains, the command runs' '
	record_ok err --call-graph fp -o fp.data -- $WL/spin 50
	evlist fp.data | head -1 | grep -q "sample_type: [A-Z|]*CALLCHAIN"
	evlist fp.data >ev
	not grep -q sample_max_stack ev
	expect_gt "$(count_samples fp.data)" 0 samples
'

test_expect_success PERF '--call-graph=fp and --call-graph fp,10 (sample_max_stack 10, as perf)' '
	record_ok err --call-graph=fp -o fp2.data -- $WL/spin 20
	evlist fp2.data | head -1 | grep -q "CALLCHAIN"
	record_ok err --call-graph fp,10 -o fp10.data -- $WL/spin 20
	evlist fp10.data | head -1 | grep -q "sample_max_stack: 10"
	perf record -q --call-graph fp,10 -o perf10.data -- $WL/spin 20
	perf evlist -v -i perf10.data | grep -q "sample_max_stack: 10"
'

test_expect_success PERF '--no-call-graph after -g: no callchains' '
	record_ok err -g --no-call-graph -o no.data -- $WL/spin 20
	evlist no.data >ev
	not grep -q CALLCHAIN ev
'

test_expect_success 'lbr, which pulse cannot record yet: one error line, exit 129' '
	expect_fail 129 err pulse record --call-graph lbr -o x.data -- $WL/spin 10 &&
	one_error err "cannot record lbr callchains" &&
	not grep -q "cannot run" err
'

test_expect_success PERF 'an unknown mode or a bad dwarf size: exit 129, as perf' '
	for a in bogus dwarf,abc dwarf,100000; do
		expect_fail 129 err pulse record --call-graph $a -o x.data -- $WL/spin 10 &&
		grep -q "^error: .*$(echo $a | cut -d, -f2)" err &&
		expect_fail 129 perr perf record --call-graph $a -o p.data -- $WL/spin 10 || return 1
	done
'

test_expect_success PERF 'the argument kind of every record option is perf 6.1s' '
	perf record -h >perf.help 2>&1 || true
	pulse record -h >pulse.help 2>&1 || true
	# long option name and its argument kind: <arg> required, [<arg>] optional, none
	# (the first option of each option line: descriptions name options too)
	kinds() { grep -E "^ +(-[a-zA-Z], )?--[a-z]" "$1" | sed -E "s/^ +(-[a-zA-Z], )?//" |
		  grep -oE -- "^--[a-z][a-z-]*(\[?=?<| <)?" |
		  sed -E "s/^--//; s/\[=?<\$/ opt/; s/ <\$/ req/; t; s/\$/ none/"; }
	kinds perf.help | sort >perf.kinds
	kinds pulse.help | sort >pulse.kinds
	cat pulse.kinds
	grep -q "^call-graph req" pulse.kinds
	join pulse.kinds perf.kinds >both
	test -s both
	awk "\$2 != \$3 { print; bad = 1 } END { exit bad }" both
'

test_done
