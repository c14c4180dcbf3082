#!/bin/bash
# Load completions/gpucmp.bash in a real, non-interactive bash (without the
# bash-completion package: the script stands alone) and check what the
# completion function offers for a few command lines.
# usage: bash.sh SCRIPT
set -u
script=$1
# shellcheck source=/dev/null
source "$script" || { echo "FAIL cannot source $script"; exit 1; }
complete -p gpucmp >/dev/null 2>&1 || { echo "FAIL no 'complete -F ... gpucmp'"; exit 1; }
pass=0 fail=0

# complete WORD... : COMPREPLY for the command line WORD... (the last word is
# the one under the cursor), as one space-separated line
complete_line() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_gpucmp gpucmp "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
	echo "${COMPREPLY[*]}"
}

# expect exact|has WANT WORD... : the reply is WANT, or has each word of WANT
expect() {
	local how=$1 want=$2 got w ok=1
	shift 2
	got=$(complete_line "$@")
	if [ "$how" = exact ]; then
		[ "$got" = "$want" ] || ok=0
	else
		for w in $want; do
			[[ " $got " == *" $w "* ]] || ok=0
		done
	fi
	if [ $ok = 1 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL '$*': got '$got', want ($how) '$want'"
	fi
}

expect exact 'managed join any none' gpucmp list --k8s ''
expect exact 'list' gpucmp li
expect exact '--format' gpucmp list --for
expect has 'lambda azure' gpucmp show ''
expect has 'h100' gpucmp list --gpu h1
expect exact 'skypilot' gpucmp import --format ''
expect exact 'table json csv ndjson markdown' gpucmp list --format ''
expect exact 'fixed marketplace auction_floor any' gpucmp list --price-kind ''
# --opt=value, split at '=' as COMP_WORDBREAKS makes bash do
expect exact 'managed' gpucmp list --k8s = m
expect exact 'managed join any none' gpucmp list --k8s =
# the item after the last comma of a list
expect has 'h100,a100' gpucmp list --gpu h100,a1
expect exact 'price_hr,-gpu_count' gpucmp list --sort price_hr,-gpu_c
expect exact 'provider' gpucmp list --columns prov
# commands, global options, arguments
expect has 'list gpus cache help completion' gpucmp ''
expect exact '--cache --color' gpucmp --c
expect exact 'list' gpucmp --cache x.db li
expect exact 'status clear path' gpucmp cache ''
expect exact 'lambda linode lium' gpucmp cache clear l
expect exact '' gpucmp cache status l
expect exact '' gpucmp show lambda ''
expect exact 'bash zsh fish' gpucmp completion ''
expect exact 'path show' gpucmp config ''
expect exact '' gpucmp config path ''
expect has 'fields where list' gpucmp help ''
# an option the command does not take is not offered
expect exact '' gpucmp gpus --k8
expect exact 'managed join any none' gpucmp -q list --where 'x' --k8s ''

echo "bash completion: $pass passed, $fail failed"
[ $fail -eq 0 ]
