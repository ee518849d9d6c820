#!/bin/bash
# Kernel modules in files from other machines: a module's DSO is "[name]"
# (perf's kmod_path__parse_name: .ko, .ko.gz, .ko.xz cut, '-' as '_'), its
# unresolved addresses are taken from its load address, its symbols come
# from its .ko (--symfs, checked against the recorded build-id) or from a
# kallsyms file, as perf 6.1 reports and scripts them. The files are made
# with pulse-synth, the .ko is built here (relocatable, with a build-id),
# in the layouts older perf versions wrote, pipes and byte-swapped files.
. "$(dirname "$0")/lib/test-lib.sh"

KO=/lib/modules/6.1.0-13-amd64/kernel/drivers/net/wireless/ath9k.ko

test_expect_success 'a module built here: relocatable, with a build-id' '
	cat >ath9k.c <<-\EOF &&
	volatile int sink;
	__attribute__((noinline)) void ath9k_tasklet(void) { for (int i = 0; i < 100; i++) sink += i; }
	__attribute__((noinline)) void ath9k_rx(void) { for (int i = 0; i < 50; i++) sink ^= i; ath9k_tasklet(); }
	EOF
	gcc -O1 -c -fno-pic -fno-asynchronous-unwind-tables ath9k.c -o ath9k.o &&
	ld -r --build-id=sha1 -o ath9k.ko ath9k.o &&
	mkdir -p "root${KO%/*}" && cp ath9k.ko "root$KO" &&
	bid=$(readelf -n ath9k.ko | awk "/Build ID/ { print \$3 }") &&
	test -n "$bid" && echo "$bid" >bid &&
	tasklet=$(readelf -sW ath9k.ko | awk "\$8 == \"ath9k_tasklet\" { print \$2 }") &&
	rx=$(readelf -sW ath9k.ko | awk "\$8 == \"ath9k_rx\" { print \$2 }") &&
	test "$tasklet" = 0000000000000000 && test -n "$rx"
'

# spec FORMAT ATTR_SIZE SAMPLE_ID_ALL BUILD_ID: samples at ath9k_tasklet+4,
# ath9k_rx+4 (twice, one with a chain through ath9k_rx+0x14), an address
# past every symbol, and one in a module with no file
spec() {
	local rx=$((0xffffffffc0400000 + 0x$(readelf -sW ath9k.ko |
		awk "\$8 == \"ath9k_rx\" { print \$2 }")))
	local sid= bidline=
	[ "$3" = 1 ] && sid="|sample_id_all"
	[ -n "$4" ] && bidline="build_id pid=-1 bid=$4 name=$KO misc=kernel"
	cat <<-EOF
	format $1
	attr_size $2
	feature osrelease 6.1.0-13-amd64
	$bidline
	event name=cycles type=0 config=0 period=1000 sample_type=IP|TID|TIME|PERIOD|CALLCHAIN ids=7 flags=comm|mmap$sid
	mmap pid=-1 tid=0 start=0xffffffffc0400000 len=0x3000 name=$KO misc=kernel
	mmap pid=-1 tid=0 start=0xffffffffc0500000 len=0x8000 name=/lib/modules/6.1.0-13-amd64/kernel/sound/snd-hda-codec.ko.xz misc=kernel
	comm pid=100 tid=100 comm=irq/33-ath9k exec=1 time=1000
	sample ip=0xffffffffc0400004 pid=100 tid=100 time=2000 misc=kernel callchain=0xffffffffffffff80,0xffffffffc0400004,$(printf %#x $((rx + 0x14)))
	sample ip=$(printf %#x $((rx + 4))) pid=100 tid=100 time=2001 misc=kernel callchain=0xffffffffffffff80,$(printf %#x $((rx + 4)))
	sample ip=$(printf %#x $((rx + 4))) pid=100 tid=100 time=2002 misc=kernel callchain=0xffffffffffffff80,$(printf %#x $((rx + 4)))
	sample ip=0xffffffffc0402000 pid=100 tid=100 time=2003 misc=kernel callchain=0xffffffffffffff80,0xffffffffc0402000
	sample ip=0xffffffffc0500010 pid=100 tid=100 time=2004 misc=kernel callchain=0xffffffffffffff80,0xffffffffc0500010
	EOF
}

# rows FILE ARGS: report rows, no headers
rows() { f=$1; shift; pulse report --stdio --no-children -g none "$@" -i "$f" 2>err | grep -v "^#" | grep .; }

test_expect_success 'symbols from the .ko under --symfs, names and relative addresses' '
	spec file 128 1 $(cat bid) | "$TOOLS/pulse-synth" - mod.data &&
	rows mod.data --symfs root >out &&
	text=$(readelf -SW ath9k.ko |
		awk "{ for (i = 1; i < NF; i++) if (\$i == \".text\") print \$(i + 3) }") &&
	cat >expect <<-EOF &&
	    40.00%  irq/33-ath9k  [ath9k]           [k] ath9k_rx
	    20.00%  irq/33-ath9k  [ath9k]           [k] ath9k_tasklet
	    20.00%  irq/33-ath9k  [ath9k]           [k] 0x$(printf %016x $((0x2000 + 0x$text)))
	    20.00%  irq/33-ath9k  [snd_hda_codec]   [k] 0x0000000000000010
	EOF
	test_cmp expect out &&
	pulse script --symfs root -i mod.data >script.out &&
	grep -q "^	ffffffffc0400004 ath9k_tasklet+0x4 ($KO)$" script.out &&
	grep -q "^	ffffffffc0500010 \[unknown\] (\[snd_hda_codec\])$" script.out
'

test_expect_success 'no .ko: the module named, addresses from its load address' '
	rows mod.data >out &&
	grep -q "^ *40.00%  irq/33-ath9k  \[ath9k\] *\[k\] 0x000000000000002[0-9a-f]$" out &&
	grep -q "^ *20.00%  irq/33-ath9k  \[ath9k\] *\[k\] 0x0000000000002000$" out
'

test_expect_success 'another build of the module: its symbols are not used' '
	spec file 128 1 0123456789abcdef0123456789abcdef01234567 | "$TOOLS/pulse-synth" - other.data &&
	rows other.data --symfs root >out &&
	! grep -q ath9k_ out &&
	grep -q "is not the recorded module" err
'

test_expect_success 'no BUILD_ID entry: script names the module [name]' '
	spec file 128 1 "" | "$TOOLS/pulse-synth" - nobid.data &&
	pulse script -i nobid.data >out &&
	grep -q "^	ffffffffc0402000 \[unknown\] (\[ath9k\])$" out &&
	grep -q "^	ffffffffc0500010 \[unknown\] (\[snd_hda_codec\])$" out
'

test_expect_success 'a kallsyms file names module symbols' '
	cat >ks <<-\EOF &&
	ffffffff81000000 T _text
	ffffffff81200000 T _etext
	ffffffffc0400000 t ath9k_tasklet	[ath9k]
	ffffffffc0400010 T ath9k_rx	[ath9k]
	ffffffffc0500000 t hda_codec_thing	[snd_hda_codec]
	EOF
	rows nobid.data --kallsyms ks >out &&
	grep -q "\[ath9k\] *\[k\] ath9k_rx$" out &&
	grep -q "\[ath9k\] *\[k\] ath9k_tasklet$" out &&
	grep -q "\[snd_hda_codec\] *\[k\] hda_codec_thing$" out
'

test_expect_success 'older layouts, a pipe, a byte-swapped file: the same rows' '
	rows mod.data --symfs root >expect &&
	for v in "file 64 0" "file 72 1" "file 96 0" "pipe 128 1" "pipe 64 0"; do
		spec $v $(cat bid) | "$TOOLS/pulse-synth" - v.data &&
		rows v.data --symfs root >out &&
		test_cmp expect out || { echo "layout $v"; return 1; }
	done &&
	"$TOOLS/pulse-mkdata" swap mod.data sw.data 2>/dev/null &&
	rows sw.data --symfs root >out &&
	test_cmp expect out
'

# a 32-bit producer: i686, modules below 4 GiB, kernel callchain markers
# as a 32-bit perf writes them (u64 all the same)
test_expect_success PERF 'a 32-bit producer: the same names and addresses as perf' '
	cat >m32.spec <<-EOF &&
	attr_size 72
	feature osrelease 3.16.0-4-686-pae
	feature arch i686
	event name=cycles type=0 period=1000 sample_type=IP|TID|TIME|PERIOD|CALLCHAIN ids=3 flags=comm|mmap
	mmap pid=-1 tid=0 start=0xc1000000 len=0x600000 pgoff=0xc1000000 name=[kernel.kallsyms]_text misc=kernel
	mmap pid=-1 tid=0 start=0xf8a00000 len=0x20000 name=/lib/modules/3.16.0-4-686-pae/kernel/drivers/usb/host/ehci-hcd.ko misc=kernel
	comm pid=7 tid=7 comm=kworker/0:1 exec=1
	sample ip=0xf8a01234 pid=7 tid=7 time=10 misc=kernel callchain=0xffffffffffffff80,0xf8a01234,0xf8a00040
	sample ip=0xf8a01234 pid=7 tid=7 time=11 misc=kernel callchain=0xffffffffffffff80,0xf8a01234
	sample ip=0xf8a02000 pid=7 tid=7 time=12 misc=kernel callchain=0xffffffffffffff80,0xf8a02000
	EOF
	"$TOOLS/pulse-synth" m32.spec m32.data &&
	perf report --stdio -i m32.data 2>/dev/null | grep -v "^#" | grep . >perf.out &&
	pulse report --stdio -i m32.data 2>/dev/null | grep -v "^#" | grep . >pulse.out &&
	test_cmp perf.out pulse.out &&
	grep -q "\[ehci_hcd\] *\[k\] 0x0000000000001234" pulse.out &&
	perf script -i m32.data 2>/dev/null >perf.out &&
	pulse script -i m32.data 2>/dev/null >pulse.out &&
	test_cmp perf.out pulse.out
'

for args in "--symfs root" ""; do
test_expect_success PERF "perf 6.1 agrees: report and script ${args:-without the .ko}" '
	for f in mod.data nobid.data other.data; do
		perf report --stdio --no-children '"$args"' -i $f 2>/dev/null | grep -v "^#" | grep . >perf.out &&
		pulse report --stdio --no-children '"$args"' -i $f 2>/dev/null | grep -v "^#" | grep . >pulse.out &&
		test_cmp perf.out pulse.out &&
		perf script '"$args"' -i $f 2>/dev/null >perf.out &&
		pulse script '"$args"' -i $f 2>/dev/null >pulse.out &&
		test_cmp perf.out pulse.out || { echo "file $f"; return 1; }
	done
'
done

test_done
