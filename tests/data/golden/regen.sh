#!/bin/bash
# Rebuild the golden set: the tiny workloads (src/), the perf.data files
# perf 6.1 records of them, and perf's expected outputs of every case in
# ./cases. Not run by `make check`: the results are committed, so that the
# reader is tested where perf, root or this kernel are absent.
#
#   tests/data/golden/regen.sh        (as root: the tracepoint recording)
#
# Needs gcc, perf 6.1 and a built tree (`make build-tests`: pulse-mkdata
# turns calls-z.data into a pipe stream for the :pipe cases).
#
# The workloads are linked -nostdlib -static: they map nothing but
# themselves, so their samples resolve through root/ alone, never through
# this machine's libc, loader, vDSO or kernel. They are recorded from
# /tmp/pulse-golden/bin, a path that names no machine or user; root/ holds
# the same binaries at that path for --symfs. Only user-space events
# (cpu-clock:u) are sampled; the tracepoint's kernel addresses stay
# unresolved under --symfs (perf uses no local kallsyms then), so they are
# the recorded numbers on any machine. The outputs never use --header
# (hostname, dates, this machine's CPU).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
BIN=/tmp/pulse-golden/bin
ROOT=$HERE/root
MK=${PULSE_BUILD:-$TOP/build}/tools/pulse-mkdata
CFLAGS="-O0 -fno-omit-frame-pointer -fno-pie -no-pie -static -nostdlib
	-fno-asynchronous-unwind-tables -fcf-protection=none -fno-stack-protector
	-Wl,--build-id=sha1"

command -v perf >/dev/null || { echo "regen.sh: perf is needed" >&2; exit 1; }
perf version | grep -q '^perf version 6\.1\.' ||
	echo "regen.sh: warning: not perf 6.1: $(perf version)" >&2
[ -x "$MK" ] || { echo "regen.sh: build pulse-mkdata first (make build-tests)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. the workloads, at the recorded path and under root/
rm -rf "$ROOT"
mkdir -p "$BIN" "$ROOT$BIN"
for p in gl-calls gl-fork; do
	# shellcheck disable=SC2086
	gcc $CFLAGS -o "$tmp/$p" "$HERE/src/$p.c"
	cp "$tmp/$p" "$BIN/$p"
	cp "$tmp/$p" "$ROOT$BIN/$p"
done

# 2. the recordings (-N: leave ~/.debug alone; the BUILD_ID feature is kept)
rec() { perf record -N -q "$@" >/dev/null 2>"$tmp/rec.err" || { cat "$tmp/rec.err" >&2; return 1; }; }
cd "$HERE"
rm -f ./*.data
rec -F 1000 -e cpu-clock:u -o calls.data "$BIN/gl-calls"
rec -F 1000 -e cpu-clock:u -g -o calls-g.data "$BIN/gl-calls"
perf record -N -q -F 1000 -e cpu-clock:u -g -o - "$BIN/gl-calls" >calls-pipe.data 2>"$tmp/rec.err"
rec -F 1000 -e cpu-clock:u -g -z -o calls-z.data "$BIN/gl-calls"
rec -F 1000 -e cpu-clock:u -e syscalls:sys_enter_write --sample-cpu -o fork-tp.data "$BIN/gl-fork"
chmod 644 ./*.data

# 3. perf's outputs of each case, with --symfs root
is_pipe() { [ "$(od -An -t u8 -j 8 -N 8 "$1" | tr -d ' ')" = 16 ]; }
rm -rf expected
mkdir expected
grep -v '^#' cases | while read -r input name cmd args; do
	[ -n "$input" ] || continue
	file=${input%:pipe}
	if [ "$file" != "$input" ]; then
		"$MK" pipe "$file" "$tmp/in.data"
		file=$tmp/in.data
	fi
	out=expected/${input/:/.}.$name
	# shellcheck disable=SC2086
	if is_pipe "$file"; then
		perf $cmd -i - --symfs "$ROOT" $args <"$file"
	else
		perf $cmd -i "$file" --symfs "$ROOT" $args
	fi 2>/dev/null | grep -v '^# (Tip:' >"$out"
	[ -s "$out" ] || { echo "regen.sh: $out is empty" >&2; exit 1; }
done
du -sh "$HERE"
