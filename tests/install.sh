#!/bin/sh
# `cmake --install BUILD --prefix TMP` lays out the files where a system
# looks for them, and the installed binary runs on its own.
# usage: install.sh CMAKE BUILD_DIR
set -u
cmake=$1 build=$2
prefix=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-install.XXXXXX")
trap 'rm -rf "$prefix"' EXIT INT TERM
"$cmake" --install "$build" --prefix "$prefix" >"$prefix.log" 2>&1 ||
	{ echo "FAIL cmake --install:"; cat "$prefix.log"; rm -f "$prefix.log"; exit 1; }
rm -f "$prefix.log"
fail=0
# the FHS layout (GNUInstallDirs defaults) each shell and man(1) search
datadir=share mandir=share/man docdir=share/doc/gpucmp bindir=bin
for f in "$bindir/gpucmp" "$mandir/man1/gpucmp.1" \
	"$datadir/bash-completion/completions/gpucmp" \
	"$datadir/zsh/site-functions/_gpucmp" \
	"$datadir/fish/vendor_completions.d/gpucmp.fish" \
	"$docdir/README.md" "$docdir/OUTPUT.md" "$docdir/EXIT-CODES.md"; do
	[ -f "$prefix/$f" ] || { echo "FAIL missing $f"; fail=1; }
done
[ -x "$prefix/$bindir/gpucmp" ] || { echo "FAIL $bindir/gpucmp is not executable"; fail=1; }
# the installed binary needs no file of the source or build tree
ver=$(cd "$prefix" && HOME=$prefix "$prefix/$bindir/gpucmp" --version) ||
	{ echo "FAIL installed gpucmp --version exited non-zero"; fail=1; }
case $ver in
"gpucmp "[0-9]*" (snapshot "[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]")") ;;
*) echo "FAIL installed gpucmp --version printed '$ver'"; fail=1 ;;
esac
# the static build (GPUCMP_STATIC, the default) needs the C library alone:
# jansson, SQLite, libyaml and zlib are inside; libcurl, libzip and
# libcrypto are loaded when first used, so ldd lists none of them
if grep -q '^GPUCMP_STATIC:BOOL=ON$' "$build/CMakeCache.txt" 2>/dev/null; then
	libs=$(ldd "$prefix/$bindir/gpucmp" 2>&1) || { echo "FAIL ldd gpucmp: $libs"; fail=1; }
	extra=$(printf '%s\n' "$libs" | awk '{ print $1 }' | grep -v -E \
		'^(linux-vdso|linux-gate)\.so\.[0-9]+$|^(/.*/)?ld-linux[-a-z0-9_.]*\.so\.[0-9]+$|^lib(c|m|dl|pthread|rt)\.so\.[0-9]+$')
	if [ -n "$extra" ]; then
		echo "FAIL the static gpucmp needs more than the C library:" $extra
		fail=1
	fi
	static="; ldd: the C library alone"
else
	static=""
fi
# the installed bash completion is the committed one and loads
bash -c '. "$1" && complete -p gpucmp' sh "$prefix/$datadir/bash-completion/completions/gpucmp" \
	>/dev/null 2>&1 || { echo "FAIL the installed bash completion does not load"; fail=1; }
[ $fail -eq 0 ] || { echo "installed files:"; (cd "$prefix" && find . -type f | sort); exit 1; }
echo "install: $(cd "$prefix" && find . -type f | wc -l) files in place; $ver$static"
