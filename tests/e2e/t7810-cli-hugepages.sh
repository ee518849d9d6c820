#!/bin/bash
# The commands that read a recording run themselves again, once, with
# glibc's heap in 2 MiB pages (cli/hugepages.c: GLIBC_TUNABLES'
# glibc.malloc.hugetlb=1) where transparent huge pages are on madvise; the
# user's environment is what anything they start sees, PULSE_HUGEPAGES=0
# or a hugetlb tunable of the user's keeps them from it, the output does
# not change, and a recording command never does it.
. "$(dirname "$0")/lib/test-lib.sh"

test_declare_prereq MADVISE_THP
test_declare_prereq STRACE
test_declare_prereq SCRIPT
# (sanitizer builds have their own malloc: they do not run again)
grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null &&
	! pulse_sanitized && test_set_prereq MADVISE_THP
command -v strace >/dev/null 2>&1 && test_set_prereq STRACE
command -v script >/dev/null 2>&1 && test_set_prereq SCRIPT

# execs of /proc/self/exe while pulse ARGS... runs
reexecs() {
	strace -f -qq -e trace=execve -o "$TEST_DIR/trace" "$PULSE" "$@" >/dev/null 2>&1
	grep -c 'execve("/proc/self/exe"' "$TEST_DIR/trace"
}

test_expect_success 'a profile' '
	record_ok err -o "$TEST_DIR/p.data" -- $WL/spin 50
'

test_expect_success MADVISE_THP,STRACE 'report, script, flamegraph, data and diff run once more; record does not' '
	expect_eq "$(reexecs report -i p.data --stdio)" 1 &&
	expect_eq "$(reexecs script -i p.data)" 1 &&
	expect_eq "$(reexecs flamegraph -i p.data -o f.svg)" 1 &&
	expect_eq "$(reexecs data convert --to-json j.json -i p.data --force)" 1 &&
	expect_eq "$(reexecs diff p.data p.data)" 1 &&
	expect_eq "$(reexecs record -q -o r.data -- true)" 0 &&
	expect_eq "$(reexecs version)" 0
'

test_expect_success MADVISE_THP,STRACE 'PULSE_HUGEPAGES=0, or a hugetlb tunable of the user'"'"'s: no second run' '
	expect_eq "$(PULSE_HUGEPAGES=0 reexecs report -i p.data --stdio)" 0 &&
	expect_eq "$(GLIBC_TUNABLES=glibc.malloc.hugetlb=0 reexecs report -i p.data --stdio)" 0
'

test_expect_success 'the same report and script either way' '
	"$PULSE" report -i p.data --stdio >on.out 2>&1 &&
	PULSE_HUGEPAGES=0 "$PULSE" report -i p.data --stdio >off.out 2>&1 &&
	test_cmp off.out on.out &&
	"$PULSE" script -i p.data >on.out 2>&1 &&
	PULSE_HUGEPAGES=0 "$PULSE" script -i p.data >off.out 2>&1 &&
	test_cmp off.out on.out
'

# the pager, on a pseudo-terminal, notes the environment pulse gave it
# (and the name of pulse, its shell's parent: pulse, not exe)
cat >"$TEST_DIR/envpager" <<'P'
#!/bin/sh
pp=$(awk '{ print $4 }' /proc/$PPID/stat)
{ env; echo "PULSE_COMM=$(cat /proc/$pp/comm)"; } >"$ENV_LOG"
exec cat >/dev/null
P
chmod +x "$TEST_DIR/envpager"
export ENV_LOG=$TEST_DIR/env.log

test_expect_success MADVISE_THP,SCRIPT 'what pulse starts gets the user'"'"'s environment back' '
	PAGER="$TEST_DIR/envpager" timeout 30 script -qec "$PULSE report -i p.data --stdio" \
		/dev/null </dev/null >/dev/null &&
	test -s "$ENV_LOG" &&
	not grep -q "^GLIBC_TUNABLES=" "$ENV_LOG" &&
	not grep -q "^PULSE_HUGEPAGES" "$ENV_LOG" &&
	grep -qx "PULSE_COMM=pulse" "$ENV_LOG" &&
	rm -f "$ENV_LOG" &&
	GLIBC_TUNABLES=glibc.malloc.arena_max=2 PAGER="$TEST_DIR/envpager" timeout 30 \
		script -qec "$PULSE report -i p.data --stdio" /dev/null </dev/null >/dev/null &&
	grep -qx "GLIBC_TUNABLES=glibc.malloc.arena_max=2" "$ENV_LOG"
'

test_done
