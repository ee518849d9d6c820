#!/bin/bash
# Where flamegraph -o and data convert --to-json write (cli/output-file.c):
# a regular file is replaced only by a whole one (temporary file + rename),
# a symlink is followed (its target replaced, the link kept), a FIFO or a
# device is written in place and never replaced by a regular file, and
# flamegraph's "-o -" is stdout. With no -i, flamegraph reads a pipe on
# stdin as report, script and data convert do (perf's rule).
. "$(dirname "$0")/lib/test-lib.sh"

DATA=$PULSE_TOP/tests/data
isxml() { python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$1"; }
no_tmp() { if ls -A "$1" | grep -F ".tmp."; then return 1; fi; }

test_expect_success 'flamegraph -o -: the SVG on stdout, no file named "-"' '
	mkdir dash && (cd dash && pulse flamegraph -q -i $DATA/perf-g.data -o - >../dash.svg) &&
	isxml dash.svg && tail -n 1 dash.svg | grep -q "^</svg>$" &&
	test -z "$(ls -A dash)"
'

test_expect_success 'a FIFO: written into, still a FIFO' '
	mkfifo fifo.svg &&
	{ timeout 10 cat fifo.svg >fromfifo.svg & } &&
	timeout 10 "$PULSE" flamegraph -q -i $DATA/perf-g.data -o fifo.svg &&
	wait &&
	test -p fifo.svg && isxml fromfifo.svg &&
	mkfifo fifo.json &&
	{ timeout 10 cat fifo.json >fromfifo.json & } &&
	timeout 10 "$PULSE" data convert -f --to-json fifo.json -i $DATA/perf-g.data 2>/dev/null &&
	wait &&
	test -p fifo.json && python3 -m json.tool fromfifo.json >/dev/null &&
	no_tmp .
'

test_expect_success 'a symlink: its target replaced by a whole file, the link kept' '
	mkdir sub && echo old >sub/real.svg && ln -s sub/real.svg link.svg &&
	pulse flamegraph -q -i $DATA/perf-g.data -o link.svg &&
	test -L link.svg && expect_eq "$(readlink link.svg)" sub/real.svg &&
	isxml sub/real.svg &&
	echo old >sub/real.json && ln -s sub/real.json link.json &&
	pulse data convert -f --to-json link.json -i $DATA/perf-g.data 2>/dev/null &&
	test -L link.json && python3 -m json.tool sub/real.json >/dev/null &&
	# a failure leaves the target as it was
	: >empty.data &&
	expect_fail 1 err pulse flamegraph -i empty.data -o link.svg &&
	test -L link.svg && isxml sub/real.svg &&
	no_tmp . && no_tmp sub
'

test_expect_success ROOT 'a device node: written into, not replaced' '
	mknod null c 1 3 &&
	pulse flamegraph -q -i $DATA/perf-g.data -o null &&
	test -c null &&
	pulse data convert -f --to-json null -i $DATA/perf-g.data 2>/dev/null &&
	test -c null &&
	expect_eq "$(stat -c %t:%T null)" 1:3 &&
	no_tmp .
'

test_expect_success 'a pipe on stdin with no -i: flamegraph reads it' '
	pulse record -q -g -o - -- "$WL/flamesplit" 100 75 >pipe.data 2>/dev/null &&
	mkdir p && cd p &&
	cat ../pipe.data | pulse flamegraph -q -o x.svg &&
	isxml x.svg && grep -q "<title>flame_a (" x.svg &&
	cd ..
'

test_done
