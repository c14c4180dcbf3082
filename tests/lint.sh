#!/bin/sh
# lint.sh [ROOT] - the house rules a compiler does not check, over every C
# file in the tree (src, include, tools, tests), in the spirit of curl's
# checksrc:
#   banned   calls with a safer house form: sprintf/vsprintf (snprintf),
#            strcpy/strcat/strncat/strncpy (snprintf or struct buf),
#            atoi/atol/atoll/atof (strutil's str_to_* report bad input),
#            strtok (not reentrant; strtok_r or a scan), gets, tmpnam
#   width    a line is at most 100 columns, a tab counting 8 (docs: HACKING.md)
#   space    no trailing blanks, no CR
# Each finding is one line FILE:LINE: RULE: what; exit 1 when there is any.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2
width=100
files=$(find src include tools tests -name '*.[ch]' -type f | LC_ALL=C sort)
[ -n "$files" ] || { echo "lint: no C files under $root" >&2; exit 2; }
# shellcheck disable=SC2086 # the list is file names without blanks
awk -v width="$width" '
function report(rule, what) {
	printf "%s:%d: %s: %s\n", FILENAME, FNR, rule, what
	bad++
}
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
[ "$rc" -eq 0 ] && echo "lint: $(echo "$files" | wc -l) files clean"
exit "$rc"
