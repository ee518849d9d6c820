#!/bin/bash
# Group files another tool could write (tests/tools/pulse-mkgroup, through
# the project's writer): task-clock leading page-faults with
# PERF_SAMPLE_READ in each read_format layout (GROUP|ID, with
# TOTAL_TIME_ENABLED|RUNNING, with LOST, all of them, and ID alone: each
# event's own value), file and pipe mode, with LOST_SAMPLES records. pulse
# report (group view, --no-group -n, -D, --stats) and pulse script (default
# and -F period) print what perf 6.1 prints, and the lost-samples warning
# counts records as perf's does; attrs laid out as older perfs wrote them.
. "$(dirname "$0")/lib/test-lib.sh"

MK="$TOOLS/pulse-mkgroup"

# same_all FILE: every command compared on FILE (pipe files through stdin)
same_all() {
	local f=$1 c
	for c in "report --stdio" "report --stdio --no-group -n" "script" \
		 "script -F period,event,ip" "report -D" "report --stats"; do
		perf_in "$f" $c 2>/dev/null | grep -v "^# (Tip:" >"$f.perf" &&
		if is_pipe_file "$f"; then
			pulse $c -i - <"$f"
		else
			pulse $c -i "$f"
		fi 2>/dev/null | grep -v "^# (Tip:" >"$f.pulse" &&
		[ -s "$f.perf" ] && diff -u "$f.perf" "$f.pulse" >"$f.diff" || {
			echo "$c differs on $f:" >&2; head -20 "$f.diff" >&2; return 1; }
	done
}

for layout in group group-times group-lost group-all one; do
	test_expect_success PERF "read_format $layout: file, pipe, LOST_SAMPLES" "
		'$MK' $layout.data $layout && same_all $layout.data &&
		'$MK' $layout.pipe $layout pipe && same_all $layout.pipe &&
		'$MK' $layout-lost.data $layout lost && same_all $layout-lost.data &&
		'$MK' $layout-lost.pipe $layout pipe lost && same_all $layout-lost.pipe
	"
done

# older perfs' attrs (PERF_ATTR_SIZE_VER0 64, VER3 96, VER5 112 bytes) in
# the attrs section and in a pipe's HEADER_ATTRs
for size in 64 96 112; do
	test_expect_success PERF "attrs of $size bytes, as an older perf wrote them: file and pipe" "
		'$MK' old$size.data group-times attr=$size &&
		expect_eq \"\$(od -A n -t u8 -j 16 -N 8 old$size.data | tr -d ' ')\" $((size + 16)) &&
		same_all old$size.data &&
		'$MK' old$size.pipe group-times pipe attr=$size && same_all old$size.pipe
	"
done

# the leader grows 250000 * (1 + i % 3), the member i % 4, for i < 40:
# 40 leader values, 30 member values that grew
test_expect_success PERF 'the group view: the read values as periods' '
	"$MK" gv.data group &&
	pulse report -i gv.data --stdio >g.out &&
	grep -q "^# Samples: 70  of events .anon group { task-clock, page-faults }.$" g.out &&
	grep -q "^# Event count (approx.): 19750060$" g.out &&
	grep -q "^    49.37%  33.33%  grp " g.out
'

test_expect_success PERF 'lost samples: perf'"'"'s count of records in the warning' '
	"$MK" lw.data group lost &&
	perf report -i lw.data --stdio 2>&1 >/dev/null | grep -q "Processed 86 samples and lost 53.49%" &&
	pulse report -i lw.data --stdio 2>&1 >/dev/null | grep -q "46 of 86 events lost (53.49%)"
'

test_done
