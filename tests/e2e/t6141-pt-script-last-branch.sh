#!/bin/bash
# pulse script --itrace=...l[N] as perf 6.1: the synthesized instructions,
# transactions and power/ptwrite events carry the thread's last N branches
# (default 64; perf's thread stack branch ring, flags in_tx and abort) as
# their branch stacks, printed by -F +brstack, +brstacksym, +brstackoff;
# on pulse-mkpt's synthetic recordings of tests/workloads/pt-loop.
. "$(dirname "$0")/lib/test-lib.sh"

MKPT=$TOOLS/pulse-mkpt
PT=$WL/pt-loop
OPTS='--itrace=i1il -F +brstack|--itrace=i10il4 -F +brstacksym|--itrace=i3igl -F +brstackoff|--itrace=i1il2 -F +brstack|--itrace=pl -F +brstack|--itrace=i1il'

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

test_expect_success PERF 'instructions with their last branches' '
	mk plain -n 20 && same_all plain.data &&
	same_script plain.data --itrace=i10il4 -F +brstack &&
	grep -q "instructions: .*0x555555555[0-9a-f]*(.*/0x555555555[0-9a-f]*(.*)/-/-/-/0/ " plain.data.pulse
'

test_expect_success PERF 'transactions (aborts), an interrupt, MTC, per-thread' '
	mk mixed -n 30 --tsx --intr 3 --mtc && same_all mixed.data &&
	same_script mixed.data --itrace=xl -F +brstack &&
	grep -q "/-/A/0/" mixed.data.pulse &&
	mk thr -n 50 --per-thread --chunk 200 && same_all thr.data &&
	mk many -n 300 --mtc --psb 3 --chunk 500 && same_all many.data
'

test_done
