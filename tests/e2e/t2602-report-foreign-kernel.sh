#!/bin/bash
# The running kernel's symbols (/proc/kallsyms) and this process's vDSO name
# a recording's kernel and [vdso] frames only when they are the recorded
# ones: the build-id when the file has one (file mode), else, in a pipe,
# the kernel text at the addresses the recording mapped it. A pipe from a
# rebuilt kernel of the same release, or a file whose recorded build-ids
# are another machine's, shows raw addresses there, as perf does when it
# cannot find the recorded binary.
. "$(dirname "$0")/lib/test-lib.sh"

# rows FILE: the report's rows, sorted by dso and symbol
rows() { pulse report --stdio --sort dso,sym -i "$1" 2>err | grep -v "^#" | grep .; }

# set_kernel_len FILE DELTA: the [kernel.kallsyms]_text MMAP's length += DELTA
set_kernel_len() {
	perl -e '
		my ($f, $delta) = @ARGV;
		open my $fh, "+<", $f or die; binmode $fh; local $/; my $d = <$fh>;
		my $at = index($d, "[kernel.kallsyms]_text\0");
		die "no kernel MMAP\n" if $at < 40;
		my $rec = $at - 40;
		die "not an MMAP\n" unless unpack("L<", substr($d, $rec, 4)) == 1;
		my $len = unpack("Q<", substr($d, $rec + 24, 8));
		seek $fh, $rec + 24, 0; print $fh pack("Q<", $len + $delta);' "$@"
}

# flip_build_id FILE NAME: the BUILD_ID feature entry of NAME (header 8,
# pid 4, id 20, size 1, pad 3, name padded to 64) gets another id
flip_build_id() {
	perl -e '
		my ($f, $name) = @ARGV;
		open my $fh, "+<", $f or die; binmode $fh; local $/; my $d = <$fh>;
		my $at = rindex($d, "$name\0");
		my $want = 36 + int((length($name) + 64) / 64) * 64;
		die "no BUILD_ID entry for $name\n"
			if $at < 36 || unpack("S<", substr($d, $at - 30, 2)) != $want;
		my $b = unpack("C", substr($d, $at - 24, 1));
		seek $fh, $at - 24, 0; print $fh pack("C", $b ^ 0xff);' "$@"
}

test_expect_success 'a pipe recorded here: kernel and [vdso] frames named' '
	pulse record -q -o - -- "$WL/vdso" 300 >here.pipe 2>/dev/null &&
	rows here.pipe >rows &&
	grep -qE "\[kernel\.kallsyms\] +\[k\] [a-z_]" rows &&
	grep -qE "\[vdso\] +\[\.\] [a-z_]" rows
'

test_expect_success 'a pipe from a rebuilt kernel of the same release: raw addresses' '
	cp here.pipe rebuilt.pipe &&
	set_kernel_len rebuilt.pipe 4096 &&
	rows rebuilt.pipe >rows &&
	grep -qE "\[kernel\.kallsyms\] +\[k\] 0x" rows &&
	! grep -qE "\[kernel\.kallsyms\] +\[k\] [a-z_]" rows &&
	grep -qE "\[vdso\] +\[\.\] 0x" rows &&
	! grep -qE "\[vdso\] +\[\.\] [a-z_]" rows &&
	grep -qE "^ +[0-9.]+% +vdso +\[\.\] now_ms" rows
'

test_expect_success 'a file recorded here: named; with another kernel build-id: raw' '
	pulse record -q -o here.data -- "$WL/vdso" 300 2>/dev/null &&
	rows here.data >rows &&
	grep -qE "\[kernel\.kallsyms\] +\[k\] [a-z_]" rows &&
	grep -qE "\[vdso\] +\[\.\] [a-z_]" rows &&
	cp here.data other.data &&
	flip_build_id other.data "[kernel.kallsyms]" &&
	rows other.data >rows &&
	grep -qE "\[kernel\.kallsyms\] +\[k\] 0x" rows &&
	! grep -qE "\[kernel\.kallsyms\] +\[k\] [a-z_]" rows &&
	grep -qE "\[vdso\] +\[\.\] 0x" rows &&
	! grep -qE "\[vdso\] +\[\.\] [a-z_]" rows
'

# perf looks in the build-id cache of $HOME: an empty one here
test_expect_success PERF 'a perf file whose [vdso] and kernel are another machine: as perf' '
	perf record -q -o perf.data -- "$WL/vdso" 300 >/dev/null 2>&1 &&
	flip_build_id perf.data "[vdso]" &&
	flip_build_id perf.data "[kernel.kallsyms]" &&
	mkdir home &&
	HOME=$PWD/home perf report --stdio --sort dso,sym -i perf.data 2>/dev/null |
		grep -v "^#" | grep . >perf.rows &&
	HOME=$PWD/home rows perf.data >pulse.rows &&
	test_cmp perf.rows pulse.rows &&
	grep -qE "\[vdso\] +\[\.\] 0x" pulse.rows &&
	! grep -qE "\[vdso\] +\[\.\] [a-z_]" pulse.rows
'

test_done
