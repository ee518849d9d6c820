#!/bin/bash
# pulse script --itrace=...G as perf 6.1: the file's own samples (a
# cycles:u event pulse-mkpt --samples adds to its synthetic Intel PT
# recordings of tests/workloads/pt-loop) get the decoder's thread stack
# callchain, printed as callchains (comm unpadded, user addresses as DSO
# offsets), with -G too; alone, with synthesized samples and with g.
. "$(dirname "$0")/lib/test-lib.sh"

MKPT=$TOOLS/pulse-mkpt
PT=$WL/pt-loop
OPTS='--itrace=G|--itrace=i1iG|--itrace=bG|--itrace=i10igG|--itrace=cG3|--itrace=iG -G|--itrace=i100nsG -F +flags|--itrace=G -F comm,tid,time,ip,sym'

same_all() {
	local f=$1 o rc=0
	while IFS= read -r o; do
		# shellcheck disable=SC2086
		same_script "$f" $o || rc=1
	done < <(tr '|' '\n' <<<"$OPTS")
	return $rc
}

mk() {
	local n=$1; shift
	"$MKPT" "$@" "$n.data" "$PT"
}

test_expect_success PERF 'samples of the file'"'"'s own with added callchains' '
	mk plain -n 20 --samples 13 && same_all plain.data &&
	same_script plain.data --itrace=G &&
	grep -q "^pt-loop  4321 \[000\] .*cycles:u: $" plain.data.pulse &&
	grep -q "^	 *11[0-9a-f][0-9a-f] pt_" plain.data.pulse
'

test_expect_success PERF 'with MTC and many PSBs, CYC in small buffers, per-thread' '
	mk mtc -n 100 --mtc --psb 3 --samples 20 && same_all mtc.data &&
	mk cyc -n 300 --cyc --mtc --chunk 500 --samples 30 && same_all cyc.data &&
	mk thr -n 50 --per-thread --chunk 200 --samples 9 && same_all thr.data
'

test_expect_success PERF 'without G: the samples print as the file has them' '
	SAME_SCRIPT_EMPTY=ok same_script plain.data --itrace=i1i &&
	grep -q "^ *pt-loop  4321 \[000\] .*cycles:u: *5555" plain.data.pulse
'

test_done
