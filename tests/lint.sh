#!/bin/sh
# lint.sh [ROOT] - the house rules a compiler does not check, over every C
# file in the tree (src, include, tools, tests), in the spirit of curl's
# checksrc:
#   banned   calls with a safer house form: sprintf/vsprintf (snprintf),
#            strcpy/strcat/strncat/strncpy (snprintf or struct buf),
#            atoi/atol/atoll/atof (strutil's str_to_* report bad input),
#            strtok (not reentrant; strtok_r or a scan), gets, tmpnam
#   width    a line is at most 100 columns, a tab counting 8 (docs: HACKING.md)
#   length   a function of the product (src, tools) is at most 80 lines from
#            its opening to its closing brace (tests are exempt: a test's
#            table of cases is data, and reads best whole)
#   space    no trailing blanks, no CR
#   layers   the library (src/*.c, src/adapters) never includes the CLI's
#            headers, prints to stdout or exits; the CLI (src/cli) makes no
#            SQLite call and the public headers name no SQLite type; an
#            adapter includes only gpucmp/adapter.h and
#            gpucmp/strutil.h of the project's headers; the modules'
#            includes have no cycle (HACKING.md, "The house")
#   calls    no two files of src/*.c and src/cli/*.c call each other: when
#            A calls a function defined in B, B calls none defined in A (a
#            definition: a declarator at column 0, not static, "{" alone on
#            the next line; a call: its name and "(" outside comments and
#            strings), nor do three or more round a circle (A calls B, B
#            calls C, C calls A: tsort over the files' calls)
# Each finding is one line FILE:LINE: RULE: what; exit 1 when there is any.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
width=100
files=$(find src include tools tests -name '*.[ch]' -type f | LC_ALL=C sort)
[ -n "$files" ] || { echo "lint: no C files under $root" >&2; exit 2; }
# shellcheck disable=SC2086 # the list is file names without blanks
awk -v width="$width" -v maxfn=80 '
function report(rule, what) {
	printf "%s:%d: %s: %s\n", FILENAME, FNR, rule, what
	bad++
}
FNR == 1 { fn = 0; prev = ""; decl = "" }
# a function: a declarator ending in ")" (its first line at column 0) and
# "{" alone at column 0 on the next line; its body ends at "}" at column 0
/^\{[ \t]*$/ && prev ~ /\)[ \t]*$/ && prev !~ /^#/ && FILENAME ~ /^(src|tools)\// {
	fn = FNR
	fname = decl
	sub(/\(.*/, "", fname)
	sub(/.*[ *]/, "", fname)
}
/^[A-Za-z_]/ { decl = $0 }
/^\}/ && fn {
	if (FNR - fn - 1 > maxfn) {
		printf "%s:%d: length: %s() is %d lines (at most %d)\n", FILENAME, fn,
			fname, FNR - fn - 1, maxfn
		bad++
	}
	fn = 0
}
{ prev = $0 }
{
	line = $0
	if (line ~ /\r$/)
		report("space", "CR at the end of the line")
	if (line ~ /[ \t]+\r?$/)
		report("space", "trailing blank")
	# columns with tabs expanded to 8
	col = 0
	for (i = 1; i <= length(line); i++) {
		c = substr(line, i, 1)
		col = (c == "\t") ? col + 8 - col % 8 : col + 1
	}
	if (col > width)
		report("width", col " columns (at most " width ")")
	# calls, outside comments and string literals (a rough but safe cut)
	code = line
	gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
	sub(/\/\/.*/, "", code)
	gsub(/\/\*([^*]|\*[^\/])*\*\//, "", code)
	if (match(code, /(^|[^A-Za-z0-9_])(sprintf|vsprintf|strcpy|strcat|strncat|strncpy|atoi|atol|atoll|atof|strtok|gets|tmpnam)[ \t]*\(/)) {
		call = substr(code, RSTART, RLENGTH)
		gsub(/^[^A-Za-z_]|[ \t(]/, "", call)
		report("banned", call "() (see tests/lint.sh for the house form)")
	}
}
END { exit bad ? 1 : 0 }
' $files
rc=$?
# layers: the library below the CLI, adapters on the toolkit alone
for f in src/*.c src/adapters/*.c; do
	grep -n '#include "\(cli\|\.\./cli/\)' "$f" | sed "s|^|$f:|; s|\$|: layers: the library includes a CLI header|"
done | grep . && rc=1
for f in src/adapters/*.c; do
	grep -n '#include "' "$f" | grep -v '"gpucmp/\(adapter\|strutil\)\.h"' |
		sed "s|^|$f:|; s|\$|: layers: an adapter includes only gpucmp/adapter.h and strutil.h|"
done | grep . && rc=1
# the library answers (no stdout, no exit), the CLI asks (no SQLite)
for f in src/*.c src/adapters/*.c; do
	grep -nE '(^|[^a-z_])(printf|puts|putchar|exit|abort)[ 	]*\(|[^a-z_]stdout[^a-z_]' "$f" |
		sed "s|^|$f:|; s|\$|: layers: the library prints to stdout or exits|"
done | grep . && rc=1
for f in src/cli/*.c src/cli/*.h; do
	[ -e "$f" ] || continue
	grep -n 'sqlite3' "$f" | sed "s|^|$f:|; s|\$|: layers: the CLI calls SQLite (ask the library)|"
done | grep . && rc=1
# the public headers name no SQLite type: those calls are src/sqlite_int.h's
for f in include/gpucmp/*.h; do
	[ -e "$f" ] || continue
	grep -n 'sqlite3' "$f" | sed "s|^|$f:|; s|\$|: layers: a public header names SQLite (src/sqlite_int.h)|"
done | grep . && rc=1
# every "module includes module" pair of src/*.c and include/gpucmp/*.h; tsort finds a loop
pairs=$(for f in src/*.c include/gpucmp/*.h; do
	m=$(basename "$f"); m=${m%.*}
	sed -n 's|^#include "gpucmp/\([a-z_]*\)\.h".*|\1|p' "$f" | while read -r d; do
		[ "$d" = "$m" ] || echo "$d $m"
	done
done)
if ! loops=$(echo "$pairs" | tsort 2>&1 >/dev/null) || [ -n "$loops" ]; then
	echo "$loops" | sed 's/^/lint: layers: include cycle: /'
	rc=1
fi
# calls: no two files call each other; the first pass reads the definitions,
# the second the calls
mods=$(ls src/*.c src/cli/*.c 2>/dev/null)
callgraph=$(mktemp "${TMPDIR:-/tmp}/gpucmp-lint-calls.XXXXXX")
trap 'rm -f "$callgraph"' EXIT
# shellcheck disable=SC2086 # the list is file names without blanks
[ -n "$mods" ] && awk '
!second {
	if ($0 ~ /^\{[ \t]*$/ && prev ~ /\)[ \t]*$/ && decl !~ /^(static|#)/) {
		name = decl
		sub(/\(.*/, "", name)
		sub(/.*[ *]/, "", name)
		if (name ~ /^[A-Za-z_][A-Za-z0-9_]*$/)
			def[name] = FILENAME
	}
	if ($0 ~ /^[A-Za-z_]/)
		decl = $0
	prev = $0
	next
}
{
	code = $0
	gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
	sub(/\/\/.*/, "", code)
	gsub(/\/\*([^*]|\*[^\/])*\*\//, "", code)
	while (match(code, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
		name = substr(code, RSTART, RLENGTH)
		sub(/[ \t]*\($/, "", name)
		code = substr(code, RSTART + RLENGTH)
		if ((name in def) && def[name] != FILENAME && !((FILENAME, def[name]) in calls))
			calls[FILENAME, def[name]] = name
	}
}
END {
	for (k in calls) {
		split(k, ab, SUBSEP)
		print ab[1], ab[2] > edges
		if (ab[1] < ab[2] && ((ab[2], ab[1]) in calls)) {
			printf "%s: calls: it calls %s() of %s, which calls %s() of it (move one " \
				"so the calls go one way)\n", ab[1], calls[k], ab[2], calls[ab[2], ab[1]]
			bad++
		}
	}
	exit bad ? 1 : 0
}' edges="$callgraph" $mods second=1 $mods || rc=1
# longer circles: tsort names the files of each loop it breaks (a pair was
# reported above, as the pair it is)
if [ -s "$callgraph" ]; then
	tsort "$callgraph" 2>&1 >/dev/null | awk '
		/input contains a loop/ { flush(); next }
		{ sub(/^tsort: /, ""); loop[++n] = $0 }
		function flush(  i, s) {
			if (n > 2) {
				for (i = 1; i <= n; i++)
					s = s (i > 1 ? " -> " : "") loop[i]
				print "lint: calls: " n " files call round a circle: " s " -> " loop[1] \
					" (move a function so the calls go one way)"
				bad = 1
			}
			n = 0
		}
		END { flush(); exit bad }' || rc=1
fi
[ "$rc" -eq 0 ] && echo "lint: $(echo "$files" | wc -l) files clean"
exit "$rc"
