#!/bin/bash
# pulse script decodes Intel PT as perf 6.1 does: on synthetic recordings
# of tests/workloads/pt-loop (tests/tools/pulse-mkpt, libipt's encoder),
# perf script --itrace=X and pulse script --itrace=X print the same lines,
# for instructions with their periods (i1i, i10i, i100ns, i1us), branches
# (b, -F +flags), calls, returns, transactions, errors and the default;
# with noretcomp, MTC, CYC, many PSBs and buffers, per-thread, older
# AUXTRACE_INFO sizes; the errors of a missing binary, an overflow, a
# mismatch, truncated AUX data; an interrupt; pipe mode.
. "$(dirname "$0")/lib/test-lib.sh"

MKPT=$TOOLS/pulse-mkpt
PT=$WL/pt-loop
OPTS='--itrace=b|--itrace=i1i|--itrace=i10i -F +flags|--itrace=i100ns|--itrace=i1us|--itrace=c|--itrace=r|--itrace=cr|--itrace=x|--itrace=e|--itrace=bx -F +flags|--itrace=b -F +flags,+addr|--itrace=ibcrxe|--itrace=bs3|--itrace=p|--itrace=be-o'

# same_all FILE: perf and pulse print the same for the default and each of
# OPTS (some print nothing on some files, e.g. x without transactions)
same_all() {
	local f=$1 o rc=0
	same_script "$f" || rc=1
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		SAME_SCRIPT_EMPTY=ok same_script "$f" $o || rc=1
	done < <(tr '|' '\n' <<<"$OPTS")
	return $rc
}

# mk NAME ARGS...: pulse-mkpt ARGS NAME.data pt-loop
mk() {
	local n=$1; shift
	"$MKPT" "$@" "$n.data" "$PT"
}

test_expect_success PERF 'file mode, 10 iterations' '
	mk plain -n 10 && same_all plain.data
'

test_expect_success PERF '300 iterations in buffers of 300 bytes, a PSB every 3' '
	mk chunks -n 300 --chunk 300 --psb 3 && same_all chunks.data
'

test_expect_success PERF 'noretcomp, MTC, CYC (timestamps and time periods)' '
	mk noret -n 20 --noretcomp && same_all noret.data &&
	mk mtc -n 200 --mtc && same_all mtc.data &&
	mk cyc -n 300 --cyc --chunk 500 && same_all cyc.data &&
	mk cycmtc -n 200 --cyc --mtc && same_all cycmtc.data
'

test_expect_success PERF 'a missing binary: perf'"'"'s error events, no samples from it' '
	mk missing -n 10 --missing && same_all missing.data &&
	pulse script -i missing.data --itrace=e >e.out 2>e.err &&
	grep -q "code 5: Failed to get instruction" e.out &&
	n=$(grep -c "instruction trace error" e.out) &&
	perf script -i missing.data --itrace=e 2>p.err >/dev/null &&
	grep -q "^$n instruction trace errors" p.err &&
	grep -qx "warning: $n instruction trace errors" e.err &&
	pulse report -i missing.data --stdio 2>r.err >/dev/null &&
	grep -qx "warning: $n instruction trace errors" r.err
'

test_expect_success PERF 'an overflow, a mismatch, truncated AUX data' '
	mk ovf -n 20 --ovf 4 && same_all ovf.data &&
	mk ovf1 -n 50 --chunk 100 --ovf 7 && same_all ovf1.data &&
	mk mis -n 10 --mismatch 3 && same_all mis.data &&
	mk trunc -n 10 --aux-flags 1 && same_all trunc.data &&
	pulse script -i trunc.data --itrace=e | grep -q "code 8: Lost trace data"
'

test_expect_success PERF 'an interrupt, transactions, per-thread' '
	mk intr -n 10 --intr 2 && same_all intr.data &&
	mk tsx -n 10 --tsx && same_all tsx.data &&
	mk mixed -n 30 --tsx --intr 3 --mtc && same_all mixed.data &&
	mk thr -n 50 --per-thread --chunk 200 && same_all thr.data
'

test_expect_success PERF 'older AUXTRACE_INFO sizes (no max non-turbo ratio: TSC/100 MHz)' '
	mk info10 -n 10 --info 10 && same_all info10.data &&
	mk info15 -n 10 --info 15 && same_all info15.data
'

# perf 6.1 stops reading pulse-mkpt's pipes early ("unexpected end of event
# stream", as on a real Intel PT pipe: "bad event header size"): pulse's
# lines from the pipe are perf's from the same recording as a file.
test_expect_success PERF 'pipe mode: perf'"'"'s lines of the file form' '
	mk pipe -n 20 --pipe && mv pipe.data pipe.pipe &&
	mk file20 -n 20 &&
	for o in --itrace=b --itrace=i1i --itrace=i100ns --itrace=e ""; do
		perf script -i file20.data $o >perf.out 2>/dev/null &&
		pulse script -i - $o <pipe.pipe >pulse.out &&
		test_cmp perf.out pulse.out || return 1
	done
'

test_expect_success PERF '--no-itrace: no decoding, the file'"'"'s own samples only' '
	pulse script -i plain.data --no-itrace >none.out &&
	perf script -i plain.data --no-itrace >none.exp 2>/dev/null &&
	test_cmp none.exp none.out
'

test_expect_success 'a pipe cut inside its AUX data: what came is decoded, a warning, exit 0' '
	mk cut -n 2000 --pipe --chunk 4096 && mv cut.data cut.pipe &&
	head -c $(( $(stat -c %s cut.pipe) - 3000 )) cut.pipe >cut2.pipe &&
	pulse script -i - --itrace=b <cut2.pipe >cut.out 2>cut.err &&
	grep -q "unreadable" cut.err &&
	test -s cut.out
'

# the AUXTRACE_INFO's type (u32 after its 8-byte header) made cs_etm's
test_expect_success 'another PMU'"'"'s AUX data: one warning, the rest printed' '
	mk etm -n 3 &&
	off=$(od -A d -v -t x8 -w8 etm.data | awk "\$2 ~ /^00..000000000046\$/ { print \$1 + 0; exit }") &&
	printf "\003" | dd of=etm.data bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null &&
	pulse script -i etm.data >etm.out 2>etm.err &&
	grep -q "^warning: the file.s cs_etm AUX area data is not decoded" etm.err &&
	test_must_be_empty etm.out
'

test_done
