#!/bin/bash
# make install: the binary to $(DESTDIR)$(PREFIX)/bin, the manual pages to
# $(DESTDIR)$(PREFIX)/share/man/man1 (PREFIX defaults to /usr/local); the
# installed binary shows its pages, and man finds them.
. "$(dirname "$0")/lib/test-lib.sh"

test_declare_prereq BUILT
# installing builds nothing: run only when the build is up to date
build=$(realpath --relative-to="$PULSE_TOP" "$PULSE_BUILD")
if [ -z "${PULSE_BIN:-}" ] && [ -f "$PULSE_TOP/Makefile" ] &&
   make -q -C "$PULSE_TOP" BUILD="$build" "$build/pulse" >/dev/null 2>&1; then
	test_set_prereq BUILT
fi
install_to() {
	make -s -C "$PULSE_TOP" BUILD="$build" DESTDIR="$TEST_DIR/$1" "${@:2}" install
}

test_expect_success BUILT 'make install DESTDIR=... : /usr/local by default' '
	install_to root >log 2>&1 || { cat log; false; }
	test -x root/usr/local/bin/pulse
	for p in pulse pulse-record pulse-report pulse-script pulse-list; do
		test -f root/usr/local/share/man/man1/$p.1 || { echo "no $p.1"; false; }
	done
'

test_expect_success BUILT 'make install PREFIX=/usr DESTDIR=...' '
	install_to root2 PREFIX=/usr >log 2>&1 || { cat log; false; }
	test -x root2/usr/bin/pulse
	test -f root2/usr/share/man/man1/pulse-record.1
	cmp root2/usr/bin/pulse "$PULSE"
'

test_expect_success BUILT 'the installed binary shows its installed pages' '
	root2/usr/bin/pulse help report >m
	grep -q "PULSE-REPORT(1)" m
	# not the source tree: the page read is the installed one
	echo ".SH INSTALLED" >>root2/usr/share/man/man1/pulse-report.1
	root2/usr/bin/pulse report --help >m2
	grep -q "^INSTALLED" m2
'

test_expect_success BUILT 'man finds the installed pages (man pulse-record)' '
	command -v man >/dev/null || exit 0
	MANPATH=root2/usr/share/man man pulse-record >m
	grep -q "PULSE-RECORD(1)" m
'

test_done
