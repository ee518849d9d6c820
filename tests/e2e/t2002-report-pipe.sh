#!/bin/bash
# pulse report against perf report on files without the header features
# perf report leans on: pipe mode (no BUILD_ID: the build-id of each DSO is
# read from the file on disk, which finds its /usr/lib/debug/.build-id
# debug file), pipe files without EVENT_DESC and killed recorders (event
# names derived from the attr, tracepoints from the tracing data), and
# synthetic files that sample every few bytes of a DSO, so that every
# symbol, overlap, PLT entry and data object is resolved as perf does.
. "$(dirname "$0")/lib/test-lib.sh"

# ---- file makers ---------------------------------------------------------

# sweep.pl OUT COMM PID [PATH START STRIDE FROM TO]...: a pipe-mode file with
# one cpu-clock attr (IP|TID|PERIOD, no ids, no name), a COMM, one MMAP per
# PATH (the whole file at START, pgoff 0) and one user sample every STRIDE
# bytes of the file offsets FROM..TO ("-": the whole file).
cat >sweep.pl <<'EOF'
use strict; use warnings; no warnings "portable";
my ($out, $comm, $pid, @dsos) = @ARGV;
open(my $fh, '>:raw', $out) or die "$out: $!";
print $fh pack('a8Q<', 'PERFILE2', 16);
sub rec { my ($t, $misc, $body) = @_; print $fh pack('L<S<S<', $t, $misc, 8 + length $body), $body; }
sub str8 { my $s = shift; my $n = (length($s) + 8) & ~7; return pack("a$n", $s); }
my $attr = pack('L<L<Q<Q<Q<Q<Q<', 1, 128, 0, 1, 0x103, 0, (1 << 8) | (1 << 9));
rec(64, 0, $attr . "\0" x (128 - length $attr));
rec(3, 0, pack('L<L<', $pid, $pid) . str8($comm));
while (@dsos) {
	my ($path, $start, $stride, $from, $to) = splice(@dsos, 0, 5);
	my $size = -s $path or die "$path: $!";
	$from = $from eq '-' ? 0 : hex $from;
	$to = $to eq '-' ? $size : hex $to;
	$start = hex $start;
	rec(1, 2, pack('L<L<Q<Q<Q<', $pid, $pid, $start, ($size + 4095) & ~4095, 0) . str8($path));
	for (my $off = $from; $off < $to; $off += $stride) {
		rec(9, 2, pack('Q<L<L<Q<', $start + $off, $pid, $pid, 1));
	}
}
close $fh or die;
EOF

# attr.pl OUT TYPE CONFIG FLAGS [BP_TYPE BP_ADDR]: a pipe-mode file with one
# attr (hex config and flags word, no name anywhere) and one sample.
cat >attr.pl <<'EOF'
use strict; use warnings; no warnings "portable";
my ($out, $type, $config, $flags, $bp_type, $bp_addr) = @ARGV;
open(my $fh, '>:raw', $out) or die "$out: $!";
print $fh pack('a8Q<', 'PERFILE2', 16);
sub rec { my ($t, $misc, $body) = @_; print $fh pack('L<S<S<', $t, $misc, 8 + length $body), $body; }
my $attr = pack('L<L<Q<Q<Q<Q<Q<L<L<Q<', $type, 128, hex $config, 1, 0x103, 0, hex $flags,
		0, $bp_type // 0, hex($bp_addr // '0'));
rec(64, 0, $attr . "\0" x (128 - length $attr));
rec(3, 0, pack('L<L<a8', 42, 42, "w"));
rec(9, 2, pack('Q<L<L<Q<', 0x1000, 42, 42, 1));
close $fh or die;
EOF

# noname.pl IN OUT: a pipe-mode file without its EVENT_DESC feature and
# EVENT_UPDATE records (HEADER_TRACING_DATA keeps its payload).
cat >noname.pl <<'EOF'
use strict; use warnings;
my ($in, $out) = @ARGV;
open(my $i, '<:raw', $in) or die "$in: $!";
open(my $o, '>:raw', $out) or die "$out: $!";
local $/;
my $d = <$i>;
my $off = 16;
print $o substr($d, 0, 16);
while ($off + 8 <= length $d) {
	my ($type, $misc, $size) = unpack('L<S<S<', substr($d, $off, 8));
	last if $size < 8;
	my $len = $size;
	$len += unpack('L<', substr($d, $off + 8, 4)) if $type == 66;
	my $drop = $type == 78 || ($type == 80 && unpack('Q<', substr($d, $off + 8, 8)) == 12);
	print $o substr($d, $off, $len) unless $drop;
	$off += $len;
}
close $o or die;
EOF

# same_report FILE [PERF-ARGS...]: the whole --stdio report (but perf's
# random tip) of pulse and perf, file or pipe mode, is the same.
same_report() {
	local f=$1; shift
	perf_in "$f" report --stdio --no-children "$@" 2>/dev/null | grep -v '^# (Tip:' >perf.out
	pulse_in "$f" report --stdio --no-children "$@" 2>pulse.err | grep -v '^# (Tip:' >pulse.out
	test_must_be_empty pulse.err
	grep -q '%' perf.out
	test_cmp perf.out pulse.out
}

# same_rows FILE: the rows with their sample counts, in any order of equal
# overhead, and the header lines, of pulse and perf.
same_rows() {
	perf_in "$1" report --stdio --no-children --sort comm,dso,sym -n 2>/dev/null >perf.rep
	pulse_in "$1" report --stdio -n >pulse.rep 2>pulse.err
	test_must_be_empty pulse.err
	sorted_rows <perf.rep >perf.rows
	sorted_rows <pulse.rep >pulse.rows
	test -s perf.rows
	test_cmp perf.rows pulse.rows >rows.diff || { head -40 rows.diff; return 1; }
	grep -E '^# (Samples|Event count)' perf.rep >perf.hdr
	grep -E '^# (Samples|Event count)' pulse.rep >pulse.hdr
	test_cmp perf.hdr pulse.hdr
}

# the C library and dynamic loader the workloads use
LIBC=$(ldd "$WL/spin" 2>/dev/null | awk '$1 ~ /^libc\.so/ { print $3 }')
LDSO=$(readelf -lW "$WL/spin" 2>/dev/null | sed -n 's/.*interpreter: \(.*\)\]/\1/p')

# ---- recorded in pipe mode --------------------------------------------------

test_expect_success PERF 'pipe mode: a workload reports as perf reports it' '
	pulse record -q -o - -- $WL/spin 300 >spin.pipe &&
	same_report spin.pipe
'

test_expect_success PERF 'pipe mode: callchains (self rows), fork and exec' '
	pulse record -q -o - -g -- $WL/calltree >cg.pipe &&
	same_report cg.pipe -g none &&
	pulse record -q -o - -- $WL/forkrename >fork.pipe &&
	same_report fork.pipe
'

test_expect_success PERF 'pipe mode: other modifiers name the event as perf does' '
	pulse record -q -o - -e cpu-clock:u -- $WL/spin 200 >u.pipe &&
	same_report u.pipe &&
	grep -q "of event '"'"'cpu-clock:u" pulse.out
'

test_expect_success PERF,ROOT,TRACEFS 'pipe mode without EVENT_DESC: a tracepoint is named from the tracing data' '
	pulse record -q -o - -e syscalls:sys_enter_getppid -- $WL/getppid 500 >tp.pipe &&
	perl noname.pl tp.pipe tp-noname.pipe &&
	test $(stat -c %s tp-noname.pipe) -lt $(stat -c %s tp.pipe) &&
	same_report tp-noname.pipe &&
	grep -q "of event '"'"'syscalls:sys_enter_getppid'"'"'" pulse.out
'

test_expect_success PERF 'pipe mode without EVENT_DESC: the name comes with its modifiers' '
	perl noname.pl spin.pipe spin-noname.pipe &&
	same_report spin-noname.pipe &&
	grep -q "of event '"'"'cpu-clock:" pulse.out
'

# ---- every address of a DSO -------------------------------------------------

test_expect_success PERF 'every byte of a PIE: .init, stretched _init over .plt, .text, data objects' '
	perl sweep.pl pie.pipe spin 4242 "$WL/spin" 555555554000 1 - - &&
	same_rows pie.pipe
'

# A program with many PLT entries after .init: perf inserts them once the
# symbols are sized, over _init stretched to .text, and its tree walk finds
# some of them and _init for the others.
cat >plt.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv)
{
	char buf[64];
	struct timespec ts;
	void *p = malloc(argc * 16);

	memset(buf, 0, sizeof(buf));
	memcpy(buf, argv[0], strlen(argv[0]) % 32);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(buf, sizeof(buf), "%d", getpid());
	puts(buf);
	printf("%s %ld\n", strchr(buf, '1') ? "y" : "n", (long)ts.tv_nsec);
	free(p);
	return atoi(buf) & 1 ? (int)strtol(buf, NULL, 10) : abs(argc) + (int)sleep(0);
}
EOF

test_expect_success PERF 'PLT entries over a stretched _init: found as perf'"'"'s tree has them' '
	gcc -O1 -o plt plt.c &&
	perl sweep.pl plt.pipe plt 4246 "$PWD/plt" 555555554000 1 - - &&
	same_rows plt.pipe &&
	grep -q "@plt$" pulse.rows
'

test_expect_success PERF 'the dynamic loader: its debug file by build-id, PLT, aliases, data' '
	test -n "$LDSO" &&
	perl sweep.pl ld.pipe ld 4243 "$LDSO" 7f0000000000 5 - - &&
	same_rows ld.pipe
'

test_expect_success PERF 'the C library: PLT, overlapping and nested symbols, versioned names' '
	test -n "$LIBC" &&
	perl sweep.pl libc.pipe libc 4244 "$LIBC" 7f0000000000 7 0 60000 &&
	same_rows libc.pipe &&
	perl sweep.pl libc-data.pipe libc 4245 "$LIBC" 7f1000000000 1 196000 198000 &&
	same_rows libc-data.pipe
'

# ---- event names from the attr ------------------------------------------------

test_expect_success PERF 'no event name in the file: perf'"'"'s names and modifiers' '
	# type config flags [bp_type bp_addr]; flags: exclude_user 0x10,
	# exclude_kernel 0x20, exclude_hv 0x40, precise_ip 0x8000 each,
	# exclude_host 0x80000, exclude_guest 0x100000
	while read -r args; do
		perl attr.pl ev.pipe $args &&
		perf_in ev.pipe report --stdio 2>/dev/null | grep "^# Samples" >perf.ev &&
		pulse_in ev.pipe report --stdio 2>/dev/null | grep "^# Samples" >pulse.ev &&
		test -s perf.ev &&
		{ test_cmp perf.ev pulse.ev || { echo "attr: $args"; false; }; } || exit 1
	done <<-\EOF
	1 0 0
	1 0 100000
	1 1 100030
	1 2 100010
	1 3 180000
	1 9 100000
	1 a 0
	0 0 8000
	0 0 10000
	0 0 118070
	0 a 0
	0 800000000 0
	0 400000001 100000
	3 0 0
	3 10000 100000
	3 104 0
	3 10007 0
	3 201 0
	3 30000 0
	4 1234 100020
	5 0 0 3 1000
	5 0 100000 4 ffff
	2 5 0
	9 0 0
	EOF
'

# ---- a killed recorder ----------------------------------------------------------


# A deliberate difference (README, damaged files): perf stops at the data
# size of the last header rewrite, pulse reads every whole record after it
# too and says so; the records both read are the same.
test_expect_success PERF 'killed recorder: every record perf reads and those after, named as perf names it' '
	kill_mid_run k.data -- $WL/spin 4000 &&
	expect_gt "$(header_data_size k.data)" 0 "data.size" &&
	perf_in k.data script 2>/dev/null >perf.lines &&
	pulse_in k.data script >pulse.lines 2>pulse.err &&
	# killed between a header rewrite and the next write, nothing is past
	# the header data end, and nothing is said about it
	if [ "$(stat -c %s k.data)" -gt "$(header_data_end k.data)" ]; then
		grep -q "^warning: the recording was not finished: [0-9]* bytes of records past" pulse.err
	else
		! grep -q "not finished" pulse.err
	fi &&
	expect_gt "$(wc -l <perf.lines)" 0 "perf lines" &&
	head -n "$(wc -l <perf.lines)" pulse.lines >pulse.head &&
	test_cmp perf.lines pulse.head &&
	pulse_in k.data report --stdio >pulse.out 2>/dev/null &&
	grep -q "of event '"'"'cpu-clock:ppp'"'"'" pulse.out
'

# a workload in the kernel (a syscall loop, ~4 s): spin's few kernel samples
# could leave the ring short of a wakeup when the recorder is killed (seen
# once under the sanitizer build: no samples, no table)
test_expect_success PERF 'killed recorder with cpu-clock:k' '
	kill_mid_run kk.data -e cpu-clock:k -- $WL/getppid 20000000 &&
	perf_in kk.data report --stdio 2>/dev/null >perf.out &&
	pulse_in kk.data report --stdio >pulse.out 2>/dev/null &&
	grep -q "of event '"'"'cpu-clock:k'"'"'" perf.out &&
	grep -q "of event '"'"'cpu-clock:k'"'"'" pulse.out
'

test_done
