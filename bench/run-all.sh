#!/bin/bash
# make bench: every benchmark, each printing its figures and ratios.
set -u
dir=$(cd "$(dirname "$0")" && pwd)
"$dir/record-storm.sh"
"$dir/report.sh"
"$dir/script.sh"
"$dir/data-convert.sh"
"$dir/pprof.sh"
"$dir/diff.sh"
"$dir/flamegraph.sh"
"$dir/pt-script.sh"
"$dir/flight.sh"
"$dir/counter-read.sh"
"$dir/stat-start.sh"
"$dir/stat-interval.sh"
"$dir/aux-capture.sh"
"$dir/offcpu.sh"
"$dir/dwarf-lost.sh"
"$dir/dwarf-report.sh"
"$dir/dwarf-script.sh"
