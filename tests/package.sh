#!/bin/sh
# `cpack -G DEB` makes a .deb with the installed layout under /usr, the
# libraries gpucmp needs as Depends (the static build: libc6 alone), the
# optional ones it loads when first used (libcurl, libzip, libcrypto) as
# Recommends, and a binary that runs from the unpacked tree.
# usage: package.sh CPACK BUILD_DIR
set -u
cpack=$1 build=$2
out=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-deb.XXXXXX")
trap 'rm -rf "$out"' EXIT INT TERM
(cd "$build" && "$cpack" -G DEB -B "$out" >"$out/cpack.log" 2>&1) ||
	{ echo "FAIL cpack -G DEB:"; cat "$out/cpack.log"; exit 1; }
deb=$(ls "$out"/*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL cpack made no .deb"; cat "$out/cpack.log"; exit 1; }
fail=0
list=$(dpkg-deb -c "$deb" | awk '{ print $NF }')
for f in ./usr/bin/gpucmp ./usr/share/man/man1/gpucmp.1 \
	./usr/share/bash-completion/completions/gpucmp ./usr/share/zsh/site-functions/_gpucmp \
	./usr/share/fish/vendor_completions.d/gpucmp.fish ./usr/share/doc/gpucmp/README.md; do
	printf '%s\n' "$list" | grep -qx -- "$f" || { echo "FAIL $(basename "$deb") lacks $f"; fail=1; }
done
deps=$(dpkg-deb -f "$deb" Depends)
recs=$(dpkg-deb -f "$deb" Recommends)
# has FIELD LIST NAME: is NAME one of LIST's packages (or alternatives)?
has() { case ", $2" in *", $3"[\ ,]* | *"| $3"[\ ,]* | *", $3" | *"| $3") return 0 ;; esac; return 1; }
has Depends "$deps" libc6 || { echo "FAIL Depends lacks libc6: $deps"; fail=1; }
for d in libcurl4 libzip4 libssl3; do
	has Recommends "$recs" $d || { echo "FAIL Recommends lacks $d: $recs"; fail=1; }
	! has Depends "$deps" $d || { echo "FAIL Depends holds the optional $d: $deps"; fail=1; }
done
if grep -q '^GPUCMP_STATIC:BOOL=ON$' "$build/CMakeCache.txt" 2>/dev/null; then
	# linked in: no package of their own
	for d in libjansson4 libsqlite3-0 libyaml-0-2 zlib1g libssl3; do
		! has Depends "$deps" $d || { echo "FAIL the static build Depends on $d: $deps"; fail=1; }
	done
else
	for d in libjansson4 libsqlite3-0 libyaml-0-2 zlib1g; do
		has Depends "$deps" $d || { echo "FAIL Depends lacks $d: $deps"; fail=1; }
	done
fi
dpkg-deb -x "$deb" "$out/root"
ver=$(HOME=$out "$out/root/usr/bin/gpucmp" --version) || { echo "FAIL packaged gpucmp --version"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "package: $(basename "$deb") ($ver); Depends: $deps; Recommends: $recs"
