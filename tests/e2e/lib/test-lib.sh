# Shell test library (TAP), in the manner of git's t/test-lib.sh.
#   . "$(dirname "$0")/lib/test-lib.sh"
#   test_expect_success [PREREQ,...] 'what' 'commands'
#   test_done
# Prerequisites skip rather than fail: ROOT, PERF, TRACEFS, UNSHARE, SETPRIV,
# and those a script sets with test_set_prereq.
set -u
PULSE_TOP=${PULSE_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
PULSE_BUILD=${PULSE_BUILD:-$PULSE_TOP/build}
PULSE=${PULSE_BIN:-$PULSE_BUILD/pulse}	# PULSE_BIN: run the tests against another binary
WL=$PULSE_BUILD/workloads
TOOLS=$PULSE_BUILD/tools
TEST_DIR=$(mktemp -d /tmp/pulse-test.XXXXXX)
chmod 755 "$TEST_DIR"
trap 'cd /; kill_bg; rm -rf "$TEST_DIR"' EXIT
cd "$TEST_DIR" || exit 1
test_count=0
test_failures=0

# test_set_prereq NAME: a condition a script found true (git's test_set_prereq)
test_prereqs_set=" "
test_set_prereq() {
	test_prereqs_set+="$1 "
}
# test_declare_prereq NAME: a script's own condition, which it may or may
# not set; a name neither declared nor known here is a mistake (a typo
# would otherwise skip its test for good), and the test fails
test_prereqs_declared=" "
test_declare_prereq() {
	test_prereqs_declared+="$1 "
}

test_have_prereq() {
	local p
	for p in $(tr ',' ' ' <<<"$1"); do
		case "$test_prereqs_set" in
		*" $p "*) continue ;;
		esac
		case "$p" in
		ROOT) [ "$(id -u)" = 0 ] || return 1 ;;
		PERF) command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 || return 1 ;;
		TRACEFS) [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ] || [ "$(id -u)" = 0 ] || return 1 ;;
		CHROMIUM) command -v chromium >/dev/null 2>&1 || return 1 ;;
		GO) command -v go >/dev/null 2>&1 || return 1 ;;
		UNSHARE) unshare -m true 2>/dev/null || return 1 ;;
		SETPRIV) command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ] || return 1 ;;
		*)
			case "$test_prereqs_declared" in
			*" $p "*) return 1 ;;	# a script's own, not set
			esac
			echo "unknown prerequisite $p" >&2
			return 2 ;;
		esac
	done
	return 0
}

test_expect_success() {
	local prereq=""
	if [ $# -eq 3 ]; then prereq=$1; shift; fi
	test_count=$((test_count + 1))
	if [ -n "$prereq" ]; then
		local have=0
		test_have_prereq "$prereq" 2>/dev/null || have=$?
		if [ "$have" -eq 2 ]; then
			echo "not ok $test_count - $1"
			echo "#   unknown prerequisite in '$prereq' (declare a script's own with test_declare_prereq)"
			test_failures=$((test_failures + 1))
			return
		elif [ "$have" -ne 0 ]; then
			echo "ok $test_count - $1 # SKIP missing $prereq"
			return
		fi
	fi
	local out rc
	out=$( (set -e; eval "$2") 2>&1 )
	rc=$?
	kill_bg
	if [ $rc -eq 0 ]; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		sed 's/^/#   /' <<<"$out" | tail -30
		test_failures=$((test_failures + 1))
	fi
}

test_done() {
	echo "1..$test_count"
	[ "$test_failures" -eq 0 ]
}

# ---- helpers used by many tests ---------------------------------------
# Everything runs under a timeout; background processes are started with
# start_bg (output to files, never to the captured pipe) and killed after
# each test by kill_bg, so a failing test leaves nothing running.
TMO=${PULSE_TEST_TIMEOUT:-60}

die() { echo "$*" >&2; return 1; }
expect_eq() { [ "$1" = "$2" ] || { echo "expected '$2', got '$1'" >&2; return 1; }; }
# expect_ge ACTUAL MIN [what]
expect_ge() { [ "$1" -ge "$2" ] || { echo "${3:-value}: expected >= $2, got $1" >&2; return 1; }; }
expect_gt() { [ "$1" -gt "$2" ] || { echo "${3:-value}: expected > $2, got $1" >&2; return 1; }; }

# pulse ARGS...: the binary under a timeout (a hang fails, never blocks).
pulse() { timeout -k 5 "$TMO" "$PULSE" "$@"; }

# start_bg CMD...: run CMD in the background, its output appended to
# bg.out; $! is its pid. kill_bg SIGKILLs whatever is left after the test.
start_bg() {
	"$@" >>"$TEST_DIR/bg.out" 2>&1 </dev/null &
	echo $! >>"$TEST_DIR/.bgpids"
}
kill_bg() {
	[ -f "$TEST_DIR/.bgpids" ] || return 0
	local p
	while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$TEST_DIR/.bgpids"
	rm -f "$TEST_DIR/.bgpids"
	return 0
}

# proc_alive PID: running and not a zombie.
proc_alive() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# wait_exit PID SECS: wait for a child of this shell to exit, SIGKILL it
# after SECS; returns its exit status (137 when it had to be killed).
wait_exit() {
	local pid=$1 n=$(($2 * 10))
	while [ $n -gt 0 ] && proc_alive "$pid"; do sleep 0.1; n=$((n - 1)); done
	proc_alive "$pid" && { echo "pid $pid still running after $2 s: killed" >&2; kill -KILL "$pid"; }
	local rc=0
	wait "$pid" || rc=$?
	return $rc
}
# wait_for COND SECS: poll the shell condition every 0.1 s.
wait_for() {
	local n=$(($2 * 10))
	while [ $n -gt 0 ]; do eval "$1" && return 0; sleep 0.1; n=$((n - 1)); done
	echo "timed out waiting for: $1" >&2
	return 1
}

# is_pipe_file FILE: a pipe-mode perf.data (its header is 16 bytes).
is_pipe_file() {
	[ "$(od -An -t u8 -j 8 -N 8 "$1" 2>/dev/null | tr -d ' ')" = 16 ]
}
# perf_in FILE CMD ARGS...: run the real perf on FILE, file or pipe mode.
perf_in() {
	local f=$1 cmd=$2; shift 2
	if is_pipe_file "$f"; then
		timeout -k 5 "$TMO" perf "$cmd" -i - "$@" <"$f"
	else
		timeout -k 5 "$TMO" perf "$cmd" -i "$f" "$@"
	fi
}
# count_samples FILE [EVENT]: samples perf script sees (of EVENT only).
count_samples() {
	local out
	out=$(perf_in "$1" script -F event 2>"$TEST_DIR/count.err") || {
		cat "$TEST_DIR/count.err" >&2; echo "perf script failed on $1" >&2; return 1; }
	if [ -n "${2:-}" ]; then
		awk -v e="$2:" '$1 == e' <<<"$out" | wc -l
	else
		grep -c . <<<"$out" || true
	fi
}
# count_pid_samples FILE PID: samples whose pid is PID.
count_pid_samples() {
	perf_in "$1" script -F pid 2>/dev/null | awk -v p="$2" '$1 == p' | wc -l
}
# report_event_count [EVENT] <REPORT: "Event count (approx.)" of a --stdio
# report (the first one, or the one under EVENT's "# Samples" line).
report_event_count() {
	awk -v e="${1:-}" -v q="'" '
		/^# Samples:/ { cur = $0 }
		/^# Event count \(approx\.\):/ {
			if (e == "" || index(cur, q e q)) { print $NF; exit }
		}'
}
# pulse_event_count FILE [EVENT]: the same, from pulse report.
pulse_event_count() {
	pulse report -i "$1" --stdio 2>/dev/null | report_event_count "${2:-}"
}
# report_rows: the table rows of a --stdio report: the lines that start
# with an overhead percentage (no comments, blank lines or callchain
# graph lines), whitespace normalised.
report_rows() {
	grep -E '^[[:space:]]*[0-9]+\.[0-9]+%' | sed 's/[[:space:]]\+/ /g; s/^ //; s/ $//'
}
# row_pct SYM <ROWS: the overhead (without %) of the first row ending in SYM.
row_pct() {
	awk -v s="$1" '$NF == s { sub(/%/, "", $1); print $1; exit }'
}
# callchains FILE: perf script's callchains, one sample a line, as
# "sym;sym;..." from the sampled function outwards.
callchains() {
	perf_in "$1" script -F ip,sym 2>/dev/null | awk '
		NF == 0 { if (c != "") print c; c = ""; next }
		{ c = (c == "" ? $2 : c ";" $2) }
		END { if (c != "") print c }'
}

# Lines the real perf 6.1 may print on stderr about a well-formed file
# (anything else is a warning about the file and fails the test). perf
# report, script, evlist and report -D/--header-only print nothing on stderr
# for the files perf record itself writes here (every kind of the interop
# corpus, file and pipe mode), so the list holds only:
#   - blank lines.
# Not harmless, and so never listed: "data size field is 0", "Processed N
# events and lost M chunks", "failed to process", "unexpected", "Ignoring",
# "unknown" record types, "Kernel address maps ... restricted" (root here).
PERF_HARMLESS_STDERR='^[[:space:]]*$'
# check_perf_stderr FILE: FILE holds only harmless perf stderr lines.
check_perf_stderr() {
	if grep -vE "$PERF_HARMLESS_STDERR" "$1" | grep -q .; then
		echo "perf complained:" >&2; cat "$1" >&2; return 1
	fi
	return 0
}

# The summary line of pulse record: "(N samples)".
summary_samples() {
	sed -n 's/^\[ pulse record: Captured and wrote .* (\([0-9]\+\) samples) \]$/\1/p' "$1"
}


# pulse_sanitized: $PULSE is a sanitizer build (its own malloc, several
# times slower)
pulse_sanitized() { ldd "$PULSE" 2>/dev/null | grep -q libasan; }

# not CMD...: CMD must fail (a plain `! cmd` never trips set -e).
not() {
	if "$@"; then echo "unexpectedly succeeded: $*" >&2; return 1; fi
	return 0
}
test_must_be_empty() {
	if [ -s "$1" ]; then echo "'$1' is not empty:" >&2; cat "$1" >&2; return 1; fi
}
test_cmp() { diff -u "$1" "$2"; }

# record_ok ERRFILE ARGS...: `pulse record ARGS` must succeed; its stderr
# goes to ERRFILE and is shown when it fails.
record_ok() {
	local errf=$1 rc=0; shift
	pulse record "$@" 2>"$errf" || rc=$?
	if [ $rc -ne 0 ] || grep -qE "$SANITIZER_REPORT" "$errf"; then
		echo "pulse record $* exited $rc:" >&2; cat "$errf" >&2; return 1
	fi
}
# What ASan, LSan and UBSan print (a SANITIZE=1 build exits 1 after it).
SANITIZER_REPORT='^==[0-9]+==ERROR: |runtime error: |Sanitizer'
# expect_fail CODE ERRFILE CMD...: CMD exits with CODE ("nonzero": any
# failure, never a signal or timeout), stderr to ERRFILE.
expect_fail() {
	local want=$1 errf=$2 rc=0; shift 2
	"$@" 2>"$errf" >"$errf.out" || rc=$?
	if grep -qE "$SANITIZER_REPORT" "$errf"; then
		echo "$* exited $rc with a sanitizer report:" >&2; cat "$errf" >&2; return 1
	fi
	if [ "$want" = nonzero ]; then
		# not 0, not a timeout (124-127), not a signal (130 and up)
		{ [ $rc -ge 1 ] && [ $rc -le 123 ]; } || [ $rc -eq 129 ] && return 0
	elif [ $rc -eq "$want" ]; then
		return 0
	fi
	echo "$* exited $rc, expected $want; stderr:" >&2; cat "$errf" >&2; return 1
}
# one_error ERRFILE PATTERN: exactly one `error:` line, matching PATTERN
# (grep -E, case-insensitive), and at most one `hint:` line.
one_error() {
	local n
	n=$(grep -c '^error: ' "$1" || true)
	[ "$n" = 1 ] || { echo "expected one error: line, got $n:" >&2; cat "$1" >&2; return 1; }
	grep '^error: ' "$1" | grep -qiE -- "$2" || { echo "error line does not match '$2':" >&2; cat "$1" >&2; return 1; }
	n=$(grep -c '^hint: ' "$1" || true)
	[ "$n" -le 1 ] || { echo "more than one hint: line:" >&2; cat "$1" >&2; return 1; }
}
# has_hint ERRFILE PATTERN: the hint: line matches PATTERN.
has_hint() {
	grep '^hint: ' "$1" | grep -qiE -- "$2" || { echo "no hint: line matching '$2':" >&2; cat "$1" >&2; return 1; }
}

# track_bg PID: have kill_bg SIGKILL PID after the test (for background
# jobs started by hand, e.g. `"$PULSE" record ... & rp=$!`).
track_bg() { echo "$1" >>"$TEST_DIR/.bgpids"; }
# wait_started FILE: wait (10 s at most) until a recorder has written FILE's
# header, then a little more so that its events are surely enabled.
wait_started() { wait_for "test -s '$1'" 10 && sleep 0.3; }
# header_data_size FILE: data.size in a file-mode header (u64 at byte 48);
# header_data_end FILE: data.offset + data.size.
header_data_size() { od -An -t u8 -j 48 -N 8 "$1" | tr -d ' '; }
header_data_end() {
	echo $(( $(od -An -t u8 -j 40 -N 8 "$1" | tr -d ' ') + $(header_data_size "$1") ))
}

# perf_ok FILE CMD ARGS...: the real perf reads FILE (file or pipe mode)
# with exit status 0 and nothing but harmless lines on stderr; stdout passes
# through.
perf_ok() {
	local f=$1 rc=0
	perf_in "$@" 2>"$TEST_DIR/perf.err" || rc=$?
	if [ $rc -ne 0 ]; then
		echo "perf $2 -i $f exited $rc:" >&2; cat "$TEST_DIR/perf.err" >&2; return 1
	fi
	check_perf_stderr "$TEST_DIR/perf.err"
}

# The interop corpus: files pulse records with a range of options, read
# back by the real perf. CORPUS holds "name|pulse record args" lines;
# pipe-mode entries (-o -) are written to NAME.pipe, others to NAME.data.
CORPUS_TP=syscalls:sys_enter_getppid
CORPUS="tp|-e $CORPUS_TP -- \$WL/getppid 1000
tp2|-e $CORPUS_TP,syscalls:sys_exit_getppid -- \$WL/getppid 1000
def|-- \$WL/spin 200
cg|-g -- \$WL/calltree
fork|-- \$WL/forkrename
fork-tp|-e $CORPUS_TP -- \$WL/forkrename
sw|-a -- \$WL/spin 300
sw-g|-a -g -e cpu-clock -- \$WL/spin 200
sched|-a -e sched:sched_switch -- \$WL/getppid 10 --delay-ms 100
opts|-R -T --sample-cpu -c 100000 -e task-clock -- \$WL/spin 100
tp-pipe|-o - -e $CORPUS_TP -- \$WL/getppid 1000
cg-pipe|-o - -g -- \$WL/calltree
fork-pipe|-o - -- \$WL/forkrename
sw-pipe|-o - -a -- \$WL/spin 200"
# corpus_file NAME: the file of a corpus entry.
corpus_file() { case $1 in *-pipe) echo "$1.pipe" ;; *) echo "$1.data" ;; esac; }
# record_corpus: record every entry (into cwd); the names, one a line, of
# those recorded go to corpus.list; failures are listed on stderr.
record_corpus() {
	local name args f rc=0
	: >corpus.list
	while IFS='|' read -r name args; do
		f=$(corpus_file "$name")
		eval "set -- $args"
		if [ "$1" = "-o" ]; then
			pulse record -q "$@" >"$f" 2>"$name.err" || { echo "$name: pulse record $args failed:" >&2; cat "$name.err" >&2; rc=1; continue; }
		else
			pulse record -q -o "$f" "$@" 2>"$name.err" || { echo "$name: pulse record $args failed:" >&2; cat "$name.err" >&2; rc=1; continue; }
		fi
		echo "$name" >>corpus.list
	done <<<"$CORPUS"
	return $rc
}

# pulse_in FILE CMD ARGS...: run pulse CMD on FILE, file or pipe mode.
pulse_in() {
	local f=$1 cmd=$2; shift 2
	if is_pipe_file "$f"; then
		pulse "$cmd" -i - "$@" <"$f"
	else
		pulse "$cmd" -i "$f" "$@"
	fi
}
# sorted_rows <REPORT: report_rows ordered by overhead, then by text: rows
# of equal overhead may come in either order.
sorted_rows() { report_rows | LC_ALL=C sort -k1,1gr; }

# compare_report FILE ARGS...: pulse report and perf report --stdio print the
# same lines, perf's random "Tip" line left out on both sides.
compare_report() {
	local f=$1
	shift
	perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out || return 1
	"$PULSE" report -i "$f" --stdio "$@" 2>pulse.err | grep -v '^# (Tip:' >pulse.out || return 1
	diff -u perf.out pulse.out || { cat pulse.err; return 1; }
}

# same_report_in FILE ARGS...: perf report and pulse report --stdio of FILE
# (file or pipe mode) print the same, perf's random tip line left out; the
# reports stay in FILE.perf and FILE.pulse, pulse's stderr in FILE.err
same_report_in() {
	local f=$1; shift
	perf_in "$f" report --stdio "$@" 2>/dev/null | grep -v "^# (Tip:" >"$f.perf" &&
	if is_pipe_file "$f"; then
		pulse report -i - --stdio "$@" <"$f"
	else
		pulse report -i "$f" --stdio "$@"
	fi 2>"$f.err" | grep -v "^# (Tip:" >"$f.pulse" &&
	[ -s "$f.perf" ] && diff -u "$f.perf" "$f.pulse"
}

# same_script FILE ARGS...: pulse script and perf script print the same
# lines (file or pipe mode), not none unless SAME_SCRIPT_EMPTY=ok, and both
# succeed; nothing is normalised.
# same_report SYMFS FILE ARGS...: perf report and pulse report --stdio of
# FILE with ARGS print the same, perf's random tip line left out on both
same_report() {
	local root=$1 f=$2; shift 2
	perf report -i "$f" --symfs "$root" --stdio "$@" 2>/dev/null |
		grep -v "^# (Tip:" >perf.out &&
	pulse report -i "$f" --symfs "$root" --stdio "$@" 2>pulse.err |
		grep -v "^# (Tip:" >pulse.out &&
	diff -u perf.out pulse.out
}
same_script() {
	local f=$1; shift
	perf_in "$f" script "$@" >"$f.perf" 2>"$f.perf.err" || {
		cat "$f.perf.err" >&2; echo "perf script $* failed on $f" >&2; return 1; }
	if is_pipe_file "$f"; then
		pulse script -i - "$@" <"$f" >"$f.pulse" 2>"$f.pulse.err"
	else
		pulse script -i "$f" "$@" >"$f.pulse" 2>"$f.pulse.err"
	fi || { cat "$f.pulse.err" >&2; echo "pulse script $* failed on $f" >&2; return 1; }
	[ -s "$f.perf" ] || [ "${SAME_SCRIPT_EMPTY:-}" = ok ] || {
		echo "perf printed nothing for $f $*" >&2; return 1; }
	diff "$f.perf" "$f.pulse" >"$f.diff" || {
		echo "$(grep -c '^[<>]' "$f.diff") lines differ on $f $*:" >&2
		head -20 "$f.diff" >&2; return 1; }
}

# kill_mid_run FILE ARGS... -- CMD...: pulse record into FILE (-m 16: a
# wakeup, hence a write, every few hundred ms), SIGKILL the recorder once
# its header has been rewritten (about once a second) with a data size of
# 128 KB (twice the ring: whatever the workload did first has been written
# and is inside the size perf reads), then kill its orphaned workload.
# Polled, not slept: a loaded machine only makes it later.
mid_run_ready() { # FILE: a header rewritten with 128 KB of records
	local n
	n=$(header_data_size "$1" 2>/dev/null)
	test "${n:-0}" -ge $((128 * 1024))
}
kill_mid_run() {
	local f=$1; shift
	"$PULSE" record -m 16 -o "$f" "$@" >/dev/null 2>"$f.err" </dev/null &
	local rp=$!
	track_bg $rp
	local cpid=
	wait_for "test -n \"\$(pgrep -P $rp)\" || ! proc_alive $rp" 20 || true
	cpid=$(pgrep -P $rp | head -1 || true)
	[ -n "$cpid" ] && track_bg $cpid
	wait_for "mid_run_ready $f || ! proc_alive $rp" 30 || true
	proc_alive $rp || { echo "the recorder ended before SIGKILL:"; cat "$f.err"; return 1; }
	mid_run_ready "$f" ||
		{ echo "no header rewrite with 128 KB in 30 s"; cat "$f.err"; return 1; }
	kill -KILL $rp
	wait $rp 2>/dev/null || true
	if [ -n "$cpid" ]; then
		pkill -KILL -P $cpid 2>/dev/null || true
		kill -KILL $cpid 2>/dev/null || true
	fi
	return 0
}
