#!/bin/bash
# pulse report --stdio prints, for every file of the corpus, the rows that
# the real `perf report --stdio --no-children --sort comm,dso,sym` prints
# (whitespace normalised; rows of equal overhead in any order), and the
# same "# Samples", "# Event count" and "# Total Lost Samples" lines.
. "$(dirname "$0")/../e2e/lib/test-lib.sh"

test_expect_success PERF,ROOT,TRACEFS 'record the corpus' '
	record_corpus
'

for name in $(cut -d"|" -f1 <<<"$CORPUS"); do
	test_expect_success PERF,ROOT,TRACEFS "$name: pulse report rows = perf report rows" '
		f=$(corpus_file '"$name"')
		perf_ok $f report --stdio --no-children --sort comm,dso,sym >perf.rep
		pulse_in $f report --stdio --no-children --sort comm,dso,sym >pulse.rep 2>pulse.err
		test_must_be_empty pulse.err
		sorted_rows <perf.rep >perf.rows
		sorted_rows <pulse.rep >pulse.rows
		test -s perf.rows
		test_cmp perf.rows pulse.rows
	'
	test_expect_success PERF,ROOT,TRACEFS "$name: same sample, event count and lost lines" '
		grep -E "^# (Samples|Event count|Total Lost)" perf.rep | sed "s/[[:space:]]\+/ /g" >perf.hdr
		grep -E "^# (Samples|Event count|Total Lost)" pulse.rep | sed "s/[[:space:]]\+/ /g" >pulse.hdr
		test_cmp perf.hdr pulse.hdr
	'
done

test_expect_success PERF,ROOT,TRACEFS 'the default sort of pulse report is comm,dso,sym' '
	perf_ok cg.data report --stdio --no-children --sort comm,dso,sym >a
	pulse report -i cg.data --stdio --no-children >b
	sorted_rows <a >a.rows
	sorted_rows <b >b.rows
	test_cmp a.rows b.rows
'

test_done
