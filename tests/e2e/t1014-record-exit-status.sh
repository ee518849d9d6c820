#!/bin/bash
# pulse record's exit status is perf 6.1's: the command's exit status; a
# command killed by a signal makes the recorder die of that signal (the
# shell sees 128 + signal, 139 for SIGSEGV); SIGINT or SIGTERM to the
# recorder: it stops the command with SIGTERM and dies of that (143), or of
# its own signal when there is no command or the command exited (130/143).
# The file is complete either way.
. "$(dirname "$0")/lib/test-lib.sh"

# rc CMD...: print CMD's exit status.
rc() { local r=0; "$@" 2>>rc.err >/dev/null || r=$?; echo $r; }
# signalled CMD...: run CMD in the background, SIGNAL it after 2 s, print its status.
signalled() {
	local sig=$1 r=0; shift
	(trap - INT; "$@" 2>>rc.err >/dev/null & p=$!; echo $p >>"$TEST_DIR/.bgpids"
	 sleep 2; kill -$sig $p; wait $p) || r=$?
	echo $r
}

test_expect_success PERF 'the command exit status: 3 (300: 44), as perf' '
	expect_eq "$(rc pulse record -q -o a.data -- sh -c "exit 3")" 3
	expect_eq "$(rc perf record -q -o p.data -- sh -c "exit 3")" 3
	expect_eq "$(rc pulse record -q -o a.data -- sh -c "exit 300")" 44
	perf_ok a.data report --stdio >/dev/null
'

test_expect_success PERF 'a command killed by SIGSEGV: 139, as perf, the file complete' '
	expect_eq "$(rc pulse record -q -o s.data -- sh -c "kill -SEGV \$\$")" 139
	expect_eq "$(rc perf record -q -o p.data -- sh -c "kill -SEGV \$\$")" 139
	perf_ok s.data report --stdio >/dev/null
	perf_ok s.data evlist >ev
	grep -q cpu-clock ev
'

test_expect_success PERF 'SIGINT to the recorder of a command: 143 (the command got SIGTERM), as perf' '
	expect_eq "$(signalled INT "$PULSE" record -o i.data -- sleep 10)" 143
	expect_eq "$(signalled INT perf record -o p.data -- sleep 10)" 143
	perf_ok i.data report --stdio >/dev/null
'

test_expect_success PERF 'SIGINT to the recorder of a command that exits 0 on SIGTERM: 130, as perf' '
	cmd="trap \"exit 0\" TERM; while :; do sleep 0.1; done"
	expect_eq "$(signalled INT "$PULSE" record -o t.data -- sh -c "$cmd")" 130
	expect_eq "$(signalled INT perf record -o p.data -- sh -c "$cmd")" 130
	perf_ok t.data report --stdio >/dev/null
'

test_expect_success ROOT 'SIGINT / SIGTERM to a system-wide recorder: 130 / 143, the file complete' '
	expect_eq "$(signalled INT "$PULSE" record -a -o ai.data)" 130
	perf_ok ai.data report --stdio >/dev/null
	expect_eq "$(signalled TERM "$PULSE" record -a -o at.data)" 143
	perf_ok at.data report --stdio >/dev/null
'

test_done
