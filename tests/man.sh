#!/bin/sh
# The man page renders without a warning and documents every command and
# every option the binary's --help prints (so the two cannot drift apart).
# usage: man.sh GPUCMP MANPAGE
set -u
bin=$1 page=$2
fail=0
warn=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
[ -z "$warn" ] || { echo "groff warnings:"; echo "$warn"; fail=1; }
# the text as a reader sees it (groff turns \- into a Unicode minus: undo it)
text=$(groff -man -Tutf8 -P-c -P-b -P-u "$page" 2>/dev/null | sed 's/\xe2\x88\x92/-/g; s/\xe2\x80\x90/-/g')
cmds=$("$bin" --help | awk '/^commands:/ { on = 1; next } on && NF == 0 { exit } on { print $1 }')
[ -n "$cmds" ] || { echo "no commands in gpucmp --help"; exit 1; }
for c in $cmds; do
	printf '%s\n' "$text" | grep -q "gpucmp $c\|^ *$c\b\|^       $c" ||
		{ echo "man page lacks command '$c'"; fail=1; }
	[ "$c" = help ] && continue
	for o in $("$bin" "$c" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
		printf '%s\n' "$text" | grep -q -- "$o" || { echo "man page lacks $o (gpucmp $c)"; fail=1; }
	done
done
[ $fail -eq 0 ] && echo "man page: renders cleanly, documents every command and option"
exit $fail
