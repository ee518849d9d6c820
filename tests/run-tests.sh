#!/bin/bash
# Runs every test (unit binaries, e2e and interop scripts), all of which
# speak TAP, and ends with one summary line: "N passed, N failed, N skipped".
# PULSE_TESTS=<glob> restricts the set (e.g. PULSE_TESTS='t1*'; several: 't1* test-hist').
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
export PULSE_TOP=$top PULSE_BUILD=$top/$BUILD
# A test must pass in a clone at any path: where we can (root, unshare),
# the tests run in a private mount namespace with an empty tmpfs over every
# directory outside the clone that a test data file names, so that a test
# reading one fails here as it would on a user's machine.
if [ -z "${PULSE_ISOLATED:-}" ] && [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	export PULSE_ISOLATED=1
	hide=$(BUILD=$BUILD "$top/tests/hide-outside.sh" "$top")
	exec unshare -m --propagation private bash -c '
		for d in $1; do
			mount -t tmpfs -o ro,size=4k pulse-hidden "$d" || exit 1
			echo "# hidden outside the clone: $d"
		done
		exec bash "$0"' "$0" "$hide"
fi
# Leaks inside third-party libraries are not ours to fix (see the file).
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
pass=0 fail=0 skip=0
failed_names=()
patterns=${PULSE_TESTS:-*}
selected() { # name: is it one of $patterns?
	local p
	set -f
	for p in $patterns; do
		set +f
		case "$1" in $p) return 0 ;; esac
	done
	set +f
	return 1
}

# A script that runs longer than this has hung. Sanitizer builds run some
# three times slower: t5001's 80 scripts of damaged tracepoint files, each
# having libtracefs read /proc/kallsyms in small reallocs, took 13 s a run
# under ASan on a machine where fresh pages are dear.
script_timeout=600
ldd "$PULSE_BUILD/pulse" 2>/dev/null | grep -q libasan && script_timeout=1800

run_one() {
	local name=$1; shift
	local out rc
	out=$(timeout "$script_timeout" "$@" 2>&1)
	rc=$?
	local p f s
	p=$(grep -cE '^ok [0-9]+' <<<"$out")
	s=$(grep -cE '^ok [0-9]+.*# SKIP' <<<"$out")
	f=$(grep -cE '^not ok [0-9]+' <<<"$out")
	p=$((p - s))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1 # crashed or timed out without saying which test
		out+=$'\n'"# exited with status $rc"
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
	printf '%-44s %3d passed %3d failed %3d skipped\n' "$name" "$p" "$f" "$s"
	if [ "$f" -ne 0 ] || [ -n "${PULSE_VERBOSE:-}" ]; then
		failed_names+=("$name")
		sed 's/^/    /' <<<"$out" | grep -vE '^    ok [0-9]+' | tail -40
	fi
}

# the unit tests of the sources there are: a binary left in the build
# directory by a test since removed is not run
for src in "$top"/tests/unit/test-*.c; do
	[ -f "$src" ] || continue
	n=$(basename "$src" .c)
	selected "$n" || continue
	t=$top/$BUILD/tests/unit/$n
	if [ -x "$t" ]; then
		run_one "unit/$n" "$t"
	else
		run_one "unit/$n" sh -c "echo 'not ok 1 - $n was not built'; exit 1"
	fi
done
for dir in e2e interop; do
	for t in "$top"/tests/$dir/t[0-9]*.sh; do
		[ -f "$t" ] || continue
		n=$(basename "$t")
		selected "$n" || continue
		run_one "$dir/$n" bash "$t"
	done
done
if [ ${#failed_names[@]} -ne 0 ]; then
	echo "failed: ${failed_names[*]}"
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
