# Helpers of the pulse stat tests (t40xx), sourced after test-lib.sh:
# pulse stat and perf stat on the same arguments, and their output with the
# values taken out, so that layouts compare while counts differ.

# shape FILE: numbers to N, rate prefixes and -r's "( +- x% )" dropped, each
# line prefixed with its length (the columns must not move); the -r footer's
# "+- ... elapsed" line, whose width follows the noise, marked w
shape() {
	sed -E 's/  \( \+- *[0-9.]+% \)//; s/[KMG]\/sec/\/sec /; s/ \/sec  /\/sec  /' "$1" |
		awk '{ l = /\+- .*elapsed/ ? "w" : length($0); gsub(/[0-9][0-9.,]*/, "N"); gsub(/ +/, " ")
		       print l ": " $0 }'
}

# fields FILE: CSV or JSON with the values as N
fields() { sed -E 's/"?[0-9][0-9.]*%?"?/N/g; s/[KMG]\/sec/\/sec/g' "$1"; }

# both ARGS...: perf stat and pulse stat with ARGS; stderr in perf.out and
# pulse.out, stdout in perf.stdout and pulse.stdout
both() {
	perf stat "$@" 2>perf.out >perf.stdout || true
	pulse stat "$@" 2>pulse.out >pulse.stdout || true
}
