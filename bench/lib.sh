# bench/lib.sh: what every benchmark in bench/ shares, sourced, not run:
#
#	set -u
#	. "$(dirname "$0")/lib.sh"
#	bench_init NAME [DEFAULT_RUNS]	# top BUILD RUNS PULSE PERF TIME
#	bench_need_perf			# skip (exit 0) without perf
#	bench_need_time			# skip (exit 0) without /usr/bin/time
#	bench_data			# data=the >= 1M-sample file (mkdata.sh)
#	bench_samples FILE		# FILE's sample count, as perf counts
#	x=$(median < FILE)		# the median of one number a line
#	ratio A B [DECIMALS]		# A / B, 3 decimals unless told, 0 if B <= 0
#	bench_timed OUT CMD...		# append CMD's wall time (s, 3 decimals) to OUT
#
# The environment a script takes: BUILD (default: build/ of this tree),
# RUNS (the script's default, else 3), PERF (default /usr/bin/perf).
# What is particular to one benchmark (its workload, what it measures and
# how it prints) stays in its script; only the preamble and the helpers
# whose output several scripts print the same way live here, so that the
# figures keep one format (README and other scripts quote their lines).

# bench_init NAME [DEFAULT_RUNS]: NAME prefixes the skip messages
bench_init() {
	BENCH_NAME=$1
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	BUILD=${BUILD:-$top/build}
	RUNS=${RUNS:-${2:-3}}
	PULSE=$BUILD/pulse
	PERF=${PERF:-/usr/bin/perf}
	TIME=/usr/bin/time
}

# A machine without the reference tool skips the benchmark: exit 0, as
# `make bench` runs them all and one missing tool should not stop the rest.
bench_need_perf() {
	[ -x "$PERF" ] || { echo "# $BENCH_NAME: $PERF not installed: skipping"; exit 0; }
}

bench_need_time() {
	[ -x "$TIME" ] || { echo "# $BENCH_NAME: $TIME not installed: skipping"; exit 0; }
}

# Not in $(...): the exit must leave the script, not a subshell.
bench_data() {
	data=$("$top/bench/mkdata.sh") || exit 1
}

# perf's count, so that every script and mkdata.sh's cache check agree.
bench_samples() {
	"$PERF" report -i "$1" --stats 2>/dev/null | awk '$1 == "SAMPLE" && $2 == "events:" {print $3; exit}'
}

# An even count takes the mean of the two middle values.
median() {
	sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'
}

ratio() {
	awk -v a="$1" -v b="$2" -v d="${3:-3}" 'BEGIN {printf "%." d "f", (b > 0) ? a / b : 0}'
}

# For commands /usr/bin/time cannot help with (a shell loop's pieces) or
# where only the wall time counts; output and errors are thrown away.
bench_timed() {
	local out=$1 s e
	shift
	s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN {printf "%.3f\n", e - s}' >>"$out"
}
