#!/bin/sh
# lint-selftest.sh LINT: tests/lint.sh finds what it is for, in a small tree
# holding one of each fault, and passes the same tree once they are fixed.
set -u
lint=$1
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-lint.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/src/adapters" "$dir/src/cli" "$dir/include/gpucmp" "$dir/tools" "$dir/tests"
long=$(printf '%0110d' 0)
cat >"$dir/src/a.c" <<C
#include "gpucmp/b.h"
/* sprintf( in a comment is fine */
static const char *s = "atoi( in a string is fine";
void f(char *o) { sprintf(o, "%d", 1); }
int g(const char *v) { return atoi(v); }
static const char *w = "$long";
C
printf 'int h(void);\t \n' >"$dir/src/b.c"
printf '#include "gpucmp/a.h"\n' >"$dir/include/gpucmp/b.h"
printf '#include "gpucmp/b.h"\nsqlite3 *db_of(void);\n' >"$dir/include/gpucmp/a.h"
printf '#include "gpucmp/cache.h"\n#include "../cli/cli.h"\n' >"$dir/src/adapters/x.c"
printf 'void k(void) { printf("x"); exit(1); }\n' >"$dir/src/c.c"
printf 'static sqlite3 *db;\n' >"$dir/src/cli/m.c"
# two files calling each other (a static function of the same name elsewhere,
# a name in a comment or a string, are no calls)
printf 'int p_one(void);\nint q_one(void);\nint p_one(void)\n{\n\treturn q_one();\n}\n' \
	>"$dir/src/cli/p.c"
printf 'int p_one(void);\nint q_one(void)\n{\n\treturn p_one();\n}\n' >"$dir/src/cli/q.c"
printf 'static int q_one(void)\n{\n\treturn 1; /* p_one() */\n}\n' >"$dir/src/e.c"
# three files calling round a circle: r -> s -> t -> r
fn() { printf 'int %s(void);\nint %s(void)\n{\n\treturn %s();\n}\n' "$2" "$1" "$2"; }
fn r_one s_one >"$dir/src/r.c"
fn s_one t_one >"$dir/src/s.c"
fn t_one r_one >"$dir/src/t.c"
# a function of 81 lines, and one of 80 that must pass
body() { printf 'static int %s(int x)\n{\n' "$1"; i=0; while [ "$i" -lt "$2" ]; do
	printf '\tx++;\n'; i=$((i + 1)); done; printf '\treturn x;\n}\n'; }
{ body longest 80; body fine 79; } >"$dir/src/d.c"
{ body testfn 90; } >"$dir/tests/t.c"
out=$("$lint" "$dir" 2>&1)
rc=$?
fail=0
check() { # PATTERN: one finding that must be reported
	echo "$out" | grep -q -- "$1" || { echo "FAIL: lint did not report: $1"; fail=1; }
}
[ "$rc" -eq 1 ] || { echo "FAIL: lint exited $rc on a bad tree, want 1"; fail=1; }
check 'src/a.c:4: banned: sprintf()'
check 'src/a.c:5: banned: atoi()'
check 'src/a.c:6: width: 1[0-9][0-9] columns'
check 'src/b.c:1: space: trailing blank'
check 'src/adapters/x.c:1:.*an adapter includes only'
check 'src/adapters/x.c:2:.*the library includes a CLI header'
check 'layers: include cycle'
check 'src/c.c:1:.*the library prints to stdout or exits'
check 'src/cli/m.c:1:.*the CLI calls SQLite'
check 'include/gpucmp/a.h:2:.*a public header names SQLite'
check 'src/d.c:2: length: longest() is 81 lines (at most 80)'
check 'src/cli/p.c: calls: it calls q_one() of src/cli/q.c, which calls p_one() of it'
check 'calls: 3 files call round a circle: src/r.c -> src/s.c -> src/t.c -> src/r.c'
echo "$out" | grep 'round a circle' | grep -q 'p.c' &&
	{ echo "FAIL: a pair was also reported as a circle"; fail=1; }
echo "$out" | grep -q 'src/e.c.*calls' && { echo "FAIL: a static function or a comment was a call"; fail=1; }
echo "$out" | grep -q 'fine()\|tests/t.c' && { echo "FAIL: an 80-line function or a test was reported"; fail=1; }
n=$(echo "$out" | grep -c 'src/a.c:[23]:')
[ "$n" -eq 0 ] || { echo "FAIL: a call named in a comment or a string was reported"; fail=1; }
# fixed, the same tree is clean
printf '#include <stdio.h>\nvoid f(char *o) { snprintf(o, 4, "%%d", 1); }\n' >"$dir/src/a.c"
printf 'int h(void);\n' >"$dir/src/b.c"
printf '\n' >"$dir/include/gpucmp/a.h"
printf '#include "gpucmp/adapter.h"\n' >"$dir/src/adapters/x.c"
printf 'void k(void) { fprintf(stderr, "x"); }\n' >"$dir/src/c.c"
printf 'static int db;\n' >"$dir/src/cli/m.c"
{ body longest 79; body fine 79; } >"$dir/src/d.c"
printf 'int q_one(void)\n{\n\treturn 1;\n}\n' >"$dir/src/cli/q.c"
printf 'int t_one(void)\n{\n\treturn 1;\n}\n' >"$dir/src/t.c"
out=$("$lint" "$dir" 2>&1) || { echo "FAIL: lint on the fixed tree: $out"; fail=1; }
[ "$fail" -eq 0 ] && echo "lint self-test: ok"
exit "$fail"
