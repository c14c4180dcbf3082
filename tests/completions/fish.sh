#!/bin/sh
# completions/gpucmp.fish parses (fish -n), and a real fish offers the
# expected completions (`complete -C 'COMMAND LINE'`).
# usage: fish.sh FISH SCRIPT
set -u
fish=$1 script=$2
"$fish" -n "$script" || { echo "FAIL fish -n $script"; exit 1; }
home=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-fish.XXXXXX")
trap 'rm -rf "$home"' EXIT INT TERM
# fish --no-config: no user configuration, no other completions of gpucmp
HOME=$home XDG_CONFIG_HOME=$home XDG_DATA_HOME=$home "$fish" --no-config -c '
source $argv[1]; or exit 1
set -g pass 0
set -g fail 0
# expect exact|has LINE WANT...: the candidates (sorted, descriptions cut)
function expect
    set -l how $argv[1]
    set -l line $argv[2]
    set -l want $argv[3..-1]
    set -l got (complete -C $line | string replace -r "\t.*" "" | sort)
    set -l ok 1
    if test $how = exact
        set -l sorted (printf "%s\n" $want | sort)
        test "$got" = "$sorted"; or set ok 0
    else
        for w in $want
            contains -- $w $got; or set ok 0
        end
    end
    if test $ok = 1
        set pass (math $pass + 1)
    else
        set fail (math $fail + 1)
        echo "FAIL \"$line\": got \"$got\", want ($how) \"$want\""
    end
end
expect exact "gpucmp list --k8s " managed join any none
expect exact "gpucmp li" list
expect exact "gpucmp list --for" --format
expect has "gpucmp show " lambda azure
expect has "gpucmp list --gpu h1" h100 h100-sxm
expect exact "gpucmp import --format " skypilot
expect exact "gpucmp list --format " table json csv ndjson markdown
expect exact "gpucmp list --price-kind " fixed marketplace auction_floor any
expect exact "gpucmp list --k8s=m" --k8s=managed
expect has "gpucmp list --gpu h100,a1" h100,a100
expect exact "gpucmp list --sort price,-gpu_c" price,-gpu_count
expect exact "gpucmp cache " status clear path
expect exact "gpucmp cache clear l" lambda linode lium
expect exact "gpucmp completion " bash zsh fish
expect exact "gpucmp config " path show
expect has "gpucmp help " fields where list
expect exact "gpucmp --c" --cache --color
expect exact "gpucmp gpus --k8" 
echo "fish completion: $pass passed, $fail failed"
test $fail -eq 0
' "$script"
