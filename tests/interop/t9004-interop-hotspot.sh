#!/bin/bash
# KDAB hotspot reads perf.data through its hotspot-perfparser: every kind of
# file pulse record writes (the interop corpus: file and pipe mode, with and
# without -g, tracepoints, -a; flight snapshots) is read by it with exit
# status 0 and the samples perf script sees, as perf 6.1's files are. A pipe-mode recording
# of a workload that prints is read too: the workload's stdout must not go
# into the stream (perf sends it to stderr).
. "$(dirname "$0")/../e2e/lib/test-lib.sh"

# hotspot-perfparser lives in a libexec directory, off PATH (Debian's hotspot).
PP=$(command -v hotspot-perfparser 2>/dev/null ||
	ls /usr/lib/*/libexec/hotspot-perfparser /usr/libexec/hotspot-perfparser 2>/dev/null | head -1)
test_declare_prereq PERFPARSER
[ -n "$PP" ] && [ -x "$PP" ] && test_set_prereq PERFPARSER

# pp_stats FILE: perfparser's --print-stats of FILE into FILE.stats, its
# stderr into FILE.pperr; fails, saying so, if it does not exit 0.
pp_stats() {
	local rc=0
	timeout -k 5 "$TMO" "$PP" --input "$1" --print-stats >"$1.stats" 2>"$1.pperr" || rc=$?
	[ $rc -eq 0 ] || { echo "hotspot-perfparser exited $rc on $1:" >&2; cat "$1.pperr" >&2; return 1; }
}
# pp_samples FILE: the "samples:" line of FILE.stats
pp_samples() { awk '$1 == "samples:" { print $2 }' "$1.stats"; }
# nr_samples FILE: the samples perf script sees (one line each, no callchains)
nr_samples() { perf_in "$1" script -F event -G 2>/dev/null | grep -c . || true; }
# has_tracepoints FILE: FILE records a tracepoint (type 2)
has_tracepoints() { perf_in "$1" evlist -v 2>/dev/null | grep -q 'type: 2'; }

test_expect_success PERF,ROOT,TRACEFS,PERFPARSER 'record the corpus' '
	record_corpus
'

for name in $(cut -d"|" -f1 <<<"$CORPUS"); do
	test_expect_success PERF,ROOT,TRACEFS,PERFPARSER "$name: hotspot-perfparser reads every sample" '
		f=$(corpus_file '"$name"')
		test -s $f
		if is_pipe_file $f && has_tracepoints $f; then
			# perfparser (up to 1.3 at least) takes only a 12-byte
			# HEADER_TRACING_DATA record; perf 6.1 writes 16 as pulse
			# does, so perfparser reads the rest of the stream 4 bytes
			# off: it refuses it (exit 5), or, when the bytes happen to
			# parse, reads it (0), for perf pipes as for pulse ones (one
			# pulse recording in 12 went through). Either, never a crash.
			rc2=0; "$PP" --input $f --print-stats >/dev/null 2>&1 || rc2=$?
			case $rc2 in 0 | 5) ;; *) echo "perfparser exited $rc2" >&2; false ;; esac
		else
			pp_stats $f
			expect_eq "$(pp_samples $f)" "$(nr_samples $f)"
			"$PP" --input $f --output $f.b2qt 2>/dev/null
			test -s $f.b2qt
		fi
	'
done

# The flight recorder's snapshots, deep and overwrite mode: self-contained
# files hotspot reads as any other (the workload signals the recorder).
for mode in "-M 4M" "--overwrite"; do
	test_expect_success PERF,ROOT,TRACEFS,PERFPARSER "a flight snapshot ($mode): hotspot-perfparser reads every sample" "
		rm -f fl.data.*
		pulse record -q $mode --switch-output -g -e $CORPUS_TP -o fl.data -- \$WL/burst 500 1 --signal 12 --gap-ms 100
		f=\$(ls fl.data.2*)
		pp_stats \$f
		expect_eq \$(pp_samples \$f) 500
		expect_eq \$(nr_samples \$f) 500
	"
done

# The workload prints: perf 6.1 sends its stdout to stderr in pipe mode.
test_expect_success PERF,ROOT,PERFPARSER 'pipe mode: a workload that prints does not corrupt the stream' '
	cat >prints.sh <<-EOF &&
	echo hello from the workload
	ls /
	exec $WL/calltree 200
	EOF
	perf record -q -g -o - -- sh prints.sh >perf.pipe 2>perf.err &&
	grep -q "hello from the workload" perf.err &&
	pp_stats perf.pipe &&
	pulse record -q -g -o - -- sh prints.sh >pulse.pipe 2>pulse.err &&
	grep -q "hello from the workload" pulse.err &&
	not grep -q "hello from the workload" pulse.pipe &&
	pp_stats pulse.pipe &&
	expect_eq "$(pp_samples pulse.pipe)" "$(nr_samples pulse.pipe)" &&
	expect_gt "$(pp_samples pulse.pipe)" 0 "samples" &&
	perf_ok pulse.pipe script >/dev/null
'

test_done
