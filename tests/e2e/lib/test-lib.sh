# Shell test library (TAP), in the manner of git's t/test-lib.sh.
#   . "$(dirname "$0")/lib/test-lib.sh"
#   test_expect_success [PREREQ,...] 'what' 'commands'
#   test_done
# Prerequisites skip rather than fail: ROOT, PERF, TRACEFS, UNSHARE, SETPRIV.
set -u
PULSE_TOP=${PULSE_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)}
PULSE_BUILD=${PULSE_BUILD:-$PULSE_TOP/build}
PULSE=$PULSE_BUILD/pulse
WL=$PULSE_BUILD/workloads
TOOLS=$PULSE_BUILD/tools
TEST_DIR=$(mktemp -d /tmp/pulse-test.XXXXXX)
chmod 755 "$TEST_DIR"
trap 'cd /; rm -rf "$TEST_DIR"' EXIT
cd "$TEST_DIR" || exit 1
test_count=0
test_failures=0

test_have_prereq() {
	local p
	for p in $(tr ',' ' ' <<<"$1"); do
		case "$p" in
		ROOT) [ "$(id -u)" = 0 ] || return 1 ;;
		PERF) command -v perf >/dev/null 2>&1 && perf version >/dev/null 2>&1 || return 1 ;;
		TRACEFS) [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ] || [ "$(id -u)" = 0 ] || return 1 ;;
		UNSHARE) unshare -m true 2>/dev/null || return 1 ;;
		SETPRIV) command -v setpriv >/dev/null 2>&1 && [ "$(id -u)" = 0 ] || return 1 ;;
		*) echo "# unknown prereq $p"; return 1 ;;
		esac
	done
	return 0
}

test_expect_success() {
	local prereq=""
	if [ $# -eq 3 ]; then prereq=$1; shift; fi
	test_count=$((test_count + 1))
	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		echo "ok $test_count - $1 # SKIP missing $prereq"
		return
	fi
	local out
	out=$( (set -e; eval "$2") 2>&1 )
	if [ $? -eq 0 ]; then
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

# Helpers used by many tests.
# count_samples FILE: number of SAMPLE records according to perf script.
die() { echo "$*" >&2; return 1; }
expect_eq() { [ "$1" = "$2" ] || { echo "expected '$2', got '$1'"; return 1; }; }
