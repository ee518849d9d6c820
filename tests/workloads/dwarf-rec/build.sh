#!/bin/sh
# build.sh OUTDIR: the dwarf-rec workload without frame pointers, main in
# OUTDIR/dwarf-rec and the rest in OUTDIR/libdwarf-rec.so (found through
# its rpath). Not built by the Makefile's workload rule, which builds one
# frame-pointer program per tests/workloads/*.c.
set -e
src=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
flags="-O1 -g -fomit-frame-pointer -fno-inline -fno-optimize-sibling-calls"
gcc $flags -shared -fPIC -o "$out/libdwarf-rec.so" "$src/lib.c"
gcc $flags -o "$out/dwarf-rec" "$src/main.c" -L"$out" -ldwarf-rec -Wl,-rpath,'$ORIGIN'
