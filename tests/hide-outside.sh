#!/bin/bash
# hide-outside.sh CLONE: prints, one a line, the directories outside CLONE
# that the test data files name (MMAP file names, build-id paths, command
# lines): run-tests.sh mounts an empty tmpfs over each one that exists, in a
# private mount namespace, so that a test reading them fails on the machine
# where they exist (CI's, the developer's) as it would on a user's.
# The system's own directories (/usr, /lib, ...) are left: pulse and perf
# run from them, and a file's build-ids decide whether their symbols apply.
set -u
top=$1
pulse=$top/${BUILD:-build}/pulse
for f in "$top"/tests/data/*.data "$top"/tests/data/*/*.data; do
	[ -f "$f" ] || continue
	{
		strings -n 4 "$f"
		"$pulse" report -D -i "$f" 2>/dev/null | grep -E 'PERF_RECORD_MMAP'
	} | grep -oE '/[][[:alnum:]_.+@:-]+(/[][[:alnum:]_.+@:-]+)+' | sed 's|/[^/]*$||'
done | sort -u | while read -r d; do
	case "$d" in
	/usr | /usr/* | /lib | /lib/* | /lib64 | /lib64/* | /bin | /bin/* | /sbin | /sbin/* | \
	/etc | /etc/* | /proc | /proc/* | /sys | /sys/* | /dev | /dev/* | /run | /run/* | /var/*)
		continue ;;
	esac
	# not the clone, nothing inside it, nor a directory that holds it
	case "$top/" in "$d"/*) continue ;; esac
	case "$d/" in "$top"/*) continue ;; esac
	[ -d "$d" ] && echo "$d"
done
exit 0
