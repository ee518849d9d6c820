#!/bin/bash
# The pager (perf's): on a terminal, report, script, list and help pipe
# their output into $PULSE_PAGER / $PAGER (default less, LESS=FRX);
# --no-pager, PAGER=cat or empty, output that is not a terminal, and a
# pager that cannot be found mean no pager; the exit code is the command's.
# script(1) from util-linux gives pulse a pseudo-terminal.
. "$(dirname "$0")/lib/test-lib.sh"

test_declare_prereq SCRIPT
command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT

# the test pager: notes that it ran, with the LESS it was given, and copies
cat >"$TEST_DIR/tpager" <<'P'
#!/bin/sh
echo "paged LESS=$LESS" >>"$PAGER_LOG"
exec cat
P
chmod +x "$TEST_DIR/tpager"
export PAGER_LOG=$TEST_DIR/pager.log
unset PULSE_PAGER LESS

# on_tty OUT CMD...: run CMD (a shell line) on a pseudo-terminal, its
# terminal output to OUT; returns CMD's exit status
on_tty() {
	local out=$1; shift
	rm -f "$PAGER_LOG"
	timeout -k 5 "$TMO" script -qec "$*" /dev/null </dev/null >"$out"
}
paged() { test -s "$PAGER_LOG"; }

test_expect_success 'a profile to page' '
	record_ok err -o "$TEST_DIR/p.data" -- $WL/spin 50
'

for c in "report -i p.data --stdio" "script -i p.data" "list sw" "help"; do
	test_expect_success SCRIPT "pulse $c on a terminal: through \$PAGER" '
		PAGER="$TEST_DIR/tpager" on_tty out "$PULSE '"$c"'"
		paged
		test -s out
	'
done

test_expect_success SCRIPT 'the pager gets LESS=FRX, a LESS already set is kept' '
	PAGER="$TEST_DIR/tpager" on_tty out "$PULSE list sw"
	grep -q "LESS=FRX\$" "$PAGER_LOG"
	LESS=R PAGER="$TEST_DIR/tpager" on_tty out "$PULSE list sw"
	grep -q "LESS=R\$" "$PAGER_LOG"
'

test_expect_success SCRIPT 'PULSE_PAGER wins over PAGER' '
	PULSE_PAGER="$TEST_DIR/tpager" PAGER=/nonexistent/pager on_tty out "$PULSE list sw"
	paged
'

test_expect_success SCRIPT 'pulse --no-pager, PAGER=cat, PAGER= : no pager, the output still shown' '
	PAGER="$TEST_DIR/tpager" on_tty out "$PULSE --no-pager list sw"
	not paged
	grep -q cpu-clock out
	PAGER=cat on_tty out "$PULSE list sw"
	grep -q cpu-clock out
	PAGER= on_tty out "$PULSE list sw"
	grep -q cpu-clock out
'

test_expect_success SCRIPT 'a pager that is missing: no pager, the output shown' '
	PAGER=/nonexistent/pager on_tty out "$PULSE list sw"
	grep -q cpu-clock out
	PAGER="no-such-pager-xyz -R" on_tty out "$PULSE list sw"
	grep -q cpu-clock out
'

test_expect_success SCRIPT 'not a terminal: no pager' '
	rm -f "$PAGER_LOG"
	PAGER="$TEST_DIR/tpager" pulse list sw >out
	not paged
'

test_expect_success SCRIPT 'record and version are never paged' '
	PAGER="$TEST_DIR/tpager" on_tty out "$PULSE version"
	not paged
	PAGER="$TEST_DIR/tpager" on_tty out "$PULSE record -q -o $TEST_DIR/r.data -- $WL/spin 10"
	not paged
'

test_expect_success SCRIPT 'the exit code is the command'"'"'s, through the pager' '
	rc=0; PAGER="$TEST_DIR/tpager" on_tty out "$PULSE report -i $TEST_DIR/no-such.data --stdio" || rc=$?
	expect_eq $rc 1
	grep -q "^error: .*no-such.data" out
	rc=0; PAGER="$TEST_DIR/tpager" on_tty out "$PULSE report --no-such-option" || rc=$?
	expect_eq $rc 129
	rc=0; PAGER="$TEST_DIR/tpager" on_tty out "$PULSE script -i $TEST_DIR/p.data" || rc=$?
	expect_eq $rc 0
	paged
'

test_expect_success SCRIPT 'pulse waits for its pager: the pager has finished when pulse exits' '
	cat >slowpager <<-P
	#!/bin/sh
	cat >/dev/null; sleep 0.5; echo done >>"$TEST_DIR/slow.log"
	P
	chmod +x slowpager
	PAGER="$TEST_DIR/slowpager" on_tty out "$PULSE list sw"
	grep -q done slow.log
'

test_expect_success SCRIPT,TRACEFS 'pulse killed while its pager runs: it waits for the pager first' '
	cat >latepager <<-P
	#!/bin/sh
	sleep 1; cat >/dev/null; echo done >>"$TEST_DIR/late.log"
	P
	chmod +x latepager
	# pulse list (the tracepoints: more than a pipe holds) blocks on the
	# pager, which does not read for a second; SIGTERM comes before
	cat >killer <<-P
	#!/bin/bash
	"$PULSE" list >/dev/tty & p=\$!
	sleep 0.3; kill -TERM \$p; wait \$p; echo "rc=\$?"
	cat "$TEST_DIR/late.log" 2>/dev/null
	P
	chmod +x killer
	PAGER="$TEST_DIR/latepager" on_tty out "$TEST_DIR/killer"
	grep -q "rc=143" out
	grep -q "^done" out
'

test_done
