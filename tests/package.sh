#!/bin/sh
# `cpack -G DEB` makes a .deb with the installed layout under /usr, the
# libraries gpucmp needs as Depends (libcurl and libzip too: they are
# loaded at run time), and a binary that runs from the unpacked tree.
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
for d in libcurl4 libzip4 libjansson4 libsqlite3-0 libyaml-0-2 zlib1g; do
	case ", $deps" in *", $d"[\ ,]* | *"| $d"[\ ,]* | *", $d") ;; *) echo "FAIL Depends lacks $d: $deps"; fail=1 ;; esac
done
dpkg-deb -x "$deb" "$out/root"
ver=$(HOME=$out "$out/root/usr/bin/gpucmp" --version) || { echo "FAIL packaged gpucmp --version"; fail=1; }
[ $fail -eq 0 ] || exit 1
echo "package: $(basename "$deb") ($ver); Depends: $deps"
