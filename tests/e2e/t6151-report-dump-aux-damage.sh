#!/bin/bash
# report -D on damaged AUX-area files (made by tests/tools/pulse-mkaux):
# an AUXTRACE_INFO perf 6.1 refuses (too short for intel_pt, intel_bts or
# arm_spe, a filter string longer than the record, not terminated or not in
# perf's address filter grammar, cs_etm blocks perf cannot use, a type perf
# does not know) ends the dump where perf's ends, with one error line
# that names it and its offset, exit 1 (perf prints "failed to process
# type: 70" and exits 0); report --stats, which perf does not make read it,
# goes on as perf does. An AUXTRACE whose data runs past the end of the
# file or pipe is printed without its data, then one warning with its
# offset (perf 6.1 dies of SIGBUS on the file). Noise is decoded, never a
# crash or a hang.
. "$(dirname "$0")/lib/test-lib.sh"

MK=$TOOLS/pulse-mkaux

# refused PATTERN MKAUX-ARGS...: pulse stops with one error matching PATTERN
# at offset 0x100 (the data section's start: the AUXTRACE_INFO); with perf,
# the same stdout as perf's
refused() {
	local pat=$1
	shift
	"$MK" -x none "$@" bad.data &&
	expect_fail 1 bad.err "$PULSE" report -D -i bad.data &&
	one_error bad.err "$pat at offset 0x100" &&
	if test_have_prereq PERF; then
		perf report -D -i bad.data >bad.perf 2>/dev/null
		test_cmp bad.perf bad.err.out
	fi
}

test_expect_success 'AUXTRACE_INFO too short for intel_pt: one error with the offset' '
	refused "AUXTRACE_INFO too short for intel_pt" -w 8 &&
	refused "AUXTRACE_INFO too short for intel_pt" -w 0
'

test_expect_success 'too short for intel_bts, arm_spe, hisi_ptt' '
	refused "too short for intel_bts" -t 2 -w 4 &&
	refused "too short for arm_spe" -t 4 -w 1 &&
	refused "too short for hisi_ptt" -t 6 -w 0
'

test_expect_success 'intel_pt filter string: bad length, not terminated' '
	refused "bad filter string length" -f 0123456789abcdef -L 300 &&
	refused "filter string not null terminated" -f 0123456789abcdef -L 15
'

# filter_case OK|BAD FILTER: perf's address filter grammar
filter_case() {
	"$MK" -x none -f "$2" flt.data &&
	if [ "$1" = OK ]; then
		pulse report -D -i flt.data >flt.out &&
		grep -qxF "  Filter string       $2" flt.out
	else
		refused "an address filter perf cannot parse" -f "$2"
	fi
}

test_expect_success 'intel_pt address filters perf parses, and those it refuses' '
	filter_case OK "filter 0x1000/0x200@/bin/ls" &&
	filter_case OK "start main @ /bin/ls" &&
	filter_case OK "tracestop sym #2 / 10" &&
	filter_case OK "filter sym #g" &&
	filter_case OK "filter 0x1000,start 0x20" &&
	filter_case OK "start *@/bin/ls" &&
	filter_case BAD "filter" &&
	filter_case BAD "0123" &&
	filter_case BAD "bogus 1" &&
	filter_case BAD "filter sym #x" &&
	filter_case BAD "filter 12 @ 3" &&
	filter_case BAD "filter 1 / " &&
	filter_case BAD "filter 99999999999999999999999" &&
	filter_case BAD "filter sym #99999999999"
'

test_expect_success 'cs_etm AUXTRACE_INFO: the words as perf prints them, where perf refuses it' '
	v4=0x4040404040404040 v3=0x3030303030303030 ete=0x5050505050505050 &&
	# no event of the PMU type (8): refused before anything is printed
	refused "no event of the ETM.s PMU type" -t 3 -W 1,0x800000001,0,$v4,0,7,1,2,3,4,5,6,7 &&
	refused "two CPUs with one trace ID" -t 3 \
		-W 1,0x100000002,0,$v4,0,7,1,2,3,4,5,6,7,$v3,1,4,1,2,3,4 &&
	grep -q "ETMTRACEIDR" bad.err.out &&
	refused "the CPUs. blocks do not fill the record" -t 3 -W 1,0x100000001,0,$v4,0,7,1,2,3,4,5,6,7,9 &&
	refused "do not fill the record" -t 3 -W 0,0x100000001,0,$v4,0,1,2,3,4,5,6,7,0x99 &&
	refused "unrecognised magic number" -t 3 -W 0,0x100000001,0,$ete,0,1,2,3,4,5,6,7 &&
	refused "unrecognised magic number" -t 3 -W 1,0x100000001,0,0x1234,0,7,1,2,3,4,5,6,7 &&
	grep -q "Magic number Unknown" bad.err.out &&
	refused "unknown header version" -t 3 -W 2,0x100000001,0,$v4,0,7,1,2,3,4,5,6,7 &&
	grep -q "Unknown Header Version = 2, Version supported <= 1" bad.err.out
'

test_expect_success 'an auxtrace type perf 6.1 does not know' '
	refused "type perf 6.1 does not know" -t 0 -w 2 &&
	refused "type perf 6.1 does not know" -t 9 -w 2
'

test_expect_success 'report --stats does not read the AUXTRACE_INFO (as perf)' '
	"$MK" -w 8 -x none short.data &&
	pulse report --stats -i short.data >stats.out &&
	grep -q "AUXTRACE_INFO events:          1" stats.out &&
	if test_have_prereq PERF; then
		perf report --stats -i short.data >stats.perf 2>/dev/null &&
		test_cmp stats.perf stats.out
	fi
'

test_expect_success 'AUXTRACE data past the end of the file: the record, one warning' '
	"$MK" -x past past.data &&
	pulse report -D -i past.data >past.out 2>past.err &&
	grep -q "PERF_RECORD_AUXTRACE size: 0x100000" past.out &&
	not grep -q "Intel Processor Trace" past.out &&
	grep -q "AUXTRACE events:          1" past.out &&
	expect_eq "$(grep -c "^warning: " past.err)" 1 &&
	grep -q "^warning: .* unreadable at 0x198$" past.err
'

test_expect_success 'AUXTRACE data past the end of a pipe, from a file and stdin' '
	"$MK" -p -x past past.pipe &&
	pulse report -D -i past.pipe >pp.out 2>pp.err &&
	grep -q "PERF_RECORD_AUXTRACE size: 0x100000" pp.out &&
	grep -q "^warning: .* unreadable at 0x" pp.err &&
	pulse report -D -i - <past.pipe >ps.out 2>ps.err &&
	grep -q "PERF_RECORD_AUXTRACE size: 0x100000" ps.out &&
	grep -q "^warning: .* unreadable at 0x" ps.err
'

test_expect_success 'noise as Intel PT data: decoded, every byte shown once' '
	for seed in 11 12 13; do
		"$MK" -x random:$seed:65536 n.data &&
		pulse report -D -i n.data >n.out 2>n.err || return 1
		# the offsets run on without a gap up to the end
		perl -ne '"'"'next unless /^\.  ([0-9a-f]{8}): ((?: [0-9a-f]{2}){1,16})/;
			die "gap at $1\n" if hex($1) != $n; $n += length($2) / 3;
			END { die "ends at $n\n" if $n != 65536 }'"'"' n.out ||
			return 1
	done
'

test_done
