#!/bin/bash
# pulse flamegraph --diff OLD NEW: NEW's frames and widths, each frame red
# when its share of the samples grew against OLD, blue when it shrank
# (difffolded.pl -n's normalisation), a frame only in NEW red; the titles
# give both shares and the change. flamesplit's argument sets the balance
# of flame_a -> flame_b and flame_a -> flame_c: 20% in OLD, 80% in NEW.
. "$(dirname "$0")/lib/test-lib.sh"

FS=$WL/flamesplit
svgpy() { python3 "$PULSE_TOP/tests/e2e/lib/flame-svg.py" "$@"; }
B="__libc_start_call_main;main;flame_a;flame_b"
C="__libc_start_call_main;main;flame_a;flame_c"
red() { grep -qE "^rgb\(255,([0-9]+),\1\)$" <<<"$1" && [ "$1" != "rgb(255,255,255)" ]; }
blue() { grep -qE "^rgb\(([0-9]+),\1,255\)$" <<<"$1" && [ "$1" != "rgb(255,255,255)" ]; }
share() { # FOLDED-TREE PATH: the path's share in % (unrounded)
	awk -v p="$2" "\$2 !~ /;/ {t += \$1} \$2 == p {n = \$1} END {printf \"%.12f\", 100 * n / t}" "$1"
}
fmt() { awk -v f="$1" -v v="$2" "BEGIN {printf f, v}"; }

test_expect_success 'record flamesplit at 20% and at 80% flame_b' '
	pulse record -q -g -o old.data -- "$FS" 300 20 &&
	pulse record -q -g -o new.data -- "$FS" 300 80 &&
	for f in old new; do
		pulse report -i $f.data -g folded,0,caller,count --no-children --stdio -q >$f.folded &&
		svgpy folded $f.folded >$f.tree || return 1
	done
'

test_expect_success '--diff: NEW'"'"'s frames, flame_b red, flame_c blue' '
	pulse flamegraph -q --diff old.data new.data -o diff.svg --minwidth 0 &&
	svgpy svg diff.svg >diff.tree &&
	test_cmp new.tree diff.tree &&
	fb=$(svgpy fill diff.svg "$B") && fc=$(svgpy fill diff.svg "$C") &&
	echo "flame_b $fb flame_c $fc" &&
	red "$fb" && blue "$fc" &&
	grep -q "subtitle[^>]*>new.data against old.data: red grew, blue shrank" diff.svg
'

test_expect_success 'the titles: both shares, normalised by each file'"'"'s samples, and the change' '
	for p in "$B" "$C"; do
		rnow=$(share new.tree "$p") && rwas=$(share old.tree "$p") &&
		now=$(fmt %.2f "$rnow") && was=$(fmt %.2f "$rwas") &&
		d=$(awk -v a="$rnow" -v b="$rwas" "BEGIN {printf \"%+.2f\", a - b}") &&
		t=$(svgpy title diff.svg "$p") &&
		echo "$t" &&
		case "$t" in *" samples, $now%; was $was%, $d%)") ;; *) false ;; esac || return 1
	done
'

test_expect_success 'the other way round: flame_b blue, flame_c red' '
	pulse flamegraph -q --diff new.data old.data -o rev.svg &&
	blue "$(svgpy fill rev.svg "$B")" && red "$(svgpy fill rev.svg "$C")"
'

test_expect_success 'a frame only in NEW is growth' '
	pulse record -q -g -o calltree.data -- "$WL/calltree" 200 &&
	pulse flamegraph -q --diff calltree.data new.data -o only.svg &&
	t=$(svgpy title only.svg "__libc_start_call_main;main;flame_a") &&
	case "$t" in *"; was 0.00%, +"*) ;; *) false ;; esac &&
	red "$(svgpy fill only.svg "__libc_start_call_main;main;flame_a")"
'

test_expect_success 'without --diff no frame has the diff palette'"'"'s titles' '
	pulse flamegraph -q -i new.data -o plain.svg &&
	not grep -q "; was " plain.svg
'

test_done
