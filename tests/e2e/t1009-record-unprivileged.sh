#!/bin/bash
# pulse record as an unprivileged user (nobody, no capabilities): what the
# kernel refuses gives one error and one hint naming the sysctl to look at.
# The sysctls are read, never changed.
. "$(dirname "$0")/lib/test-lib.sh"

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)

# as_nobody CMD...: run CMD as nobody without capabilities, in ./nb.
as_nobody() {
	(cd nb && timeout -k 5 "$TMO" setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=-all --bounding-set=-all "$@")
}

# The binaries are copied next to the test: the build tree may sit where
# nobody cannot reach it (a clone under /root, say).
test_expect_success SETPRIV 'setup: a directory nobody can write, the binaries in it' '
	mkdir nb && chmod 777 nb
	mkdir bin && cp "$PULSE" $WL/spin $WL/getppid bin/ && chmod 755 bin bin/*
'
PULSE=$TEST_DIR/bin/pulse
WL=$TEST_DIR/bin

if [ "$paranoid" -ge 1 ]; then
test_expect_success SETPRIV "-a as nobody (perf_event_paranoid $paranoid): error and paranoid hint" '
	expect_fail nonzero err as_nobody "$PULSE" record -a -o a.data -- $WL/spin 100
	one_error err "."
	has_hint err "perf_event_paranoid"
'
fi

test_expect_success PERF,SETPRIV 'as nobody: user-space profiling of its own command works' '
	as_nobody "$PULSE" record -e cpu-clock:u -o u.data -- $WL/spin 200 2>err.u || {
		cat err.u; false; }
	chown root nb/u.data
	expect_gt "$(count_samples nb/u.data)" 0 samples
'

# The kernel lets an unprivileged user lock perf_event_mlock_kb per CPU plus
# RLIMIT_MEMLOCK: with a small ulimit -l, 16 MiB per CPU is refused (EPERM).
test_expect_success SETPRIV 'as nobody: too large -m gives the perf_event_mlock_kb hint' '
	expect_fail nonzero err.m as_nobody bash -c "ulimit -l 64 && exec \"\$0\" record -m 4096 -e cpu-clock:u -o m.data -- $WL/spin 100" "$PULSE"
	one_error err.m "."
	has_hint err.m "perf_event_mlock_kb"
'

# perf 6.1 falls back to user-only sampling when perf_event_paranoid > 1
# forbids the kernel: the same attrs and name (cpu-clock:uhppp), one warning.
test_expect_success PERF,SETPRIV 'as nobody: the default event falls back to user space, as perf' '
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	if [ "$paranoid" -le 1 ]; then echo "# paranoid $paranoid: nothing to fall back from"; exit 0; fi
	as_nobody "$PULSE" record -o d.data -- $WL/spin 100 2>err.d
	cat err.d
	grep -q "^warning: kernel.perf_event_paranoid=$paranoid" err.d
	chown root nb/d.data
	expect_gt "$(count_samples nb/d.data)" 0 samples
	perf evlist -v -i nb/d.data >ev.d 2>/dev/null
	grep -q "^cpu-clock:uhppp: .*exclude_kernel: 1" ev.d
	! grep -q "exclude_hv" ev.d
'

# tracefs is root's: a runtime error (exit 1), not a usage error.
test_expect_success SETPRIV,TRACEFS 'as nobody: a tracepoint gives one error, a hint, exit 1' '
	expect_fail 1 err.tp as_nobody "$PULSE" record -e syscalls:sys_enter_getppid -o tp.data -- $WL/getppid 10
	one_error err.tp "sys_enter_getppid"
	grep -q "^hint: " err.tp
	not grep -q "usage:" err.tp
'

test_done
