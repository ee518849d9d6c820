#!/bin/bash
# pulse data convert --to-pprof on a --call-graph dwarf file (recorded by
# perf): the samples' stacks are the unwound ones, as report's, so pprof's
# traces run leaf_a <- mid <- main in a program built without frame
# pointers, and its cumulative shares are report --children's.
. "$(dirname "$0")/lib/test-lib.sh"

export PPROF_TMPDIR=$TEST_DIR HOME=$TEST_DIR GOCACHE=$TEST_DIR/go-cache GOFLAGS=-mod=mod
pprof() { go tool pprof "$@" 2>/dev/null; }

test_expect_success PERF 'record dwarf-tree with perf --call-graph dwarf, convert it' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/dwarf-tree" 300 >/dev/null 2>&1 &&
	pulse data convert --to-pprof dw.pb.gz -i dw.data 2>conv.err &&
	gzip -t dw.pb.gz
'

test_expect_success PERF,GO 'the traces hold the unwound callers' '
	pprof -traces dw.pb.gz >traces &&
	grep -A3 "^ *[0-9.]*m\{0,1\}s  *leaf_a$" traces >leaf &&
	grep -q "^ *mid$" leaf && grep -q "^ *main$" leaf
'

test_expect_success PERF,GO 'mid'"'"'s cumulative share is report --children'"'"'s' '
	pprof -top -cum -noinlines -nodefraction=0 dw.pb.gz >top &&
	cum=$(awk "\$NF == \"mid\" { sub(\"%\", \"\", \$5); printf \"%d\", \$5 }" top) &&
	rep=$(pulse report -i dw.data --stdio --children --sort sym -g none 2>/dev/null |
	      awk "\$NF == \"mid\" { sub(\"%\", \"\", \$1); printf \"%d\", \$1 }") &&
	test -n "$cum" && expect_eq "$cum" "$rep"
'

test_done
