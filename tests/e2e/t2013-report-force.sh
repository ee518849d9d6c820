#!/bin/bash
# pulse report -f/--force: as perf 6.1's open_file_read(), a file owned
# by another user than this one or root is refused (perf exits 255 with
# "File X not owned by current user or root (use -f to override)"; pulse
# exits 1 with an error and a hint line), unless -f is given; a pipe is
# never checked.
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden

test_expect_success ROOT 'a file of another user: refused, read with -f' '
	cp "$G/calls.data" other.data && chown nobody other.data &&
	expect_fail 1 err pulse report -i other.data --stdio &&
	one_error err "not owned by current user or root" &&
	has_hint err "use -f to override" &&
	pulse report -i other.data --symfs "$G/root" --stdio -f >out &&
	grep -q "leaf_spin" out &&
	pulse report -i other.data --symfs "$G/root" --stdio --force >out &&
	grep -q "leaf_spin" out &&
	pulse report -i - --symfs "$G/root" --stdio <other.data >out &&
	grep -q "leaf_spin" out
'

test_expect_success ROOT,PERF 'perf 6.1 refuses the same file and reads it with -f' '
	! perf report -i other.data --stdio >/dev/null 2>perf.err &&
	grep -q "not owned by current user or root (use -f to override)" perf.err &&
	perf report -i other.data --symfs "$G/root" --stdio -f 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	pulse report -i other.data --symfs "$G/root" --stdio -f | grep -v "^# (Tip:" >pulse.out &&
	diff -u perf.out pulse.out
'

test_done
