#!/bin/sh
# completions/_gpucmp parses (zsh -n), and a real interactive zsh (driven
# through zsh/zpty, with compinit) offers the expected completions.  The
# matches are caught by wrapping compadd: `compadd -O` lists what it would add.
# usage: zsh.sh ZSH SCRIPT
set -u
zsh=$1 script=$2
"$zsh" -n "$script" || { echo "FAIL zsh -n $script"; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-zsh.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
mkdir "$dir/fpath"
cp "$script" "$dir/fpath/_gpucmp"
HOME=$dir ZDOTDIR=$dir "$zsh" -f -c '
dir=$1
zmodload zsh/zpty || exit 1
out=$dir/matches
zpty z '"$zsh"' -f -i
zpty -w z "PS1= PS2= RPS1=; fpath=($dir/fpath \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z "compadd() { local -a m; builtin compadd -O m \"\$@\"; (( \$#m )) && print -rl -- \$m >>$out; builtin compadd \"\$@\"; }"
zpty -w z "zstyle \":completion:*\" list-prompt \"\"; zstyle \":completion:*\" menu no; LISTMAX=100000"
# completion ends by calling comppostfuncs: _t_done marks it in a file, so
# the next keys are sent only then (keys typed ahead of a running completion
# make zsh cut it short, which failed this test on a busy machine)
zpty -w z "_t_done() { print -r -- end >>$dir/compdone; }"
zpty -w z "print SETUP-DONE"
zpty -r -m z x "*SETUP-DONE*SETUP-DONE*"
pass=0 fail=0
# expect exact|has LINE WANT...: the matches of LINE<TAB> (sorted, unique)
expect() {
	local how=$1 line=$2 ok=1 w
	shift 2
	local n=0
	: >$out
	rm -f $dir/compdone
	zpty -w z "comppostfuncs=(_t_done)"
	zpty -w -n z "$line"$'"'"'\t'"'"'
	while [[ ! -e $dir/compdone ]] && (( n++ < 600 )); do sleep 0.05; done
	zpty -w z $'"'"'\C-u'"'"'"print DONE-MARK"
	zpty -r -m z x "*DONE-MARK*DONE-MARK*"
	local -a got want
	got=(${(f)"$(sort -u $out)"})
	want=(${(o)@})
	if [[ $how == exact ]]; then
		[[ "$got" == "$want" ]] || ok=0
	else
		for w in $want; do (( ${got[(Ie)$w]} )) || ok=0; done
	fi
	if (( ok )); then
		(( pass++ ))
	else
		(( fail++ ))
		print -r -- "FAIL \"$line\": got \"$got\", want ($how) \"$want\""
	fi
}
expect exact "gpucmp list --k8s " managed join any none
expect exact "gpucmp li" list
expect exact "gpucmp list --for" --format
expect has "gpucmp show " lambda azure
expect has "gpucmp list --gpu h1" h100 h100-sxm
expect exact "gpucmp import --format " skypilot
expect exact "gpucmp list --format " table json csv ndjson markdown
expect exact "gpucmp list --price-kind " fixed marketplace auction_floor any
expect exact "gpucmp list --price-kind fixed," marketplace auction_floor any
expect has "gpucmp list --gpu h100,a1" a100 a10
expect exact "gpucmp cache " status clear path
expect exact "gpucmp completion " bash zsh fish
expect exact "gpucmp config " path show
expect exact "gpucmp --c" --cache --color
zpty -d z
print "zsh completion: $pass passed, $fail failed"
(( fail == 0 ))
' zsh "$dir"
