#!/bin/bash
# pulse report and script against perf 6.1's own outputs, recorded once
# (tests/data/golden, see its regen.sh): the same perf.data files, read
# with --symfs pointing at the bundled binaries, must give perf's expected
# output byte for byte, on any machine and without perf. The byte-swapped
# and AUXTRACE-bearing variants pulse-mkdata writes must give the same
# outputs as their originals. Where perf is installed, it must still print
# the expected outputs (they are perf's), for the originals and the
# swapped file-mode variants too.
. "$(dirname "$0")/lib/test-lib.sh"

G=$PULSE_TOP/tests/data/golden
ROOT=$G/root
MK=$TOOLS/pulse-mkdata

# the cases: "INPUT NAME COMMAND ARGS..." lines of $G/cases
cases() { grep -v '^#' "$G/cases" | grep .; }

# path INPUT: the file a case reads (FILE:pipe made here by pulse-mkdata)
path() {
	case "$1" in
	*:pipe)
		[ -f "$TEST_DIR/${1%:pipe}.pipe" ] ||
			"$MK" pipe "$G/${1%:pipe}" "$TEST_DIR/${1%:pipe}.pipe" >&2 || return 1
		echo "$TEST_DIR/${1%:pipe}.pipe" ;;
	*) echo "$G/$1" ;;
	esac
}

# pulse_out FILE CMD ARGS...: pulse's output as the expected files hold it
pulse_out() {
	local f=$1 cmd=$2; shift 2
	timeout -k 5 "$TMO" "$PULSE" "$cmd" -i "$f" --symfs "$ROOT" "$@" 2>>"$TEST_DIR/pulse.err" |
		grep -v '^# (Tip:'
}
perf_out() {
	local f=$1 cmd=$2; shift 2
	perf_in "$f" "$cmd" --symfs "$ROOT" "$@" 2>/dev/null | grep -v '^# (Tip:'
}

# check_input TOOL INPUT FILE: every case of INPUT, run by TOOL (pulse_out
# or perf_out) on FILE (INPUT itself or a variant), diffed against INPUT's
# expected output.
check_input() {
	local tool=$1 input=$2 file=$3 n=0 in name cmd args
	while read -r in name cmd args; do
		[ "$in" = "$input" ] || continue
		# shellcheck disable=SC2086
		"$tool" "$file" $cmd $args >out.txt || true
		diff -u "$G/expected/${in/:/.}.$name" out.txt || { echo "case: $in $name" >&2; return 1; }
		n=$((n + 1))
	done < <(cases)
	[ $n -gt 0 ] || die "no case for $input"
}

test_expect_success 'the golden set: inputs, bundled binaries, expected outputs' '
	for p in gl-calls gl-fork; do
		test -x "$ROOT/tmp/pulse-golden/bin/$p" || die "no $p under root/"
	done &&
	while read -r in name cmd args; do
		test -f "$G/${in%:pipe}" && test -s "$G/expected/${in/:/.}.$name" || die "missing: $in $name"
	done < <(cases) &&
	test $(cases | wc -l) -ge 20 &&
	! grep -l "\[unknown\]" "$G"/expected/* &&
	test $(du -sk "$G" | cut -f1) -lt 1024
'

# stderr stays empty but for perf's own -F warning (a typeless "trace"
# field: perf 6.1 prints the same lines for that command)
PERF_F_WARNING="^'[a-z_]*' not valid for [a-z-]* events. Ignoring.\$"

for input in $(cases | awk '{ print $1 }' | uniq); do
	test_expect_success "$input: pulse prints perf's expected outputs (--symfs)" '
		rm -f "$TEST_DIR/pulse.err" &&
		f=$(path "$input") && check_input pulse_out "$input" "$f" &&
		! grep -v "$PERF_F_WARNING" "$TEST_DIR/pulse.err"
	'
done

# COMPRESSED records cannot be swapped (pulse-mkdata unpacks them in pipe mode)
for input in calls.data calls-g.data calls-pipe.data fork-tp.data calls-z.data:pipe; do
	test_expect_success "$input byte-swapped: the same outputs" '
		f=$(path "$input") && "$MK" swap "$f" sw.data 2>/dev/null &&
		[ "$(od -An -c -N 8 sw.data | tr -d " ")" = "2ELIFREP" ] &&
		check_input pulse_out "$input" sw.data
	'
done

for input in calls-g.data calls-pipe.data fork-tp.data; do
	test_expect_success "$input with an AUXTRACE record: the same outputs" '
		"$MK" auxtrace "$G/$input" aux.data 4000 &&
		check_input pulse_out "$input" aux.data
	'
done

test_expect_success 'without the binaries (--symfs an empty dir): no symbols' '
	mkdir -p empty &&
	"$PULSE" report -i "$G/calls.data" --stdio --symfs empty 2>/dev/null >out.txt &&
	grep -q "\[\.\] 0x0000000000" out.txt && ! grep -q leaf_spin out.txt
'

# ---- the goldens are perf's ---------------------------------------------
# stderr stays empty but for perf's own -F warning (a typeless "trace"
# field: perf 6.1 prints the same lines for that command)
PERF_F_WARNING="^'[a-z_]*' not valid for [a-z-]* events. Ignoring.\$"

for input in $(cases | awk '{ print $1 }' | uniq); do
	test_expect_success PERF "$input: perf 6.1 prints the expected outputs" '
		f=$(path "$input") && check_input perf_out "$input" "$f"
	'
done

# perf 6.1 does not swap a pipe stream'"'"'s HEADER_FEATURE records
for input in calls.data calls-g.data fork-tp.data; do
	test_expect_success PERF "$input byte-swapped: perf 6.1 prints the expected outputs" '
		"$MK" swap "$G/$input" sw.data 2>/dev/null &&
		check_input perf_out "$input" sw.data
	'
done

test_expect_success PERF '--symfs an empty dir, and --symfs /: as perf' '
	mkdir -p empty &&
	for s in empty /; do
		for c in "report --stdio --no-children" "script -F comm,tid,ip,sym,dso"; do
			perf $c -i "$G/calls-g.data" --symfs $s 2>/dev/null | grep -v "^# (Tip:" >perf.txt &&
			"$PULSE" $c -i "$G/calls-g.data" --symfs $s 2>/dev/null | grep -v "^# (Tip:" >pulse.txt &&
			diff -u perf.txt pulse.txt || return 1
		done
	done
'

# perf: "do not try local files if a symfs was given"; DIR/.debug is the
# build-id cache (perf record filled $HOME/.debug, moved under DIR here)
test_expect_success PERF,ROOT '--symfs: no local kernel symbols, DIR/.debug as the build-id cache, as perf' '
	mkdir -p home sfs empty &&
	HOME=$TEST_DIR/home perf record -q -o k.data -- dd if=/dev/zero of=/dev/null bs=16 count=200000 >/dev/null 2>&1 &&
	mv home/.debug sfs/.debug &&
	for extra in "" "--kallsyms /proc/kallsyms"; do
		perf report -i k.data --stdio --no-children --symfs sfs $extra 2>/dev/null | grep -v "^# (Tip:" >perf.txt &&
		"$PULSE" report -i k.data --stdio --no-children --symfs sfs $extra 2>/dev/null | grep -v "^# (Tip:" >pulse.txt &&
		diff -u perf.txt pulse.txt || return 1
	done &&
	"$PULSE" report -i k.data --stdio --no-children --symfs sfs 2>/dev/null >nok.txt &&
	grep -q "\[k\] 0xffff" nok.txt &&
	! grep -q "\[k\] 0xffff" pulse.txt &&
	"$PULSE" script -i k.data --symfs sfs -F ip,sym,dso 2>/dev/null >cache.txt &&
	grep -Eq "[a-z_] \\(/usr/lib/.*\\.so" cache.txt &&
	PERF_BUILDID_DIR=$TEST_DIR/sfs/.debug "$PULSE" script -i k.data --symfs empty -F ip,sym,dso 2>/dev/null >nocache.txt &&
	! grep -Eq "[a-z_] \\(/usr/lib/.*\\.so" nocache.txt
'

test_done
