#!/bin/sh
# The nine jobs an ML engineer brings to gpucmp (issue 24), run on a real
# terminal COLS wide (util-linux script(1)) against the built-in data, and
# printed as a transcript: each command, what the terminal showed, its exit
# status.  Run it with two builds to see a change side by side:
#
#   scripts/nine-jobs.sh OLD/gpucmp 80 >before.txt
#   scripts/nine-jobs.sh build/gpucmp 80 >after.txt
#
# usage: nine-jobs.sh GPUCMP [COLS]   (COLS default 80; colour off)
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cols=${2:-80}
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-jobs.XXXXXX")
trap 'rm -rf "$root"' EXIT INT TERM
export HOME="$root" GPUCMP_CACHE="$root/cache.db" GPUCMP_TODAY=2026-12-02
export XDG_CONFIG_HOME="$root/config" XDG_CACHE_HOME="$root/xdg-cache"
export NO_COLOR=1 TERM=xterm PATH="$(dirname "$bin"):$PATH"
unset COLUMNS
"$bin" --quiet list --limit 0 >/dev/null 2>&1

# job TITLE CMD: the command as typed, then the terminal, then its status
n=0
job() {
	n=$((n + 1))
	printf '\n## %d. %s\n' "$n" "$1"
}
run() {
	printf '$ %s\n' "$*"
	script -qec "stty cols $cols rows 60; $*; echo \"[exit \$?]\"" /dev/null </dev/null |
		tr -d '\r'
}

job "cheapest 8x H100 with InfiniBand on managed Kubernetes, EU and US"
run gpucmp list --gpu h100:8 --ib --k8s managed --region eu --limit 5
run gpucmp list --gpu h100:8 --ib --k8s managed --region us --limit 5
job "MIG on managed Kubernetes"
run gpucmp list --k8s managed --mig --limit 8
job "one 24 GB GPU with my own image"
run gpucmp list --gpu 24GB --gpus 1 --docker custom --limit 8
job "three SKUs side by side"
run gpucmp list --gpu h100:8,a100-80gb:8,l40s:8 --limit 9
job "jq and CSV pipelines"
run "gpucmp list --gpu a100 --gpus 8 --json | jq -r '.[0] | [.provider, .sku, .price_hr, .as_of] | @tsv'"
run "gpucmp list --gpu a100 --gpus 8 --format csv --limit 3"
job "a cron refresh with an alert"
run gpucmp cron
# the filed case: Lambda's 8x H100 drops to $19.92 while another provider is
# unreachable; Lambda's API on a loopback server (the test suite's recorded
# answers, tests/fixtures/http), when the fixture server is built
fx=${FIXTURED:-$(dirname "$bin")/tests/gpucmp-fixtured}
fix=$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/http
if [ -x "$fx" ]; then
	. "$(dirname "$0")/../tests/lib/fixtured.sh"
	lambda() { # FILE: serve it as Lambda's instance types
		[ -n "${FIXTURED_PID:-}" ] && kill "$FIXTURED_PID" 2>/dev/null && wait "$FIXTURED_PID"
		echo "GET /api/v1/instance-types file=$1" >"$root/routes"
		fixtured_start "$fx" "$root/routes" "$fix" "$root" >/dev/null
		export GPUCMP_LAMBDA_BASE_URL="$FIXTURED_BASE" GPUCMP_LAMBDA_API_KEY=secret_test
	}
	lambda lambda/instance-types.json
	GPUCMP_NOW=2026-12-02T11:00:00Z gpucmp refresh -q lambda
	lambda history/lambda-next.json
	export GPUCMP_VULTR_BASE_URL=http://127.0.0.1:9 GPUCMP_NOW=2026-12-02T12:00:00Z
	run gpucmp refresh --changes --exit-on-change --gpu h100 --gpus 8 --retries 0 lambda vultr
	kill "$FIXTURED_PID" 2>/dev/null
	unset GPUCMP_NOW GPUCMP_VULTR_BASE_URL GPUCMP_LAMBDA_BASE_URL
else
	run gpucmp refresh --changes --exit-on-change lambda
fi
job "recommend: a 70B fine-tune and a 7B server"
run gpucmp recommend --workload training --gpu h100 --nodes 2 --hours 72 --limit 4
run gpucmp recommend --workload training --model 70B --limit 4
run gpucmp recommend --workload inference --model 7B --limit 4
job "mistakes on purpose"
run gpucmp list --provider AWS --limit 2
run gpucmp list --region GER
run gpucmp list --region XX
run gpucmp list --where "'gpu = h100'" --limit 2
run gpucmp list --gpu l4 --region eu --ib
job "help, man and completion"
run "gpucmp --help | head -12"
run "gpucmp help where | head -6"
run "gpucmp completion bash | head -3"
