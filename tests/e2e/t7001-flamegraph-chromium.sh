#!/bin/bash
# The flame graph in headless Chromium: a test driver <script> put before
# </svg> runs after the graph's own script, counts the frames, clicks one
# (a real click event) and reads the widths, searches with a regex and
# reads the marked frames and "Matched: N%", then writes its findings into
# the document, which --dump-dom prints. The console must have no error.
# Expected values come from `pulse report -g folded,0,caller,count
# --no-children` on the same file.
. "$(dirname "$0")/lib/test-lib.sh"

FS=$WL/flamesplit
svgpy() { python3 "$PULSE_TOP/tests/e2e/lib/flame-svg.py" "$@"; }

# drive SVG OUT JS: SVG with the driver body JS (it fills the array out), opened
# in chromium; OUT gets the driver's findings, OUT.log chromium's stderr
drive() {
	local body
	body=$(cat "$3")
	sed '$d' "$1" >"$2.svg" &&
	cat >>"$2.svg" <<-DRIVER &&
	<script type="text/ecmascript"><![CDATA[
	window.__errors = [];
	window.addEventListener('error', function (e) { window.__errors.push(String(e.message)); });
	window.addEventListener('load', function () {
		var out = [];
		try {
	$body
		} catch (e) { out.push('exception=' + e); }
		out.push('errors=' + window.__errors.length);
		var t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
		t.setAttribute('id', 'driver-result');
		t.textContent = 'RES' + 'ULT ' + out.join(' ') + ' E' + 'ND';
		document.documentElement.appendChild(t);
	});
	]]></script>
	</svg>
	DRIVER
	timeout 60 chromium --headless --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--dump-dom --virtual-time-budget=5000 "file://$PWD/$2.svg" >"$2.dom" 2>"$2.log"
	sed -n "s/.*RESULT \(.*\) END.*/\1/p" "$2.dom" | tr " " "\n" >"$2"
	test -s "$2" || { echo "no driver result"; tail -20 "$2.log"; return 1; }
}
val() { sed -n "s/^$1=//p" "$2"; }
no_console_errors() {
	expect_eq "$(val errors "$1")" 0 &&
	not grep -E "CONSOLE|Uncaught|SyntaxError" "$1.log" &&
	not grep "^exception=" "$1"
}

test_expect_success CHROMIUM 'record flamesplit with -g, its graph and folded output' '
	pulse record -q -g -o fs.data -- "$FS" 300 75 &&
	pulse flamegraph -q -i fs.data -o fs.svg --minwidth 0 &&
	pulse report -i fs.data -g folded,0,caller,count --no-children --stdio -q >fs.folded &&
	svgpy folded fs.folded >tree &&
	test -s tree
'

test_expect_success CHROMIUM 'no console errors; one frame element per node of the folded tree' '
	cat >count.js <<-\EOF &&
	out.push("frames=" + document.querySelectorAll("#frames g.f").length);
	out.push("rects=" + document.querySelectorAll("#frames rect").length);
	EOF
	drive fs.svg count count.js &&
	no_console_errors count &&
	nodes=$(wc -l <tree) &&
	expect_eq "$(val frames count)" $((nodes + 1)) &&
	expect_eq "$(val rects count)" $((nodes + 1))
'

test_expect_success CHROMIUM 'a click zooms a frame to full width, ancestors dimmed, others hidden' '
	cat >zoom.js <<-\EOF &&
	function frame(name) {
		var gs = document.querySelectorAll("#frames g.f");
		for (var i = 0; i < gs.length; i++)
			if (gs[i].firstElementChild.textContent.indexOf(name + " (") === 0) return gs[i];
	}
	var b = frame("flame_b"), a = frame("flame_a"), c = frame("flame_c");
	out.push("before=" + (+b.children[1].getAttribute("width")).toFixed(1));
	b.children[1].dispatchEvent(new MouseEvent("click", {bubbles: true}));
	out.push("width=" + (+b.children[1].getAttribute("width")).toFixed(1));
	out.push("x=" + (+b.children[1].getAttribute("x")).toFixed(1));
	out.push("parent_width=" + (+a.children[1].getAttribute("width")).toFixed(1));
	out.push("parent_class=" + a.getAttribute("class").replace(/ /g, "_"));
	out.push("sibling_display=" + getComputedStyle(c).display);
	out.push("unzoom=" + getComputedStyle(document.getElementById("unzoom")).display);
	document.getElementById("unzoom").dispatchEvent(new MouseEvent("click", {bubbles: true}));
	out.push("after=" + (+b.children[1].getAttribute("width")).toFixed(1));
	out.push("sibling_after=" + getComputedStyle(c).display);
	EOF
	drive fs.svg zoom zoom.js &&
	no_console_errors zoom &&
	cat zoom &&
	expect_eq "$(val width zoom)" 1180.0 &&
	expect_eq "$(val x zoom)" 10.0 &&
	expect_eq "$(val parent_width zoom)" 1180.0 &&
	expect_eq "$(val parent_class zoom)" f_parent &&
	expect_eq "$(val sibling_display zoom)" none &&
	test "$(val unzoom zoom)" != none &&
	test "$(val before zoom)" != 1180.0 &&
	expect_eq "$(val after zoom)" "$(val before zoom)" &&
	test "$(val sibling_after zoom)" != none
'

test_expect_success CHROMIUM 'a search marks the matching frames and shows their share' '
	for re in "^flame_[bc]\$" "flame" "^main\$" "^asm_|^flame_c\$"; do
		cat >search.js <<-EOF &&
		search("$(sed "s/\\\\/\\\\\\\\/g" <<<"$re")");
		var marked = [], gs = document.querySelectorAll("#frames g.f");
		for (var i = 0; i < gs.length; i++)
			if (gs[i].children[1].getAttribute("fill") === "rgb(230,0,230)") marked.push(gs[i]._name);
		out.push("marked=" + marked.length);
		out.push("matched=" + document.getElementById("matched").textContent.replace(/ /g, "_"));
		EOF
		drive fs.svg search search.js &&
		no_console_errors search &&
		want=$(svgpy matched fs.folded "$re") &&
		nodes=$(awk -v re="$re" "{n = split(\$2, f, \";\"); if (f[n] ~ re) c++} END {print c + 0}" tree) &&
		echo "$re: $(cat search | tr "\n" " ") want $want% $nodes frames" &&
		expect_eq "$(val matched search)" "Matched:_$want%" &&
		expect_eq "$(val marked search)" "$nodes" || return 1
	done
'

test_expect_success CHROMIUM 'a screenshot shows the graph' '
	timeout 60 chromium --headless --no-sandbox --disable-gpu --screenshot="$PWD/shot.png" \
		--window-size=1200,400 "file://$PWD/fs.svg" >/dev/null 2>&1 &&
	test -s shot.png
'

test_done
