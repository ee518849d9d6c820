#!/bin/bash
# pulse flamegraph: the SVG's frames and widths are the merged caller tree of
# `pulse report -g folded,0,caller,count --no-children` on the same file (and
# of perf 6.1's, which prints the same lines), one-frame stacks without
# callchains, the options that shape the picture (--inverted, --title,
# --width, --minwidth, --sort comm), the lost count in the subtitle.
. "$(dirname "$0")/lib/test-lib.sh"

FS=$WL/flamesplit
svgpy() { python3 "$PULSE_TOP/tests/e2e/lib/flame-svg.py" "$@"; }
folded() { # FILE TOOL: the folded lines of TOOL's report
	if [ "$2" = perf ]; then
		perf report -i "$1" -g folded,0,caller,count --no-children --stdio -q 2>/dev/null
	else
		pulse report -i "$1" -g folded,0,caller,count --no-children --stdio -q
	fi
}

test_expect_success 'record flamesplit with -g (flame_a -> flame_b 75%, flame_c)' '
	pulse record -q -g -o fs.data -- "$FS" 300 75 &&
	pulse record -q -o flat.data -- "$FS" 200 75
'

test_expect_success 'flamegraph writes flamegraph.svg from perf.data by default' '
	cp fs.data perf.data &&
	pulse flamegraph 2>err </dev/null &&
	grep -q "wrote flamegraph.svg" err &&
	head -c 200 flamegraph.svg | grep -q "<svg" &&
	tail -n 1 flamegraph.svg | grep -q "^</svg>$" &&
	grep -q "<title>flame_a (" flamegraph.svg
'

test_expect_success 'frames and widths are the folded output'"'"'s tree' '
	pulse flamegraph -q -i fs.data -o fs.svg --minwidth 0 &&
	folded fs.data pulse >fs.folded &&
	svgpy svg fs.svg >svg.tree &&
	svgpy folded fs.folded >folded.tree &&
	test_cmp folded.tree svg.tree &&
	grep -q "^[0-9]* __libc_start_call_main;main;flame_a;flame_b$" svg.tree &&
	root=$(sed -n "s/.*<title>all (\([0-9,]*\) samples, 100.00%).*/\1/p" fs.svg | tr -d ,) &&
	expect_eq "$root" "$(awk "/^[0-9]+ / {s += \$1} END {print s}" fs.folded)"
'

test_expect_success PERF 'and perf 6.1'"'"'s folded output of the same file' '
	folded fs.data perf >perf.folded &&
	svgpy folded perf.folded >perf.tree &&
	test_cmp perf.tree svg.tree
'

test_expect_success 'titles say samples and percentage as flamegraph.pl' '
	n=$(grep "^[0-9]* __libc_start_call_main;main;flame_a$" svg.tree | cut -d" " -f1) &&
	t=$(svgpy title fs.svg "__libc_start_call_main;main;flame_a") &&
	total=$(awk "length(\$0) && \$2 !~ /;/ {s += \$1} END {print s}" svg.tree) &&
	pct=$(awk -v n="$n" -v t="$total" "BEGIN {printf \"%.2f\", 100 * n / t}") &&
	nc=$(printf "%d" "$n" | sed ":a;s/\B[0-9]\{3\}\>/,&/;ta") &&
	expect_eq "$t" "flame_a ($nc samples, $pct%)"
'

test_expect_success 'without callchains: one-frame stacks, the sampled symbols' '
	pulse flamegraph -q -i flat.data -o flat.svg --minwidth 0 &&
	svgpy svg flat.svg >flat.tree &&
	not grep ";" flat.tree &&
	b=$(pulse report -i flat.data --no-children --sort sym -n -q --stdio |
		awk "\$NF == \"flame_b\" {print \$2}") &&
	grep -q "^$b flame_b$" flat.tree
'

test_expect_success 'frames under --minwidth are merged and said in the subtitle' '
	pulse flamegraph -q -i fs.data -o mw.svg --minwidth 50 &&
	svgpy svg mw.svg >mw.tree &&
	n=$(wc -l <svg.tree) && m=$(wc -l <mw.tree) &&
	expect_gt "$n" "$m" &&
	grep -q "<text id=\"subtitle\"[^>]*>cpu-clock[^<]*; $((n - m)) frames under 50‰ merged<" mw.svg &&
	not grep -q "frames under" fs.svg
'

test_expect_success '--inverted, --title, --width' '
	pulse flamegraph -q -i fs.data -o inv.svg --inverted --title "a <b> & c" --width 800 &&
	grep -q "<svg [^>]*width=\"800\"" inv.svg &&
	grep -q "<text id=\"title\"[^>]*>a &lt;b&gt; &amp; c</text>" inv.svg &&
	grep -q "data-inverted=\"1\"" inv.svg &&
	yall=$(svgpy rect inv.svg "" | cut -d" " -f2) &&
	ya=$(svgpy rect inv.svg "__libc_start_call_main;main;flame_a" | cut -d" " -f2) &&
	expect_gt "$ya" "$yall" &&
	pulse flamegraph -q -i fs.data -o up.svg &&
	yall=$(svgpy rect up.svg "" | cut -d" " -f2) &&
	ya=$(svgpy rect up.svg "__libc_start_call_main;main;flame_a" | cut -d" " -f2) &&
	expect_gt "$yall" "$ya" &&
	grep -q "<text id=\"title\"[^>]*>Flame Graph</text>" up.svg
'

test_expect_success '--sort comm puts the command above each stack' '
	pulse flamegraph -q -i fs.data -o comm.svg --sort comm --minwidth 0 &&
	svgpy svg comm.svg >comm.tree &&
	grep -q "^[0-9]* flamesplit;__libc_start_call_main;main;flame_a;flame_b$" comm.tree &&
	not grep -v "^[0-9]* flamesplit" comm.tree
'

test_expect_success 'kernel, user and unknown frames have their own palettes' '
	# user: hot (red 205 and up, blue under 56)
	fb=$(svgpy fill fs.svg "__libc_start_call_main;main;flame_a;flame_b") &&
	echo "$fb" | grep -qE "^rgb\((20[5-9]|2[1-5][0-9]),[0-9]+,([0-9]|[1-4][0-9]|5[0-5])\)$" &&
	# a kernel frame (a symbol of a kallsyms file of our own) and an [unknown] one, surely
	{
		echo "event name=cpu-clock type=1 config=0 period=1000 sample_type=IP|TID|TIME|PERIOD flags=sample_id_all|mmap|comm ids=1"
		echo "comm pid=100 tid=100 comm=x"
		echo "mmap pid=-1 tid=0 start=0xffffffff81000000 len=0x1000000 pgoff=0xffffffff81000000 name=[kernel.kallsyms]_text misc=kernel"
		echo "sample ip=0xffffffff81000150 pid=100 tid=100 time=1000 period=1000 misc=kernel"
		echo "sample ip=0xffffffff81000250 pid=100 tid=100 time=1500 period=1000 misc=kernel"
		echo "sample ip=0x2000 pid=100 tid=100 time=2000 period=1000 misc=user"
	} >kern.spec &&
	printf "ffffffff81000000 T _text\nffffffff81000100 T synth_kfunc\nffffffff81000200 T synth_kother\n" >ksyms &&
	"$TOOLS/pulse-synth" kern.spec kern.data &&
	pulse flamegraph -q -i kern.data --kallsyms ksyms -o kern.svg &&
	# kernel: orange (red 190 and up, green 90-155, blue up to 40)
	for k in synth_kfunc synth_kother; do
		kf=$(svgpy fill kern.svg "$k") &&
		echo "$kf" | grep -qE "^rgb\((19[0-9]|2[0-5][0-9]),(9[0-9]|1[0-5][0-9]),([0-9]|[1-3][0-9]|40)\)$" ||
		return 1
	done &&
	# unknown: grey
	uf=$(svgpy fill kern.svg "[unknown]") &&
	echo "$uf" | grep -qE "^rgb\(([0-9]+),\1,\1\)$" &&
	pulse flamegraph -q -i fs.data -o again.svg &&
	test_cmp up.svg again.svg
'

test_expect_success 'names that are not UTF-8, or cut in a label, still make XML' '
	# a comm is any bytes: a Latin-1 name, with --sort comm, in a narrow graph
	name=$(printf "ca\351ll") &&
	cp "$FS" "./$name" &&
	pulse record -q -o nu.data -- "./$name" 100 75 &&
	pulse flamegraph -q -i nu.data -o nu.svg --sort comm --width 200 --minwidth 0 &&
	grep -q "<title>ca$(printf "\357\277\275")ll (" nu.svg &&
	python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" nu.svg &&
	# "a" and two-byte characters cut at several widths: never inside one
	{
		echo "event name=cpu-clock type=1 config=0 period=1000 sample_type=IP|TID|TIME|PERIOD flags=sample_id_all|mmap|comm ids=1"
		echo "comm pid=100 tid=100 comm=a$(printf "\303\251%.0s" 1 2 3 4 5 6)"
		echo "comm pid=200 tid=200 comm=x"
		echo "sample ip=0x1000 pid=100 tid=100 time=1000 period=1000 misc=user"
		echo "sample ip=0x1000 pid=200 tid=200 time=2000 period=1000 misc=user"
		echo "sample ip=0x1000 pid=200 tid=200 time=3000 period=1000 misc=user"
	} >mb.spec &&
	"$TOOLS/pulse-synth" mb.spec mb.data &&
	# a third of 100 to 180 pixels: labels of 4 to 8 glyphs, cut after 2 to 6
	for w in 120 140 160 180 200; do
		pulse flamegraph -q -i mb.data -o mb.svg --sort comm --width $w &&
		python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" mb.svg ||
		return 1
	done
'

test_expect_success 'the lost count in the subtitle' '
	{
		echo "event name=cpu-clock type=1 config=0 period=1000 sample_type=IP|TID|TIME|PERIOD flags=sample_id_all|mmap|comm ids=1"
		echo "comm pid=100 tid=100 comm=x"
		echo "sample ip=0x1000 pid=100 tid=100 time=1000 period=1000 misc=user"
		echo "sample ip=0x2000 pid=100 tid=100 time=2000 period=1000 misc=user"
		echo "lost id=1 lost=1234"
	} >lost.spec &&
	"$TOOLS/pulse-synth" lost.spec lost.data &&
	pulse flamegraph -q -i lost.data -o lost.svg &&
	grep -q "<text id=\"subtitle\"[^>]*>cpu-clock[^;<]*; 1,234 lost samples<" lost.svg &&
	grep -q "<title>\[unknown\] (2 samples, 100.00%)" lost.svg &&
	grep -qE "^rgb\(([0-9]+),\1,\1\)$" <<<"$(svgpy fill lost.svg "[unknown]")"
'

test_done
