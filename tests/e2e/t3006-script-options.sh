#!/bin/bash
# perf script options pulse refused with 129 before: --header, -D,
# -f/--force, -v, --max-stack, --per-event-dump, -k/--vmlinux, --kallsyms.
# Each is compared with perf 6.1 on the same files, byte for byte.
. "$(dirname "$0")/lib/test-lib.sh"

same() {
	perf script "$@" >perf.out 2>/dev/null || return 1
	pulse script "$@" >pulse.out 2>pulse.err || { cat pulse.err >&2; return 1; }
	test_cmp perf.out pulse.out
}

test_expect_success PERF 'set up: two events, a -g file, a directory' '
	perf record -q -e cpu-clock,task-clock -o two.data -- "$WL/spin" >/dev/null 2>&1 &&
	perf record -q -g -o cg.data -- "$WL/calltree" >/dev/null 2>&1 &&
	perf record -q --threads -o thr.data -- "$WL/spin" >/dev/null 2>&1
'

test_expect_success PERF '--header: the header, then the samples' '
	same -i two.data --header &&
	grep -q "^# ========" pulse.out && grep -q "task-clock:" pulse.out
'

test_expect_success PERF '-D: every record dumped, each sample line after its dump' '
	same -i two.data -D &&
	grep -q "PERF_RECORD_SAMPLE" pulse.out &&
	same -i cg.data --dump-raw-trace &&
	same -i thr.data -D
'

test_expect_success PERF '-D of a pipe' '
	perf record -q -o - -- "$WL/spin" 2>/dev/null >pipe.data &&
	cat pipe.data | perf script -D 2>/dev/null |
		sed "s|/tmp/perf-vdso\.so-[A-Za-z0-9]*|[vdso]|" >perf.out &&
	cat pipe.data | pulse script -D >pulse.out &&
	test_cmp perf.out pulse.out
'

test_expect_success PERF '--max-stack N cuts the callchains as perf' '
	same -i cg.data --max-stack 0 &&
	same -i cg.data --max-stack 1 &&
	same -i cg.data --max-stack 3 &&
	same -i cg.data --max-stack 200
'

test_expect_success PERF '--max-stack -1 is a usage error, as in perf' '
	{ perf script -i cg.data --max-stack -1 >/dev/null 2>&1; echo $? >perf.rc; } &&
	{ pulse script -i cg.data --max-stack -1 >/dev/null 2>err; echo $? >pulse.rc; } &&
	expect_eq "$(cat pulse.rc)" "$(cat perf.rc)" &&
	grep -q "^error: .*max-stack" err
'

test_expect_success PERF '--per-event-dump: one file per event, perf'"'"'s names and lines' '
	mkdir p q && cp two.data p/ && cp two.data q/ &&
	(cd p && perf script -i two.data --per-event-dump >../perf.out 2>/dev/null) &&
	(cd q && pulse script -i two.data --per-event-dump >../pulse.out) &&
	test_cmp perf.out pulse.out &&
	grep -q "Wrote .* two.data.cpu-clock.dump" pulse.out &&
	test_cmp p/two.data.cpu-clock.dump q/two.data.cpu-clock.dump &&
	test_cmp p/two.data.task-clock.dump q/two.data.task-clock.dump
'

test_expect_success PERF '-f: a file of another user is refused without it' '
	cp two.data own.data && chown nobody own.data &&
	not perf script -i own.data >/dev/null 2>&1 &&
	{ pulse script -i own.data >/dev/null 2>err; test $? = 1; } &&
	grep -q "^error: file .own.data. not owned by current user or root" err &&
	grep -q "^hint: use -f to override" err &&
	same -i own.data -f &&
	same -i own.data --force
'

test_expect_success PERF '-v: the same lines on stdout' '
	same -i two.data -v
'

test_expect_success PERF '-k, --vmlinux, --kallsyms' '
	same -i two.data --kallsyms /proc/kallsyms &&
	same -i two.data -k /dev/null &&
	same -i two.data --vmlinux /dev/null &&
	not perf script -i two.data -k /nonexistent >/dev/null 2>&1 &&
	{ pulse script -i two.data -k /nonexistent >/dev/null 2>err; test $? = 1; } &&
	grep -q "^error: cannot read ./nonexistent.: No such file" err &&
	{ pulse script -i two.data --kallsyms /nonexistent >/dev/null 2>err; test $? = 1; } &&
	grep -q "^error: cannot read" err
'

test_done
