#!/bin/bash
# Inline frames of a callchain frame, as perf 6.1's append_inlines() makes
# them for the frames a DWARF unwinder finds (pulse_machine__expand_inlines()
# through tests/tools/pulse-inlines): one frame per function `addr2line -i
# -f` names for the address, innermost first (outermost first in caller
# order), "NAME (inlined)" unless it is the ELF symbol under its own name;
# an address in no inlined code keeps its frame; a DWARF name that is not
# the symbol's makes an inlined frame alone (__libc_start_main_impl).
. "$(dirname "$0")/lib/test-lib.sh"

# the file offset of the first instruction of FUNC that addr2line -i places in INNER
addr_in() { # BINARY FUNC INNER
	objdump -d --no-show-raw-insn "$1" | awk -v f="<$2>:" '$2 == f {on = 1; next} on && /^$/ {exit}
		on {sub(":", "", $1); print $1}' |
	while read -r a; do
		[ "$(addr2line -i -f -e "$1" "$a" | head -1)" = "$3" ] && { echo "$a"; break; }
	done
}

test_expect_success 'an address in add_up: add_up, scale (inlined), then hot' '
	a=$(addr_in "$WL/inlined" hot add_up) && test -n "$a" &&
	"$TOOLS/pulse-inlines" "$WL/inlined" "$a" >out &&
	printf "%s\n" "$a add_up (inlined)" "$a scale (inlined)" "$a hot" >expect &&
	test_cmp expect out
'

test_expect_success 'caller order: outermost first; other frames move along' '
	a=$(addr_in "$WL/inlined" hot add_up) && m=$(addr_in "$WL/inlined" main main) &&
	"$TOOLS/pulse-inlines" --caller "$WL/inlined" "$a" "$m" >out &&
	printf "%s\n" "$m main" "$a hot" "$a scale (inlined)" "$a add_up (inlined)" >expect &&
	test_cmp expect out
'

test_expect_success 'code of hot itself, and --no-inline: one frame' '
	s=$(addr_in "$WL/inlined" hot scale) && h=$(addr_in "$WL/inlined" hot hot) &&
	"$TOOLS/pulse-inlines" "$WL/inlined" "$s" "$h" >out &&
	printf "%s\n" "$s scale (inlined)" "$s hot" "$h hot" >expect &&
	test_cmp expect out &&
	"$TOOLS/pulse-inlines" --no-inline "$WL/inlined" "$s" >out &&
	echo "$s hot" >expect &&
	test_cmp expect out
'

test_expect_success 'every address of hot: the names addr2line -i -f gives' '
	objdump -d --no-show-raw-insn "$WL/inlined" | awk "\$2 == \"<hot>:\" {on = 1; next}
		on && /^\$/ {exit} on {sub(\":\", \"\", \$1); print \$1}" >addrs &&
	test -s addrs &&
	while read -r a; do
		addr2line -i -f -e "$WL/inlined" "$a" | sed -n "1~2p" | sed "\$!s/\$/ (inlined)/" >expect &&
		"$TOOLS/pulse-inlines" "$WL/inlined" "$a" | cut -d" " -f2- >out &&
		test_cmp expect out || exit 1
	done <addrs
'

# perf script's frames of one unwound address in a row: "DSO ADDR|name;name"
# (a run of inlined frames alone, with no DSO printed, is "? ADDR")
perf_groups() {
	perf script -i "$1" -F ip,sym,dso 2>/dev/null | awk '
	function flush() { if (n) print (dso == "" ? "?" : dso) " " addr "|" v; n = 0; dso = ""; v = "" }
	NF == 0 { flush(); addr = ""; next }
	{ a = $1; name = $2; sub(/\+0x[0-9a-f]+$/, "", name)
	  if (a != addr) flush(); addr = a
	  if ($NF == "(inlined)") name = name " (inlined)"; else { dso = $NF; gsub(/[()]/, "", dso) }
	  v = v (n++ ? ";" : "") name }
	END { flush() }' | sort -u
}

test_expect_success PERF 'perf 6.1 --call-graph dwarf: the same frames at every address' '
	perf record -q --call-graph dwarf -o dw.data -- "$WL/inlined" 200 >/dev/null 2>&1 &&
	perf_groups dw.data >groups &&
	grep -q "add_up (inlined);scale (inlined);hot\$" groups &&
	dsos=$(awk "/^\\// {print \$1}" groups | sort -u) &&
	while IFS="|" read -r key want; do
		dso=${key% *} addr=${key#* } ok=
		case $dso in /*) cands=$dso ;; "?") cands=$dsos ;; *) continue ;; esac
		for d in $cands; do
			got=$("$TOOLS/pulse-inlines" "$d" "$addr" | cut -d" " -f2- | paste -sd";")
			[ "$got" = "$want" ] && ok=1 && break
		done
		[ -n "$ok" ] || echo "$key: perf $want, pulse $got"
	done <groups >diffs &&
	test_must_be_empty diffs
'

test_expect_success 'libc: __libc_start_main_impl is a frame of its own (libc6-dbg)' '
	libc=$(ldd "$WL/inlined" | awk "/libc.so.6/ {print \$3}") &&
	a=$(nm -D "$libc" | awk "\$3 == \"__libc_start_main@@GLIBC_2.34\" {sub(/^0+/, \"\", \$1); print \$1}") &&
	test -n "$a" &&
	if test "$(addr2line -f -e "$libc" "$a" | head -1)" != __libc_start_main_impl; then
		echo "# no DWARF for $libc here: skipped" >&2
	else
		"$TOOLS/pulse-inlines" "$libc" "$a" | cut -d" " -f2- >out &&
		addr2line -i -f -e "$libc" "$a" | sed -n "1~2p" | sed "s/\$/ (inlined)/" >expect &&
		test_cmp expect out
	fi
'

test_done
