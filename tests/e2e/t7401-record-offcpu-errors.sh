#!/bin/bash
# pulse record --off-cpu refused: without access to the sched:sched_switch
# tracepoint (nobody, no capabilities: tracefs is root's) one error line and
# one hint, exit 129 as perf's event errors (perf 6.1 on
# `-e sched:sched_switch` as nobody: "event syntax error ... can't access
# trace events", usage, 129); with the flight recorder and --threads, whose
# files are written while recording, not at the end where the offcpu-time
# samples are made: one error line, exit 129. Nothing is written.
. "$(dirname "$0")/lib/test-lib.sh"

as_nobody() {
	(cd nb && timeout -k 5 "$TMO" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$@")
}

# whether nobody can read the tracepoint's id (then the refusal comes later, from the kernel)
test_declare_prereq NOBODY_NO_TRACEFS
if command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
   ! setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
	cat /sys/kernel/tracing/events/sched/sched_switch/id >/dev/null 2>&1; then
	test_set_prereq NOBODY_NO_TRACEFS
fi

test_expect_success SETPRIV 'setup: a directory nobody can write, the binaries in it' '
	mkdir nb && chmod 777 nb &&
	mkdir bin && cp "$PULSE" "$WL/offcpu" bin/ && chmod 755 bin bin/*
'

test_expect_success SETPRIV,NOBODY_NO_TRACEFS 'no tracefs access: one error, a hint, 129, no file' '
	expect_fail 129 err as_nobody "$TEST_DIR/bin/pulse" record --off-cpu -o o.data -- \
		"$TEST_DIR/bin/offcpu" 10 &&
	one_error err "off-cpu.*sched:sched_switch" &&
	has_hint err "tracefs" &&
	test ! -e nb/o.data
'

test_expect_success SETPRIV,NOBODY_NO_TRACEFS 'perf 6.1 refuses the tracepoint with 129 too' '
	if test_have_prereq PERF; then
		expect_fail 129 perr as_nobody perf record -e sched:sched_switch -o p.data -- true
	fi
'

for opt in "--overwrite" "--switch-output" "-M 1M" "--threads"; do
	test_expect_success "--off-cpu $opt: one error, 129" '
		expect_fail 129 err pulse record --off-cpu $opt -o f.data -- "$WL/offcpu" 10 &&
		one_error err "off-cpu cannot be used with" &&
		test ! -e f.data
	'
done

test_expect_success 'pulse record -h lists --off-cpu' '
	expect_fail 129 err pulse record -h &&
	cat err err.out | grep -q -- "--off-cpu  *Enable off-cpu analysis"
'

test_done
