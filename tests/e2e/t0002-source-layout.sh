#!/bin/bash
# The house rules of the source tree (README, "Hacking"), checked so that
# they hold after the next change too: lib/ folders are floors and a floor
# includes only the floors below it; no source file grows past 800 lines;
# cli/ never includes a lib/ private header; every command stays thin.
. "$(dirname "$0")/lib/test-lib.sh"

# the floors, lowest first: a folder may include its own floor and lower
floor_of() { # folder -> level
	case $1 in
	core) echo 0 ;;
	event | ring | data) echo 1 ;;
	symbols | trace | counter) echo 2 ;;
	unwind) echo 3 ;;
	session) echo 4 ;;
	hist | aux) echo 5 ;;
	output | offcpu) echo 6 ;;
	report | record | stat | convert) echo 7 ;;
	flight | flame | diff) echo 8 ;;
	*) echo "" ;;
	esac
}
# the folder a public header belongs to
header_folder() {
	case $1 in
	core.h | buf.h | perf-abi.h) echo core ;;
	event.h | evlist.h | open.h | control.h) echo event ;;
	mmap.h | ring-model.h | ring-aux.h) echo ring ;;
	auxtrace.h | data.h | reader.h | features.h | branch.h | data-src.h | sample-offsets.h | id-index.h | stat-records.h) echo data ;;
	symbols.h | build-id.h | srcline.h | inline.h) echo symbols ;;
	unwind.h | unwind-*.h) echo unwind ;;
	trace.h | trace-decode.h) echo trace ;;
	counter.h) echo counter ;;
	session.h | machine.h | ordering.h | synthesize.h | cc-cursor.h) echo session ;;
	hist.h | hist-branch.h | hist-filter.h | callchain.h) echo hist ;;
	output-*.h | dump.h | script.h | progress.h) echo output ;;
	report.h) echo report ;;
	record.h | record-output.h) echo record ;;
	stat.h | stat-*.h) echo stat ;;
	flight.h) echo flight ;;
	flame.h | flame-*.h) echo flame ;;
	diff.h | diff-*.h) echo diff ;;
	convert.h | convert-*.h) echo convert ;;
	offcpu.h) echo offcpu ;;
	aux.h | aux-*.h | pt-*.h | itrace.h) echo aux ;;
	*) echo "" ;;
	esac
}

# FILE FOLDER: "FILE (FOLDER) includes INC (ITS FOLDER)" for each include upward
check_includes() {
	local f=$1 mine=$2 inc theirs
	for inc in $(sed -n 's/^#include [<"]\(pulse\/[a-z0-9-]*\.h\|[a-z]*\/[a-z0-9-]*\.h\)[>"].*/\1/p' "$f"); do
		case $inc in
		pulse/*) theirs=$(header_folder "${inc#pulse/}") ;;
		sys/* | linux/* | traceevent/* | tracefs/* | elfutils/* | asm/*) continue ;;
		*) theirs=${inc%%/*} ;;
		esac
		if [ -z "$theirs" ] || [ -z "$(floor_of "$theirs")" ]; then
			echo "$f: $inc belongs to no known floor (add it to t0002)"
			continue
		fi
		[ "$theirs" = "$mine" ] && continue
		[ "$(floor_of "$theirs")" -lt "$(floor_of "$mine")" ] ||
			echo "$f ($mine) includes $inc ($theirs)"
	done
}

test_expect_success 'every public header belongs to a floor' '
	for h in "$PULSE_TOP"/include/pulse/*.h; do
		test -n "$(header_folder "$(basename "$h")")" || echo "$h: no floor"
	done >nofloor
	test_must_be_empty nofloor
'

test_expect_success 'a floor includes only its own and lower floors' '
	for f in "$PULSE_TOP"/lib/*/*.[ch]; do
		check_includes "$f" "$(basename "$(dirname "$f")")"
	done >up
	for h in "$PULSE_TOP"/include/pulse/*.h; do
		check_includes "$h" "$(header_folder "$(basename "$h")")"
	done >>up
	test_must_be_empty up
'

test_expect_success 'the check sees an upward include' '
	mkdir -p fake/session &&
	printf "#include <pulse/hist.h>\n" >fake/session/x.c &&
	check_includes fake/session/x.c session >up2 &&
	grep -q "includes pulse/hist.h (hist)" up2
'

test_expect_success 'no source file over 800 lines' '
	wc -l "$PULSE_TOP"/lib/*/*.[ch] "$PULSE_TOP"/cli/*.[ch] "$PULSE_TOP"/include/pulse/*.h |
		awk "\$2 != \"total\" && \$1 > 800" >big
	test_must_be_empty big
'

test_expect_success 'cli/ includes no private lib header, and each command is under 500 lines' '
	grep -l "#include \"[a-z]*/[a-z-]*internal\.h\"" "$PULSE_TOP"/cli/*.c >private || true
	test_must_be_empty private
	wc -l "$PULSE_TOP"/cli/cmd-*.c | awk "\$2 != \"total\" && \$1 >= 500" >fat
	test_must_be_empty fat
'

test_done
