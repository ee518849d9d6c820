#!/bin/bash
# Symbol options of pulse report against perf report: --kallsyms FILE names
# the kernel's symbols from that file, -k/--vmlinux FILE from that image
# (one that is not the recorded kernel leaves them unresolved), and a
# binary rebuilt since the recording is warned about once. perf wants
# _text/_stext in a kallsyms file to relocate: only names starting with a
# letter are renamed.
. "$(dirname "$0")/lib/test-lib.sh"

# kernel rows (those of [kernel.kallsyms]) of a report, spaces squeezed
krows() {
	awk '/\[k\]/ { $1 = $1; print }' "$1"
}

test_expect_success PERF,ROOT 'a recording with kernel samples' '
	perf record -q -o k.data -- dd if=/dev/zero of=/dev/null bs=16 count=400000 >/dev/null 2>&1 &&
	perf report -i k.data --stdio --no-children 2>/dev/null | grep -q "\[k\]"
'

test_expect_success PERF,ROOT '--kallsyms FILE: the kernel rows name that file'"'"'s symbols, as perf' '
	sed "s/ \([TtWw]\) \([a-z]\)/ \1 renamed_\2/" /proc/kallsyms >ksyms &&
	perf report -i k.data --stdio --no-children --kallsyms ksyms 2>/dev/null >perf.out &&
	"$PULSE" report -i k.data --stdio --no-children --kallsyms ksyms 2>pulse.err >pulse.out &&
	krows perf.out >perf.k && krows pulse.out >pulse.k &&
	grep -q "renamed_" pulse.k &&
	diff -u perf.k pulse.k
'

test_expect_success PERF,ROOT '-k FILE not the recorded kernel: unresolved, as perf' '
	perf report -i k.data --stdio --no-children -k /bin/true 2>/dev/null >perf.out &&
	"$PULSE" report -i k.data --stdio --no-children -k /bin/true 2>pulse.err >pulse.out &&
	krows perf.out >perf.k && krows pulse.out >pulse.k &&
	test -s pulse.k && ! grep -q "renamed_" pulse.k &&
	diff -u perf.k pulse.k &&
	grep -q "/bin/true is not the recorded kernel" pulse.err
'

# perf record keeps a copy of the binary in the build-id cache: symbols
# still come from there, as in perf report; only the file on disk is not used.
test_expect_success PERF 'a binary rebuilt since the recording: warned about once' '
	printf "%s\n" "__attribute__((noinline)) long rb_spin(long n) { long s = 0; for (long i = 0; i < n; i++) s += i ^ (s >> 3); return s; }" \
		"int main(void) { return (int)(rb_spin(300000000) & 1); }" >rb.c &&
	gcc -O1 -o rb rb.c &&
	perf record -q -o rb.data -- ./rb >/dev/null 2>&1 &&
	"$PULSE" report -i rb.data --stdio --no-children 2>pulse.err >pulse.out &&
	grep -q "rb_spin" pulse.out &&
	! grep -q "not the recorded binary" pulse.err &&
	gcc -O1 -g -o rb rb.c &&
	perf report -i rb.data --stdio --no-children 2>/dev/null | grep -v "^# (Tip:" >perf.out &&
	"$PULSE" report -i rb.data --stdio --no-children 2>pulse.err | grep -v "^# (Tip:" >pulse.out &&
	test $(grep -c "/rb on disk is not the recorded binary" pulse.err) = 1 &&
	diff -u perf.out pulse.out
'

test_done
