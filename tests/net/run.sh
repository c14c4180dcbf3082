#!/bin/sh
# Network scenarios: gpucmp refresh/import over real libcurl against the
# loopback fixture server (tests/http/README.md), checking exit codes,
# messages and what the cache holds afterwards (with the sqlite3 shell).
#
# usage: run.sh GPUCMP FIXTURED [SCENARIO...]
#   GPUCMP_WRAPPER="valgrind ..."  run gpucmp under a wrapper
#
# Each scenario is a shell function scenario_<name> below; it gets its own
# HOME, cache and server.  A scenario fails at its first failed check.
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fixtured=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/fixtured.sh"
fixtures=$(cd "$here/../fixtures/http" && pwd)
wrapper=${GPUCMP_WRAPPER:-}
root=$(mktemp -d "${TMPDIR:-/tmp}/gpucmp-net.XXXXXX")
pid=""
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	rm -rf "$root"
}
trap cleanup EXIT INT TERM

SECRET=sk-test-7f3a9c21d4e8b6  # a fake key that must never leak
# A server that is down: the loopback discard port, where nothing listens
# (binding it needs root).  Never the port a stopped fixture server freed:
# another test's server (a second suite at once) may take it at once.
DOWN=http://127.0.0.1:9
# A refresh a scenario expects to fail for another reason than the retries
# runs with --retries 0: its live failure falls through to the catalog
# tiers, at that closed port unless the scenario serves them, and each tier
# would retry the refused connection three times (0.5 + 1 + 2 s of backoff,
# about 7 s a refresh; 36 of them made `implausible` take 172 s).  The
# retries themselves are tested where they are the subject: http_500,
# retry_after, timeout, hostile_deadline.

# --- helpers ---------------------------------------------------------------

fail() {
	echo "FAIL $name: $*"
	[ -f "$dir/out" ] && { echo "--- stdout"; head -20 "$dir/out"; }
	[ -f "$dir/err" ] && { echo "--- stderr"; head -20 "$dir/err"; }
	return 1
}

# server [ROUTES] (or routes on stdin): start the fixture server with these routes
# (file= paths are relative to tests/fixtures/http, or to $SERVER_ROOT when
# set: files a scenario generates); sets BASE.
server() {
	stop_server
	if [ $# -gt 0 ]; then printf '%s\n' "$1" >"$dir/routes"; else cat >"$dir/routes"; fi
	rm -f "$dir/requests.log"
	fixtured_start "$fixtured" "$dir/routes" "${SERVER_ROOT:-$fixtures}" "$dir" \
		--log "$dir/requests.log"
	started=$?
	pid=$FIXTURED_PID
	if [ $started -ne 0 ]; then
		echo "FAIL $name: fixture server did not start"; cat "$dir/server.err"
		return 1
	fi
	BASE=$FIXTURED_BASE
}

stop_server() {
	if [ -n "$pid" ]; then
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		pid=""
	fi
}

# leak_check FILE...: fails, naming the file, when one of them (text or a
# binary SQLite file) holds the key; missing files are fine.
leak_check() {
	for f in "$@"; do
		[ -f "$f" ] || continue
		if grep -qaF -- "$SECRET" "$f"; then
			echo "$(basename "$f")"
			return 1
		fi
	done
	return 0
}

# g ARGS...: run gpucmp; stdout in $dir/out, stderr in $dir/err, exit in $rc.
# After every run, stdout, stderr (where --verbose logs go) and the cache
# with its -wal and -shm files must not hold the key: a leak is recorded in
# $dir/leaks, which fails the scenario (the runner checks it).
g() {
	# shellcheck disable=SC2086
	$wrapper "$bin" "$@" >"$dir/out" 2>"$dir/err"
	rc=$?
	if ! where=$(leak_check "$dir/out" "$dir/err" "$GPUCMP_CACHE" "$GPUCMP_CACHE-wal" \
		"$GPUCMP_CACHE-shm"); then
		echo "the API key leaked into $where (gpucmp $*)" >>"$dir/leaks"
		cp "$dir/err" "$dir/leaked.err" 2>/dev/null
	fi
	return 0
}

expect_rc() { [ "$rc" = "$1" ] || fail "exit $rc, want $1 (gpucmp $last)"; }
has() { grep -qF -- "$2" "$dir/$1" || fail "$1 lacks '$2'"; }
lacks() { ! grep -qF -- "$2" "$dir/$1" || fail "$1 has '$2'"; }
sql() { sqlite3 "$GPUCMP_CACHE" "$1"; }
sql_is() {
	got=$(sql "$1")
	[ "$got" = "$2" ] || fail "sql '$1' gave '$got', want '$2'"
}
# no file this scenario wrote, nor the cache, holds the secret
no_secret() {
	where=$(leak_check "$dir"/out "$dir"/err "$GPUCMP_CACHE"*) ||
		fail "the API key leaked into $where"
}
# no raw ESC, BEL, CR or C1 control (U+0080..U+009F) in a file
no_controls() {
	! LC_ALL=C grep -q "$(printf '[\033\007\r]')" "$dir/$1" ||
		fail "$1 holds a raw control character" || return 1
	! LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$dir/$1" ||
		fail "$1 holds a raw C1 control character"
}

# --- scenarios ---------------------------------------------------------------

LAMBDA_OK="GET /api/v1/instance-types file=lambda/instance-types.json"

# A refresh stores live offers in place of the snapshot's, sends the key
# only in the Authorization header and a gpucmp User-Agent.
scenario_refresh_ok() {
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh lambda"; g refresh lambda
	expect_rc 0 && has out "lambda" && has out "2 offers" || return 1
	sql_is "SELECT count(*), min(source), max(source) FROM offer WHERE provider='lambda'" "2|live|live" || return 1
	sql_is "SELECT stale, last_error IS NULL FROM provider_state WHERE provider='lambda'" "0|1" || return 1
	has requests.log "Authorization: Bearer $SECRET" && has requests.log "User-Agent: gpucmp/" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='vast'" "$(sql "SELECT count(*) FROM offer WHERE provider='vast' AND source='snapshot'")" || return 1
	no_secret
}

# No key, provider named (the crontab that lost its variable): a failure,
# one line on stderr naming the variable even with --quiet, the snapshot
# rows stay, nothing is fetched; exit 69 alone, 75 beside one refreshed.
scenario_no_key() {
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	unset GPUCMP_LAMBDA_API_KEY LAMBDA_API_KEY GPUCMP_GCP_API_KEY
	before=$(sql "SELECT count(*) FROM offer WHERE provider='lambda'")
	# (the catalog tier off: with it, lambda's catalog would stand in)
	last="refresh --no-catalog --quiet lambda"; g refresh --no-catalog --quiet lambda
	expect_rc 69 || return 1
	has err "gpucmp: lambda needs an API key: set GPUCMP_LAMBDA_API_KEY (or LAMBDA_API_KEY, or api_key in the config file)" || return 1
	[ "$(grep -c . "$dir/err")" = 1 ] || fail "not one line on stderr" || return 1
	[ ! -s "$dir/out" ] || fail "something on stdout" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='lambda'" "$before" || return 1
	sql_is "SELECT stale, last_error FROM provider_state WHERE provider='lambda'" \
		"0|skipped: no key: set GPUCMP_LAMBDA_API_KEY (or LAMBDA_API_KEY, or api_key in the config file)" || return 1
	[ ! -s "$dir/requests.log" ] || fail "a request was made without a key" || return 1
	# lambda refreshed with its key, gcp named without one: 75
	export GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh --no-catalog --quiet lambda gcp"; g refresh --no-catalog --quiet lambda gcp
	expect_rc 75 && has err "gpucmp: gcp needs an API key: set GPUCMP_GCP_API_KEY (or api_key in the config file)" || return 1
	[ "$(grep -c . "$dir/err")" = 1 ] || fail "not one line on stderr" || return 1
	sql_is "SELECT min(source) FROM offer WHERE provider='lambda'" "live" || return 1
	# the config's providers are named too
	mkdir -p "$XDG_CONFIG_HOME/gpucmp"
	printf 'catalog: false\nproviders: [lambda, gcp]\n' >"$XDG_CONFIG_HOME/gpucmp/config.yaml"
	chmod 600 "$XDG_CONFIG_HOME/gpucmp/config.yaml"
	last="refresh --quiet (config providers)"; g refresh --quiet --force
	expect_rc 75 && has err "gcp needs an API key: set GPUCMP_GCP_API_KEY" || return 1
	no_secret
}

# Every provider (no IDs, no config list), no keys at all: the keyless ones
# refresh, the others are skipped as before (exit 0, a note each, nothing
# with --quiet), listed by --verbose and in cache status.
scenario_all_no_keys() {
	start_adapter_servers || return 1
	for id in digitalocean gcp hyperstack lambda verda; do
		up=$(echo "$id" | tr 'a-z-' 'A-Z_')
		unset "GPUCMP_${up}_API_KEY"
	done
	unset LAMBDA_API_KEY DIGITALOCEAN_TOKEN DIGITALOCEAN_ACCESS_TOKEN HYPERSTACK_API_KEY
	last="refresh --no-catalog --quiet"; g refresh --no-catalog --quiet
	expect_rc 0 || return 1
	[ ! -s "$dir/out" ] && [ ! -s "$dir/err" ] || fail "--quiet printed something" || return 1
	last="refresh --no-catalog -v --force"; g refresh --no-catalog -v --force
	stop_adapter_servers
	expect_rc 0 || return 1
	has err "gpucmp: skipped, no key: digitalocean, gcp, hyperstack, lambda, verda" || return 1
	has err "gpucmp: lambda: skipped: no key: set GPUCMP_LAMBDA_API_KEY (or LAMBDA_API_KEY, or api_key in the config file); the hosted catalog tier is off" || return 1
	for id in digitalocean hyperstack; do
		[ -s "$dir/$id.log" ] && fail "$id was fetched without a key" && return 1
	done
	last="cache status --json"; g cache status --json
	expect_rc 0 || return 1
	for id in digitalocean gcp hyperstack lambda verda; do
		grep -A8 "\"provider\": \"$id\"" "$dir/out" | grep -q '"last_error": "skipped: no key: set ' ||
			fail "cache status does not say $id was skipped for want of a key" || return 1
	done
	last="cache status"; g cache status
	expect_rc 0 && has out "skipped: no key: set GPUCMP_HYPERSTACK_API_KEY" || return 1
	no_secret
}

# 500 on every attempt: retried, then the provider fails (exit 69: all
# failed), keeps its previous offers marked stale, and the error is recorded.
# (The catalog tier off: the live failure alone; tier_* has the fallback.)
scenario_http_500() {
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	g refresh lambda || true
	server <<EOF || return 1
GET /api/v1/instance-types status=500 body={"error":"internal"}
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh lambda --retries 2"; g refresh --no-catalog lambda --retries 2
	expect_rc 69 && has err "lambda: " && has err "HTTP 500 after retries; kept its previous offers, marked stale" || return 1
	[ "$(grep -c '^GET' "$dir/requests.log")" = 3 ] || fail "want 3 attempts, log has $(grep -c '^GET' "$dir/requests.log")" || return 1
	sql_is "SELECT count(*), min(stale), min(source) FROM offer WHERE provider='lambda'" "2|1|live" || return 1
	sql_is "SELECT stale, last_error LIKE '%HTTP 500%' FROM provider_state WHERE provider='lambda'" "1|1" || return 1
	last="list --provider lambda --json"; g list --provider lambda --json
	expect_rc 0 && has out '"stale":true' || return 1
	last="cache status"; g cache status
	expect_rc 0 && has out "stale" && has out "HTTP 500" || return 1
	no_secret
}

# 429 with Retry-After: waits (at least 1 s), then succeeds.  A lower
# bound only: a busy machine makes the run longer, never shorter.
scenario_retry_after() {
	server <<EOF || return 1
GET /api/v1/instance-types status=429 header=Retry-After:1 body={"error":"slow_down"} times=1
GET /api/v1/instance-types file=lambda/instance-types.json
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	t0=$(date +%s.%N)
	last="refresh lambda"; g refresh lambda
	t1=$(date +%s.%N)
	expect_rc 0 && has out "2 offers" || return 1
	awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a >= 0.95) }' || fail "did not wait for Retry-After" || return 1
	[ "$(grep -c '^GET' "$dir/requests.log")" = 2 ] || fail "want 2 requests"
}

# A response slower than --timeout fails after the retries; exit 69.  The
# server holds every answer until the scenario ends (hold=usr1, never
# signalled), so no machine is slow enough to see one.
scenario_timeout() {
	server <<EOF || return 1
GET /api/v1/instance-types file=lambda/instance-types.json hold=usr1
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh lambda --timeout 0.5 --retries 1"; g refresh lambda --timeout 0.5 --retries 1
	expect_rc 69 && has err "timed out after 2 attempts" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='lambda' AND source='snapshot'" "$(sql "SELECT count(*) FROM offer WHERE provider='lambda'")"
}

# Truncated JSON, an HTML page with status 200, an oversized body: each a
# clear error, the previous offers kept.
scenario_bad_bodies() {
	server <<EOF || return 1
GET /api/v1/instance-types file=lambda/instance-types.json truncate=200
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	before=$(sql "SELECT count(*) FROM offer WHERE provider='lambda'")
	last="refresh (truncated)"; g refresh --retries 0 lambda
	expect_rc 69 && has err "response is not valid JSON" || return 1
	server <<EOF || return 1
GET /api/v1/instance-types body=<html><body>Maintenance</body></html> type=text/html
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh (html)"; g refresh --retries 0 lambda
	expect_rc 69 && has err "not JSON (an error page?)" || return 1
	server <<EOF || return 1
GET /api/v1/instance-types size=300000
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_HTTP_MAX_BYTES=100000
	last="refresh (oversized)"; g refresh --retries 0 lambda
	unset GPUCMP_HTTP_MAX_BYTES
	expect_rc 69 && has err "response larger than 100000 bytes" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='lambda'" "$before" || return 1
	sql_is "PRAGMA integrity_check" "ok"
}

# A broken page in the middle of a pagination (Linode, page 2 of 2 cut
# short): nothing of the crawl is stored, the previous offers stay.
scenario_broken_page() {
	server "GET /v4/linode/types?page=2 file=linode/types-page2.json
GET /v4/linode/types file=linode/types.json
GET /v4/regions/availability?page=2 file=linode/availability-page2.json
GET /v4/regions/availability file=linode/availability.json" || return 1
	export GPUCMP_LINODE_BASE_URL="$BASE"
	g refresh linode
	expect_rc 0 || return 1
	before=$(sql "SELECT count(*) || '/' || max(fetched_at) FROM offer WHERE provider='linode'")
	server "GET /v4/linode/types?page=2 file=linode/types-page2.json truncate=40
GET /v4/linode/types file=linode/types.json" || return 1
	export GPUCMP_LINODE_BASE_URL="$BASE"
	last="refresh (page 2 broken)"; g refresh linode
	expect_rc 69 && has err "page=2" && has err "not valid JSON" || return 1
	[ "$(grep -c '^GET' "$dir/requests.log")" = 2 ] || fail "want pages 1 and 2 fetched" || return 1
	sql_is "SELECT count(*) || '/' || max(fetched_at) FROM offer WHERE provider='linode'" "$before" || return 1
	sql_is "SELECT min(stale), min(source) FROM offer WHERE provider='linode'" "1|live"
}

# A redirect is not followed when the request carries a key (a header with
# the provider's own name would go along to the new host): it fails instead.
scenario_redirect_with_key() {
	server "GET /api/v1/instance-types status=302 header=Location:/elsewhere body={}
GET /elsewhere file=lambda/instance-types.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (302)"; g refresh --retries 0 lambda
	expect_rc 69 && has err "HTTP 302" || return 1
	! grep -q '^GET /elsewhere' "$dir/requests.log" || fail "the redirect was followed with the key"
}

# ETag: the second refresh asks "changed?", gets 304 and keeps the offers.
scenario_not_modified() {
	server <<EOF || return 1
GET /api/v1/instance-types file=lambda/instance-types.json etag=v1
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	g refresh lambda
	expect_rc 0 || return 1
	last="refresh lambda (again)"; g refresh lambda
	expect_rc 0 && has out "unchanged since the last refresh" || return 1
	has requests.log 'If-None-Match: "v1"' || return 1
	sql_is "SELECT count(*), max(stale) FROM offer WHERE provider='lambda'" "2|0"
}

# A gzip-encoded response is decoded.
scenario_gzip() {
	server <<EOF || return 1
GET /api/v1/instance-types file=lambda/instance-types.json.gz header=Content-Encoding:gzip
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh lambda"; g refresh lambda
	expect_rc 0 && has out "2 offers" && has requests.log "Accept-Encoding:"
}

# Price history (docs/HISTORY.md): the first refresh is the baseline; the
# next one, with gpu_1x_a100 cheaper and an 8x H100 new, prints both with
# --changes and exits 3 with --exit-on-change when the filters match (the
# cron alert "H100 x8 under $20 appeared"), 0 when they do not, 3 too when
# another provider failed (its failure on stderr); a refresh that changes
# nothing exits 0; a failed one with nothing matching keeps its own code.
scenario_history_changes() {
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh --changes (baseline)"
	GPUCMP_NOW=2026-12-02T11:00:00Z g refresh -q --changes --exit-on-change lambda
	expect_rc 0 || return 1
	sql_is "SELECT count(*) FROM history" "0" || return 1
	server "GET /api/v1/instance-types file=history/lambda-next.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh --exit-on-change --gpu b200"
	GPUCMP_NOW=2026-12-02T12:00:00Z g refresh -q --exit-on-change --gpu b200 lambda
	expect_rc 0 && [ ! -s "$dir/out" ] || fail "no B200 changed: exit 0, nothing printed" ||
		return 1
	sql_is "SELECT kind, price_hr, was_price_hr FROM history ORDER BY id" "4|0.7|0.8
1|19.9|" || return 1
	server "GET /api/v1/instance-types file=lambda/instance-types.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	GPUCMP_NOW=2026-12-02T13:00:00Z g refresh -q lambda
	server "GET /api/v1/instance-types file=history/lambda-next.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh --changes --exit-on-change --gpu h100 --gpus 8 --max-price 20"
	GPUCMP_NOW=2026-12-02T14:00:00Z g refresh -q --changes --exit-on-change --gpu h100 --gpus 8 \
		--max-price 20 lambda
	expect_rc 3 && has out "appeared" && has out "gpu_8x_h100_sxm5" || return 1
	lacks out "gpu_1x_a100" || return 1
	# the alert fires while another provider is down: its failure on stderr
	server "GET /api/v1/instance-types file=lambda/instance-types.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	GPUCMP_NOW=2026-12-02T14:20:00Z g refresh -q lambda
	server "GET /api/v1/instance-types file=history/lambda-next.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_VULTR_BASE_URL="$DOWN"
	last="refresh --changes --exit-on-change, vultr down"
	GPUCMP_NOW=2026-12-02T14:40:00Z g refresh -q --changes --exit-on-change --gpu h100 \
		--gpus 8 --timeout 2 --retries 0 lambda vultr
	expect_rc 3 && has out "gpu_8x_h100_sxm5" && has err "vultr" || return 1
	unset GPUCMP_VULTR_BASE_URL
	last="refresh --changes (nothing new)"
	GPUCMP_NOW=2026-12-02T15:00:00Z g refresh -q --changes --exit-on-change lambda
	expect_rc 0 && [ ! -s "$dir/out" ] || fail "nothing changed: exit 0, nothing printed" ||
		return 1
	last="changes --since 1d --json"
	GPUCMP_NOW=2026-12-02T19:00:00Z g changes --since 1d --json --provider lambda
	expect_rc 0 && has out '"change": "cheaper"' && has out '"change": "appeared"' || return 1
	export GPUCMP_LAMBDA_BASE_URL="$DOWN"
	last="refresh --exit-on-change (server down)"
	GPUCMP_NOW=2026-12-02T16:00:00Z g refresh -q --exit-on-change --timeout 2 --retries 0 lambda
	expect_rc 69
}

# Stock (issue 26): RunPod's stockStatus (runpod/gpu-types-dc.json,
# constructed: see its README), Linode's /regions/availability (linodego's
# recording), Vast's rentable (a recorded `vastai search offers --raw`
# record) and Lambda's regions_with_capacity_available (its OpenAPI
# example) name their signal and time per offer; --available keeps what
# is known in stock and counts the unknown; the next load, whose stock was
# flipped here (a constructed variant of those files: RunPod's H100 sold
# out in US-IL-1 and back in EU-RO-1, Linode's RTX6000 x1 back in
# us-central), is `sold-out` and `back` to `refresh --changes
# --exit-on-change` (the line `gpucmp cron --alert` writes), to `changes`
# and to `history`.
STOCK_ROUTES="POST /graphql  file=runpod/gpu-types-dc.json
POST /api/v0/bundles/  file=vast/bundles.json
GET  /api/v1/instance-types  file=lambda/instance-types.json
GET  /v4/linode/types?page=2  file=linode/types-page2.json
GET  /v4/linode/types         file=linode/types.json
GET  /v4/regions/availability?page=2  file=linode/availability-page2.json
GET  /v4/regions/availability         file=linode/availability.json"
scenario_stock() {
	server "$STOCK_ROUTES" || return 1
	export GPUCMP_RUNPOD_BASE_URL="$BASE" GPUCMP_LINODE_BASE_URL="$BASE" \
		GPUCMP_VAST_BASE_URL="$BASE" GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh runpod linode vast lambda"
	GPUCMP_NOW=2026-12-02T11:00:00Z g refresh -q --no-catalog runpod linode vast lambda
	expect_rc 0 || return 1
	# Vast's recorded machine (rentable, not rented), Lambda's spec example
	# (gpu_1x_a100 with capacity in us-tx-1)
	last="list --provider vast,lambda (the stock's source)"
	g list --provider vast,lambda --all-regions --format csv \
		--columns provider,sku,region,available,available_checked_at,available_source
	has out "vast,1x-RTX_4090-96-64393,\"Guangxi, CN\",true,2026-12-02T11:00:00Z,\"vast: rentable, rented\"" ||
		return 1
	has out "lambda,gpu_1x_a100,us-tx-1,true,2026-12-02T11:00:00Z,lambda: /api/v1/instance-types regions_with_capacity_available" ||
		return 1
	last="list --available (the stock's source and time)"
	g list --provider runpod,linode --available --all-regions --format csv \
		--columns provider,sku,region,available,available_checked_at,available_source
	expect_rc 0 || return 1
	has out "runpod,NVIDIA H100 80GB HBM3,US-IL-1,true,2026-12-02T11:00:00Z,runpod: dataCenters.gpuAvailability.stockStatus" || return 1
	has out "runpod,NVIDIA GeForce RTX 3090,unknown,true,2026-12-02T11:00:00Z,runpod: gpuTypes.lowestPrice.stockStatus" || return 1
	has out "linode,g1-gpu-rtx6000-1,us-southeast,true,2026-12-02T11:00:00Z,linode: /v4/regions/availability" || return 1
	lacks out "EU-RO-1" && lacks out "us-central" || return 1
	last="list (no stock: no source, no time)"
	g list --provider runpod,linode,nebius --all-regions --format csv \
		--columns provider,region,available,available_checked_at,available_source
	has out "runpod,EU-RO-1,false,2026-12-02T11:00:00Z,runpod:" &&
		has out "nebius,eu-north1,,," || return 1
	last="list --available --gpu h100 (the snapshot's unknown stock counted)"
	g list --available --gpu h100 --all-regions --format csv --columns provider,region
	expect_rc 0 && has out "runpod,US-IL-1" &&
		has err "left out as unknown, not as no: --available" || return 1
	lacks err "runpod " || return 1
	# the next load: stock flipped, prices as they were
	mkdir -p "$dir/v/runpod" "$dir/v/linode" "$dir/v/vast" "$dir/v/lambda"
	cp "$fixtures"/linode/*.json "$dir/v/linode/"
	cp "$fixtures"/vast/*.json "$dir/v/vast/"
	cp "$fixtures"/lambda/*.json "$dir/v/lambda/"
	jq -c '.data.dataCenters[0].gpuAvailability[0].stockStatus = null |
		.data.dataCenters[1].gpuAvailability[0].stockStatus = "Low"' \
		"$fixtures/runpod/gpu-types-dc.json" >"$dir/v/runpod/gpu-types-dc.json" || return 1
	jq -c '(.data[] | select(.region == "us-central" and .plan == "g1-gpu-rtx6000-1")
		| .available) = true' "$fixtures/linode/availability.json" \
		>"$dir/v/linode/availability.json" || return 1
	SERVER_ROOT="$dir/v" server "$STOCK_ROUTES" || return 1
	export GPUCMP_RUNPOD_BASE_URL="$BASE" GPUCMP_LINODE_BASE_URL="$BASE"
	last="refresh --changes --exit-on-change --gpu h100 (cron's alert)"
	GPUCMP_NOW=2026-12-02T12:00:00Z g refresh -q --no-catalog --changes --exit-on-change \
		--gpu h100 runpod linode
	expect_rc 3 || return 1
	grep -q "sold-out.*runpod.*US-IL-1" "$dir/out" && grep -q "back.*runpod.*EU-RO-1" "$dir/out" ||
		fail "the alert lacks the H100's sold-out and back" || return 1
	lacks out "linode" || return 1
	last="changes --json"
	GPUCMP_NOW=2026-12-02T13:00:00Z g changes --since 1d --json --provider linode
	expect_rc 0 && has out '"change": "back"' && has out '"region": "us-central"' &&
		has out '"was_available": false' || return 1
	lacks out '"change": "available"' || return 1
	last="changes --available (what is in stock now)"
	GPUCMP_NOW=2026-12-02T13:00:00Z g changes --since 1d --available --format csv --provider runpod
	expect_rc 0 && has out "back,runpod" && lacks out "sold-out" || return 1
	last="history runpod (the event's name)"
	GPUCMP_NOW=2026-12-02T13:00:00Z g history runpod "NVIDIA H100 80GB HBM3" --format csv
	expect_rc 0 && has out "US-IL-1,2026-12-02T12:00:00Z,sold-out" &&
		has out "EU-RO-1,2026-12-02T12:00:00Z,back" || return 1
	# three stock events, nothing else: one sold out, two back
	sql_is "SELECT count(*), sum(kind = 16 AND was_available = 1 AND available = 0),
		sum(kind = 16 AND was_available = 0 AND available = 1) FROM history" "3|1|2"
}

# --max-age: a provider refreshed a moment ago is skipped, no request made.
scenario_max_age() {
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	g refresh lambda
	last="refresh --max-age 1h"; g refresh lambda --max-age 1h
	expect_rc 0 && has out "skipped: refreshed" || return 1
	[ "$(grep -c '^GET' "$dir/requests.log")" = 1 ] || fail "a fresh provider was fetched again"
	last="refresh --quiet"; g refresh lambda --quiet
	expect_rc 0 && [ ! -s "$dir/out" ] && [ ! -s "$dir/err" ] || fail "--quiet printed something"
}

# Cron: refresh, refresh with the provider down (stale rows listed as
# such), refresh again once it is back (fresh).
scenario_cron() {
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh 1"; g refresh --quiet lambda
	expect_rc 0 || return 1
	export GPUCMP_LAMBDA_BASE_URL="$DOWN"
	last="refresh 2 (down)"; g refresh --quiet --retries 0 --timeout 2 lambda
	expect_rc 69 && has err "kept its previous offers, marked stale" || return 1
	last="list"; g list --provider lambda --format csv --columns sku,stale
	expect_rc 0 && has out "gpu_1x_a100,true" || return 1
	last="list (table)"; g list --provider lambda
	expect_rc 0 && has err "stale (last refresh failed): lambda" || return 1
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh 3"; g refresh --quiet lambda
	expect_rc 0 || return 1
	g list --provider lambda --format csv --columns sku,stale
	has out "gpu_1x_a100,false" || return 1
	g list --provider lambda
	has err "1 provider refreshed 0 s ago" && lacks err "stale (last refresh failed)" && sql_is "SELECT stale FROM provider_state WHERE provider='lambda'" "0"
}

# Two refreshes at once: the second waits for the lock, then gives up (75).
# The first is then killed in the middle of its fetch: the lock goes with
# it, and the cache is intact.  Driven by a held request, not by timing:
# the first takes the writer lock before it fetches, and the server holds
# its answer (hold=usr1, never signalled), so it holds the lock for as
# long as the scenario needs, however slow the machine.
scenario_lock() {
	server "GET /api/v1/instance-types file=lambda/instance-types.json hold=usr1" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	"$bin" refresh lambda >"$dir/first.out" 2>"$dir/first.err" &
	first=$!
	# its request reached the server: it holds the lock, and keeps it
	fixtured_wait_log "$dir/requests.log" '^GET /api/v1/instance-types' "$first" ||
		fail "the first refresh ended before its fetch: $(cat "$dir/first.err")" || return 1
	last="refresh --wait 0.5"; g refresh lambda --wait 0.5
	kill -0 $first 2>/dev/null || fail "the first refresh ended while its answer was held" ||
		return 1
	kill -9 $first 2>/dev/null
	wait $first 2>/dev/null
	expect_rc 75 && has err "is updating the cache; try again later" || return 1
	sql_is "PRAGMA integrity_check" "ok" || return 1
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh after the kill"; g refresh lambda --wait 0.5
	expect_rc 0 && has out "2 offers"
}

# import: a catalog folder and a single vms.csv over HTTP.
scenario_import() {
	# the fixture catalogs are small: each would shrink a provider the
	# snapshot holds to under 10% of its rows, which is refused (vast, with
	# 11 rows over the snapshot's 64, passes)
	last="import folder (shrinks)"; g import "$here/../fixtures/skypilot"
	expect_rc 65 && has err "lambda/vms.csv: the new data has 6 offers, under 10% of the previous 391" || return 1
	sql_is "SELECT count(*), min(source) FROM offer WHERE provider='lambda'" "391|snapshot" || return 1
	last="import folder --force"; g import --force "$here/../fixtures/skypilot"
	expect_rc 0 && has out "lambda " && has out "offers imported" || return 1
	sql_is "SELECT count(*) > 0, min(source) FROM offer WHERE provider='lambda'" "1|import" || return 1
	server <<EOF || return 1
GET /catalogs/v7/vast/vms.csv file=../skypilot/vast/vms.csv type=text/csv last_modified=Mon,_30_Nov_2026_06:00:00_GMT
EOF
	last="import URL"; g import "$BASE/catalogs/v7/vast/vms.csv"
	expect_rc 0 && has out "vast " || return 1
	# the catalog's date is its Last-Modified, not the time it was fetched
	sql_is "SELECT min(as_of), max(as_of), min(fetched_at) > '2026-12-01' FROM offer WHERE provider='vast'" "2026-11-30T06:00:00Z|2026-11-30T06:00:00Z|1" || return 1
	sql_is "SELECT min(source), max(source), min(origin) LIKE 'http://127.0.0.1:%' FROM offer WHERE provider='vast'" "import|import|1" || return 1
	last="import bad"; g import "$here/../fixtures/profiles/valid.yaml" --provider vast
	[ "$rc" != 0 ] && has err "the cache is unchanged" || fail "a bad catalog was accepted" || return 1
	sql_is "SELECT min(source) FROM offer WHERE provider='vast'" "import"
}

# The plausible-answer rule for import: a catalog with no usable row, or
# one that would shrink Lambda's 391 catalog rows to under 10%, changes
# nothing (exit 65, "the cache is unchanged"), from a file or over HTTP.
scenario_import_implausible() {
	SERVER_ROOT=$dir
	csv="$here/../fixtures/skypilot/lambda/vms.csv"
	head -1 "$csv" >"$dir/header.csv"
	head -c 300 "$csv" >"$dir/cut.csv"                 # cut off inside row 3
	{ head -1 "$csv"; echo "gpu_1x_h100,H100,1"; echo "gpu_8x_h100,H100,8"; } >"$dir/short.csv"
	{ head -1 "$csv"; awk 'BEGIN { for (i = 0; i < 200000; i++) printf "garbage,"; print "" }'; } >"$dir/garbage.csv"
	{ head -1 "$csv"; sed -n 2,3p "$csv"; } >"$dir/one.csv" # rows 2-3: CPU-only
	for f in header cut short garbage one; do
		last="import $f.csv"; g import --provider lambda "$dir/$f.csv"
		expect_rc 65 && has err "$f.csv: " && has err "the cache is unchanged" || return 1
		sql_is "SELECT count(*), min(source), max(stale) FROM offer WHERE provider='lambda'" "391|snapshot|0" || return 1
	done
	has err "no usable offer in the new data" || return 1
	# the fixture's GPU rows alone: a real but small catalog
	{ head -1 "$csv"; grep '^gpu_' "$csv"; } >"$dir/small.csv"
	last="import small.csv"; g import --provider lambda "$dir/small.csv"
	expect_rc 65 && has err "under 10% of the previous 391" || return 1
	sql_is "SELECT count(*), min(source) FROM offer WHERE provider='lambda'" "391|snapshot" || return 1
	server "GET /catalogs/v8/lambda/vms.csv file=header.csv type=text/csv" || return 1
	last="import URL (header only)"; g import "$BASE/catalogs/v8/lambda/vms.csv"
	expect_rc 65 && has err "no usable offer in the new data" || return 1
	sql_is "SELECT count(*), min(source) FROM offer WHERE provider='lambda'" "391|snapshot" || return 1
	# with --force it is stored as it is
	last="import --force header.csv"; g import --force --provider lambda "$dir/header.csv"
	expect_rc 0 && has out "0 offers imported" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='lambda'" "0"
}

# A large import (over 1 MiB, 22,000 rows): parsed on a second thread,
# indexes rebuilt in the transaction; then imported again over itself.
scenario_import_large() {
	awk 'BEGIN { print "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice"
		for (i = 0; i < 22000; i++)
			printf "gpu_%dx_H100_%d,H100,%d,8.0,64.0,%.2f,region-%d,,%.2f\n", 2 ^ (i % 4), i % 50, 2 ^ (i % 4), 2 + (i % 1000) / 100.0, int(i / 50), 1 + (i % 700) / 100.0 }' >"$dir/vms.csv"
	last="import large"; g import "$dir/vms.csv" --provider bigcloud --new-provider
	expect_rc 0 && has out "22000 offers imported" || return 1
	sql_is "SELECT count(*), min(source) FROM offer WHERE provider='bigcloud'" "22000|import" || return 1
	sql_is "SELECT count(*) FROM sqlite_master WHERE type='index' AND tbl_name='offer' AND name LIKE 'offer_%'" "5" || return 1
	last="import large again"; g import "$dir/vms.csv" --provider bigcloud --new-provider
	expect_rc 0 || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='bigcloud'" "22000" || return 1
	sql_is "PRAGMA integrity_check" "ok"
}

# Every adapter at once, each against its own server with its recorded
# responses (tests/fixtures/http/<id>.routes): all updated, offers stored,
# no key anywhere in the output or the cache.
# One fixture server per adapter, its base URL and a key exported (none
# with the argument nokey); stop_adapter_servers ends them.
start_adapter_servers() {
	adapter_pids=""
	for routes in "$fixtures"/*.routes; do
		id=$(basename "$routes" .routes)
		[ "$id" = selftest ] && continue
		rm -f "$dir/$id.port"
		"$fixtured" --routes "$routes" --root "$fixtures/$id" --port-file "$dir/$id.port" \
			--log "$dir/$id.log" 2>"$dir/$id.server.err" &
		adapter_pids="$adapter_pids $!"
		fixtured_wait_port "$dir/$id.port" $! ||
			{ fail "fixture server of $id did not start: $(cat "$dir/$id.server.err")"; return 1; }
		up=$(echo "$id" | tr 'a-z-' 'A-Z_')
		export "GPUCMP_${up}_BASE_URL=http://127.0.0.1:$(cat "$dir/$id.port")"
		case ${1:-}:$id in
		nokey:*) ;;
		*:gcp) export GPUCMP_GCP_API_KEY=fixture-key ;;
		*:verda) export "GPUCMP_VERDA_API_KEY=client-id:$SECRET" ;;
		*) export "GPUCMP_${up}_API_KEY=$SECRET" ;;
		esac
	done
}

stop_adapter_servers() {
	# shellcheck disable=SC2086
	kill $adapter_pids 2>/dev/null; wait $adapter_pids 2>/dev/null
	adapter_pids=""
}

scenario_all_adapters() {
	start_adapter_servers || return 1
	last="refresh --no-catalog --json"; g refresh --no-catalog --json
	stop_adapter_servers
	expect_rc 0 || return 1
	n=$(grep -c '"result": "updated"' "$dir/out")
	want=$(ls "$fixtures"/*.routes | grep -vc selftest)
	[ "$n" = "$want" ] || fail "$n of $want providers updated" || return 1
	sql_is "SELECT count(DISTINCT provider) FROM offer WHERE source = 'live'" "$want" || return 1
	sql_is "SELECT count(*) FROM offer WHERE source = 'live' AND (price_hr IS NULL AND spot_price_hr IS NULL)" "0" || return 1
	# every adapter that reports stock names its signal (struct adapter's stock)
	g list --all-regions --limit 100000 --format csv \
		--columns provider,available,available_source
	has out "scaleway,true,scaleway: /products/servers/availability" && lacks out ": live API" ||
		return 1
	sql_is "SELECT count(DISTINCT provider) FROM offer WHERE source = 'live' AND available IS NOT NULL" "9" || return 1
	no_secret
}

# hostile_variant ID VARIANT: $dir/v/ID holds ID's recorded responses made
# into an implausible answer: "object" (every body is {}), "empty" (every
# array emptied; Lambda's and Scaleway's lists are objects: emptied) or "invalid" (every number, bare or quoted, is -1: no GPU
# count, no price).  An OAuth token response stays as recorded.
hostile_variant() {
	rm -rf "$dir/v/$1"
	mkdir -p "$dir/v/$1"
	for f in "$fixtures/$1"/*.json; do
		out="$dir/v/$1/$(basename "$f")"
		case $1:$(basename "$f"):$2 in
		*:token.json:*) cp "$f" "$out" ;;
		lambda:*:empty) echo '{"data":{}}' >"$out" ;;                   # a map
		scaleway:*:empty) cp "$fixtures/scaleway/empty.json" "$out" ;;  # maps
		*:object) echo '{}' >"$out" ;;
		*:empty) tr -d '\n' <"$f" | sed -e ':a' -e 's/\[[^][]*\]/@E@/g' -e 'ta' -e 's/@E@/[]/g' >"$out" ;;
		*:invalid) sed -E -e 's/(:[[:space:]]*)-?[0-9][0-9.eE+-]*/\1-1/g' \
			-e 's/(:[[:space:]]*)"-?[0-9]+(\.[0-9]+)?"/\1"-1"/g' "$f" >"$out" ;;
		esac
	done
}

# The plausible-answer rule (docs/REFRESH.md), per adapter: after a good
# refresh, an answer of {} objects, of empty lists, or whose every offer is
# invalid is a failure: exit 69, the previous offers kept and marked stale,
# the reason recorded.  --force stores the empty answer.
scenario_implausible() {
	for routes in "$fixtures"/*.routes; do
		id=$(basename "$routes" .routes)
		[ "$id" = selftest ] && continue
		# under valgrind three adapters (one list, one paginated, one
		# joined with a token) keep the run short; the rule is one code path
		case "$wrapper:$id" in :*|*:lambda|*:gcp|*:verda) ;; *) continue ;; esac
		up=$(echo "$id" | tr 'a-z-' 'A-Z_')
		case $id in
		gcp) export GPUCMP_GCP_API_KEY=fixture-key ;;
		verda) export "GPUCMP_VERDA_API_KEY=client-id:$SECRET" ;;
		*) export "GPUCMP_${up}_API_KEY=$SECRET" ;;
		esac
		SERVER_ROOT="$fixtures/$id" server <"$routes" || return 1
		export "GPUCMP_${up}_BASE_URL=$BASE"
		last="refresh $id"; g refresh "$id"
		expect_rc 0 || return 1
		good=$(sql "SELECT count(*) FROM offer WHERE provider='$id'")
		for variant in object empty invalid; do
			hostile_variant "$id" "$variant"
			SERVER_ROOT="$dir/v/$id" server <"$routes" || return 1
			export "GPUCMP_${up}_BASE_URL=$BASE"
			last="refresh $id ($variant)"; g refresh --retries 0 "$id"
			expect_rc 69 && has err "gpucmp: $id: " && has err "kept its previous offers" || return 1
			sql_is "SELECT count(*), min(stale), min(source) FROM offer WHERE provider='$id'" "$good|1|live" || return 1
			sql_is "SELECT stale, last_error IS NOT NULL FROM provider_state WHERE provider='$id'" "1|1" || return 1
			# a body that parses is refused by the rule, not by a parser
			[ "$variant" = object ] || has err "no usable offer in the new data" || return 1
		done
		# all invalid, forced: stored as the empty answer it is
		last="refresh $id --force"; g refresh --force "$id"
		expect_rc 0 || return 1
		sql_is "SELECT count(*) FROM offer WHERE provider='$id'" "0" || return 1
		sql_is "SELECT stale FROM provider_state WHERE provider='$id'" "0" || return 1
	done
}

# --cuda on live offers that report their driver (vast: driver 535.183.01,
# max CUDA 12.2): 12.2 runs, 12.4 does not, and the reason shows.
scenario_cuda_live() {
	server "POST /api/v0/bundles/ file=vast/bundles.json" || return 1
	export GPUCMP_VAST_BASE_URL="$BASE"
	g refresh vast
	expect_rc 0 || return 1
	last="list --cuda 12.2"; g list --provider vast --cuda 12.2 --format csv --columns sku,driver_version,max_cuda,cuda_ok
	expect_rc 0 && has out ",535.183.01,12.2,true" || return 1
	last="list --cuda 12.4"; g list --provider vast --cuda 12.4 --format csv --columns sku,cuda_ok
	expect_rc 0 && lacks out "true" && lacks out "false" || return 1
	last="list --where cuda_ok"; g list --provider vast --cuda 11.8 --where 'cuda_ok and max_cuda = "12.2"' --format csv --columns sku,cuda_ok
	expect_rc 0 && has out ",true"
}

# --- secrets -----------------------------------------------------------------

# The leak check itself: it must see the key in a text file, in the cache
# (a binary SQLite file) and in what g records; otherwise every "no leak"
# above would pass vacuously.
scenario_leak_check_selftest() {
	printf 'before %s after\n' "$SECRET" >"$dir/probe"
	! leak_check "$dir/probe" >/dev/null || fail "leak_check missed the key in a file" || return 1
	leak_check "$dir/routes-none" "$template" >/dev/null || fail "leak_check saw a key in a clean cache" || return 1
	last="list --provider KEY"; g list --provider "$SECRET"
	[ -s "$dir/leaks" ] || fail "g did not notice the key echoed on stderr" || return 1
	rm -f "$dir/leaks"
	sql "CREATE TABLE probe(x); INSERT INTO probe VALUES('$SECRET');"
	! leak_check "$GPUCMP_CACHE" "$GPUCMP_CACHE-wal" >/dev/null || fail "leak_check missed the key in the cache" || return 1
	g --version
	[ -s "$dir/leaks" ] || fail "g did not notice the key in the cache" || return 1
	rm -f "$dir/leaks" "$dir/leaked.err"
}

# --verbose: one line per attempt (method, URL, status, bytes, time, the
# retry decision) and a per-provider summary; never a header or the key.
# (The failing runs with the catalog tier off: the live API's lines alone.)
scenario_verbose() {
	server "$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh -v lambda"; g refresh -v lambda
	expect_rc 0 && has out "2 offers" || return 1
	has err "gpucmp: lambda: GET $BASE/api/v1/instance-types: HTTP 200, " || return 1
	has err " bytes, " && has err "attempt 1" || return 1
	has err "lambda: 2 offers parsed, 2 kept, 0 dropped" || return 1
	lacks err "Authorization" && lacks err "Bearer" || return 1
	server <<EOF || return 1
GET /api/v1/instance-types status=503 body={"error":"busy"}
EOF
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh --verbose --retries 1 (503)"; g refresh --no-catalog --verbose --retries 1 lambda
	expect_rc 69 || return 1
	has err "HTTP 503, 16 bytes" && has err "attempt 1; retrying in " || return 1
	has err "attempt 2; giving up after 2 attempts" || return 1
	[ "$(grep -c 'lambda: GET' "$dir/err")" = 2 ] || fail "want one line per attempt" || return 1
	last="refresh --quiet -v"; g refresh --no-catalog --quiet -v --retries 0 lambda
	has err "attempt 1; giving up" || return 1
	last="list -v"; g list -v
	expect_rc 64 && has err "'--verbose' does not apply to 'list'"
}

# A key that goes in the query string (GCP: ?key=): masked in --verbose
# lines and in curl's own error text, sent all the same.  RunPod, which
# took ?api_key= before, now sends "Authorization: Bearer" (as its SDK and
# CLI do) and nothing in the query.
scenario_key_in_query() {
	token=APKCS1HVa0YpwgyTFbqbJ1eGwzKZmsPwLqzMZPTSNia5ck1Hc54Tx_Kz3oBxwSnRIdGVxXoSPdf-XlDpyNBf4QuxKcIEgtrQ1LDLWAgZowI0ns7HjrGta2s%3D
	server "GET /v1/services/6F81-5844-456A/skus?pageSize=5000&pageToken=$token&key=$SECRET file=gcp/skus-page2.json
GET /v1/services/6F81-5844-456A/skus file=gcp/skus-page1.json" || return 1
	export GPUCMP_GCP_BASE_URL="$BASE" GPUCMP_GCP_API_KEY="$SECRET"
	last="refresh -v gcp"; g refresh -v gcp
	expect_rc 0 && has err "gcp: GET $BASE/v1/services/6F81-5844-456A/skus?pageSize=5000&key=***: HTTP 200" || return 1
	has requests.log "GET /v1/services/6F81-5844-456A/skus?pageSize=5000&key=$SECRET" || return 1
	BASE=$DOWN # nothing listens there: curl's error text
	export GPUCMP_GCP_BASE_URL="$BASE"
	# then the catalogs (down too): the key goes to neither, nor into the message
	last="refresh -v gcp (refused)"; g refresh -v --retries 1 gcp
	expect_rc 69 && has err "gcp: live: $BASE/v1/services/6F81-5844-456A/skus" && has err "key=***: failed: " || return 1
	has err "; skypilot: $DOWN/v8/gcp/vms.csv: " && has err "GET $DOWN/v8/gcp/vms.csv: failed" || return 1
	has err "kept its previous offers" && no_secret || return 1
	server "POST /graphql file=runpod/gpu-types-dc.json" || return 1
	export GPUCMP_RUNPOD_BASE_URL="$BASE" GPUCMP_RUNPOD_API_KEY="$SECRET"
	last="refresh -v runpod"; g refresh -v runpod
	expect_rc 0 && has err "runpod: POST $BASE/graphql: HTTP 200" || return 1
	has requests.log "POST /graphql" && has requests.log "Authorization: Bearer $SECRET" || return 1
	lacks requests.log "api_key" || return 1
	sql_is "SELECT group_concat(region || ':' || available, ' ') FROM (SELECT region, available FROM offer WHERE provider='runpod' AND sku='NVIDIA H100 80GB HBM3' ORDER BY region)" "EU-RO-1:0 US-IL-1:1" || return 1
	no_secret
}

# Userinfo in a base URL (GPUCMP_<ID>_BASE_URL=http://user:KEY@host) and a
# credential in an import URL: masked in messages, --verbose and the
# offers' origin in the cache.
scenario_url_credentials() {
	server "GET /api/v1/instance-types status=500 body={}" || return 1
	port=${BASE##*:}
	export GPUCMP_LAMBDA_BASE_URL="http://me:$SECRET@127.0.0.1:$port" GPUCMP_LAMBDA_API_KEY=other-key
	last="refresh (userinfo, 500)"; g refresh -v --retries 0 lambda
	expect_rc 69 && has err "http://***@127.0.0.1:$port/api/v1/instance-types: HTTP 500" || return 1
	server "$LAMBDA_OK" || return 1
	port=${BASE##*:}
	export GPUCMP_LAMBDA_BASE_URL="http://me:$SECRET@127.0.0.1:$port"
	last="refresh (userinfo)"; g refresh -v lambda
	expect_rc 0 && has out "2 offers" || return 1
	sql_is "SELECT DISTINCT origin FROM offer WHERE provider='lambda'" "http://***@127.0.0.1:$port/api/v1/instance-types" || return 1
	server <<EOF || return 1
GET /catalogs/v7/vast/vms.csv file=../skypilot/vast/vms.csv type=text/csv
EOF
	port=${BASE##*:}
	last="import URL with credentials"; g import -v "http://me:$SECRET@127.0.0.1:$port/catalogs/v7/vast/vms.csv?token=$SECRET&v=7"
	expect_rc 0 && has out "vast " && has err "import: GET http://***@127.0.0.1:$port/catalogs/v7/vast/vms.csv?token=***&v=7: HTTP 200" || return 1
	sql_is "SELECT DISTINCT origin FROM offer WHERE provider='vast'" "http://***@127.0.0.1:$port/catalogs/v7/vast/vms.csv?token=***&v=7" || return 1
	last="import URL (404)"; g import --provider vast "http://me:$SECRET@127.0.0.1:$port/nothing/vms.csv?api_key=$SECRET"
	[ "$rc" != 0 ] && has err "http://***@127.0.0.1:$port/nothing/vms.csv: HTTP 404"
}

# 401 and 403 whose bodies quote the request headers, key included: the
# body is never shown, the status is.  The same text in a 200 that an
# adapter reads as the API's error (RunPod's GraphQL "errors"): shown
# cleaned, the key masked even where the 200-byte cut falls inside it.
scenario_auth_echo() {
	server "GET /api/v1/instance-types status=401 file=hostile/lambda-401.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (401)"; g refresh -v --retries 0 lambda
	expect_rc 69 && has err "instance-types: HTTP 401" && lacks err "sk-test" || return 1
	server "GET /api/v1/instance-types status=403 file=hostile/lambda-401.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh (403)"; g refresh -v --retries 0 lambda
	expect_rc 69 && has err "HTTP 403" || return 1
	last="cache status"; g cache status --json
	expect_rc 0 && has out "HTTP 403" || return 1
	server "POST /graphql file=hostile/runpod-errors.json" || return 1
	export GPUCMP_RUNPOD_BASE_URL="$BASE" GPUCMP_RUNPOD_API_KEY="$SECRET"
	last="refresh (GraphQL error)"; g refresh -v --retries 0 runpod
	expect_rc 69 && has err "RunPod GraphQL error: Unauthorized ?]8;;http://evil.example/?click" || return 1
	# the live failure, cut and cleaned, then its catalogs' (down here)
	has err " ...; skypilot: $DOWN/v8/runpod/vms.csv: " && has err "; kept its previous offers" || return 1
	lacks err "sk-test" && no_controls err || return 1
	sql_is "SELECT instr(last_error, char(27)) + instr(last_error, 'sk-test') FROM provider_state WHERE provider='runpod'" "0" || return 1
	last="cache status"; g cache status
	expect_rc 0 && no_controls out
}

# A key in the config file (its permission check: scenario_config_file):
# `config show` as text and JSON, and a --verbose refresh using the key;
# the key is in none of their outputs (g checks every run).
scenario_config_secrets() {
	server "$LAMBDA_OK" || return 1
	mkdir -p "$XDG_CONFIG_HOME/gpucmp"
	cfg=$XDG_CONFIG_HOME/gpucmp/config.yaml
	printf 'provider:\n  lambda:\n    base_url: %s\n    api_key: %s\n' "$BASE" "$SECRET" >"$cfg"
	chmod 600 "$cfg"
	last="config show"; g config show
	expect_rc 0 && has out "api_key: (redacted)" || return 1
	last="config show --json"; g config show --json
	expect_rc 0 && has out "lambda" || return 1
	last="refresh -v (key from the config)"; g refresh -v lambda
	expect_rc 0 && has out "2 offers" && has err "lambda: GET $BASE/api/v1/instance-types: HTTP 200" || return 1
	has requests.log "Authorization: Bearer $SECRET"
}

# --- hostile responses ------------------------------------------------------

# 100,000 nested '[' (and '{'): jansson's depth limit makes it a clean
# per-provider failure, never a stack overflow; other providers go on.
scenario_hostile_nesting() {
	SERVER_ROOT=$dir
	awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; print "" }' >"$dir/arrays.json"
	awk 'BEGIN { printf "{\"data\":"; for (i = 0; i < 100000; i++) printf "{\"a\":"; print "1" }' >"$dir/objects.json"
	cp "$fixtures/linode/types.json" "$fixtures/linode/types-page2.json" "$fixtures/linode/availability.json" \
		"$fixtures/linode/availability-page2.json" "$dir/"
	server "GET /api/v1/instance-types file=arrays.json
GET /v4/linode/types?page=2 file=types-page2.json
GET /v4/linode/types file=types.json
GET /v4/regions/availability?page=2 file=availability-page2.json
GET /v4/regions/availability file=availability.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET" GPUCMP_LINODE_BASE_URL="$BASE"
	last="refresh (deep arrays)"; g refresh --retries 0 lambda linode
	expect_rc 75 && has err "lambda: " && has err "not valid JSON: maximum parsing depth reached" || return 1
	has out "linode " || return 1
	server "GET /api/v1/instance-types file=objects.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh (deep objects)"; g refresh --retries 0 lambda
	expect_rc 69 && has err "maximum parsing depth reached" || return 1
	sql_is "PRAGMA integrity_check" "ok"
}

# Huge numbers, NaN, Infinity, negative and zero prices: the offer is
# dropped (a price that is not > 0, finite and at most 10,000 $/h is no
# price; a GPU count beyond 4096 is a bad number); sizes out of range become
# unknown.  A number beyond a double (1e400) makes the document invalid.
scenario_hostile_numbers() {
	server "GET /api/v1/instance-types file=hostile/lambda-numbers.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (numbers)"; g refresh -v lambda
	expect_rc 0 && has out "lambda         1 offers" || return 1
	has err "lambda: 7 offers parsed, 1 kept, 6 dropped (0 not a GPU offer, 1 bad number, 2 no price, 3 bad price" || return 1
	sql_is "SELECT sku, price_hr, vcpus IS NULL, ram_gb IS NULL, disk_gb IS NULL FROM offer WHERE provider='lambda'" "gpu_1x_a100|0.8|1|1|1" || return 1
	sql_is "SELECT count(*) FROM offer WHERE price_hr < 0 OR spot_price_hr < 0 OR price_hr != price_hr OR price_hr > 10000 OR gpu_count > 4096" "0" || return 1
	last="list --json"; g list --provider lambda --json
	expect_rc 0 && has out '"price_hr":0.8' && lacks out "NaN" && lacks out "Infinity" || return 1
	server "GET /api/v1/instance-types file=hostile/lambda-overflow.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh (1e400)"; g refresh --retries 0 lambda
	expect_rc 69 && has err "not valid JSON: real number overflow" || return 1
	sql_is "SELECT count(*), min(stale) FROM offer WHERE provider='lambda'" "1|1"
}

# Control characters and terminal escapes (ESC sequences, OSC, BEL, CR LF,
# the C1 CSI U+009B) in sku, region and GPU name: replaced by '?' when the
# offer is made, so the cache never holds them, and no output shows them.
scenario_hostile_strings() {
	server "GET /api/v1/instance-types file=hostile/lambda-escapes.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (escapes)"; g refresh -v lambda
	expect_rc 0 && has out "2 offers" && has err "2 with control characters replaced" || return 1
	no_controls err || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='lambda' AND (instr(sku || region || gpu_name, char(27)) OR instr(sku || region || gpu_name, char(7)) OR instr(sku || region || gpu_name, char(13)) OR instr(sku || region || gpu_name, char(10)) OR instr(sku || region || gpu_name, char(155)))" "0" || return 1
	sql_is "SELECT sku || '|' || region FROM offer WHERE provider='lambda' AND sku LIKE 'gpu_1x_a100%'" "gpu_1x_a100?]0;owned?|us-tx-1?[31m??INJECTED" || return 1
	sql_is "SELECT gpu_name FROM offer WHERE sku='gpu_1x_zorblax'" "Zorblax?31m Z9000" || return 1
	for fmt in table csv json ndjson; do
		last="list --format $fmt"; g list --provider lambda --format "$fmt" --columns sku,region,gpu,gpu_name
		expect_rc 0 && no_controls out || return 1
	done
	[ "$(wc -l <"$dir/out")" = 2 ] || fail "ndjson: want 2 lines" || return 1
	g list --provider lambda --format csv --columns sku,region
	[ "$(wc -l <"$dir/out")" = 3 ] || fail "csv: a control character broke a row" || return 1
	last="list --color always"; COLUMNS=200 g list --provider lambda --color always
	expect_rc 0 && no_controls_but_sgr out
}
# Like no_controls, but the colour codes gpucmp writes itself are allowed.
no_controls_but_sgr() {
	sed 's/\x1b\[[0-9;]*m//g' "$dir/$1" >"$dir/$1.nosgr"
	no_controls "$1.nosgr"
}

# The same offer twice in one response (a region listed twice, an entry
# repeated under another key) is stored once; an offer that differs in
# anything (here the price) is kept beside it.
scenario_hostile_duplicates() {
	server "GET /api/v1/instance-types file=hostile/lambda-duplicates.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (duplicates)"; g refresh -v lambda
	expect_rc 0 && has out "lambda         2 offers" || return 1
	has err "4 offers parsed, 2 kept, 2 dropped (" && has err "2 duplicate)" || return 1
	sql_is "SELECT group_concat(price_hr, ',') FROM (SELECT price_hr FROM offer WHERE provider='lambda' ORDER BY id)" "0.8,0.75"
}

# A GPU the model table does not know: kept, flagged gpu_known false, the
# provider's own name preserved (never renamed to a near match).
scenario_hostile_unknown_gpu() {
	server "GET /api/v1/instance-types file=hostile/lambda-unknown-gpu.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (unknown GPU)"; g refresh lambda
	expect_rc 0 && has out "1 offers" && has out "1 with a GPU gpucmp does not know" || return 1
	sql_is "SELECT gpu IS NULL, gpu_name, gpu_count FROM offer WHERE provider='lambda'" "1|Zorblax ZX9000|2.0" || return 1
	last="list --json"; g list --provider lambda --json --columns sku,gpu,gpu_name,gpu_known
	expect_rc 0 && has out '"gpu":"Zorblax ZX9000"' && has out '"gpu_known":false' || return 1
	last="refresh --json"; g refresh lambda --json
	has out '"unknown_gpu": 1'
}

# Redirects: followed (up to 5) when the request carries no key; a loop is
# a clean failure.  (With a key: scenario_redirect_with_key.)
scenario_hostile_redirect() {
	server "GET /v4/linode/types?page=2 file=linode/types-page2.json
GET /v4/linode/types status=301 header=Location:/v4/linode/moved body={}
GET /v4/linode/moved file=linode/types.json
GET /v4/regions/availability?page=2 file=linode/availability-page2.json
GET /v4/regions/availability file=linode/availability.json" || return 1
	export GPUCMP_LINODE_BASE_URL="$BASE"
	last="refresh (301)"; g refresh -v linode
	expect_rc 0 && has out "linode " && has err "linode: GET $BASE/v4/linode/types: HTTP 200" || return 1
	grep -q '^GET /v4/linode/moved' "$dir/requests.log" || fail "the redirect was not followed" || return 1
	server "GET /v4/linode/types status=302 header=Location:/v4/linode/types body={}" || return 1
	export GPUCMP_LINODE_BASE_URL="$BASE"
	last="refresh (loop)"; g refresh linode
	expect_rc 69 && has err "linode: " && has err "redirects" || return 1
	[ "$(grep -c '^GET' "$dir/requests.log")" -le 7 ] || fail "the loop was followed too far"
}

# The config file gives refresh its providers (no IDs), base_url and
# api_key: refused while others can read it (nothing sent), then used once
# it is chmod 600; the key reaches the server in its header and nowhere
# else; an environment variable still wins over the file.
scenario_config_file() {
	server "$LAMBDA_OK" || return 1
	cfg="$XDG_CONFIG_HOME/gpucmp/config.yaml"
	mkdir -p "$XDG_CONFIG_HOME/gpucmp"
	printf 'providers: [lambda]\nprovider:\n  lambda:\n    base_url: %s\n    api_key: %s\n' \
		"$BASE" "$SECRET" >"$cfg"
	chmod 644 "$cfg"
	last="refresh (config readable by others)"; g refresh
	expect_rc 78 && has err "holds API keys but is readable by other users; run: chmod 600 $cfg" || return 1
	[ ! -s "$dir/requests.log" ] || fail "a request was made with an unsafe config" || return 1
	chmod 600 "$cfg"
	last="refresh (config)"; g refresh
	expect_rc 0 && has out "2 offers" || return 1
	[ "$(grep -c . "$dir/out")" = 1 ] || fail "refresh fetched more than the config's providers" || return 1
	has requests.log "Authorization: Bearer $SECRET" || return 1
	sql_is "SELECT count(*), min(source) FROM offer WHERE provider='lambda'" "2|live" || return 1
	last="config show"; g config show
	expect_rc 0 && has out "api_key: (redacted)  # config" && has out "base_url: $BASE  # config" || return 1
	export GPUCMP_LAMBDA_API_KEY=env-key-5b1d
	last="refresh (env key)"; g refresh lambda
	expect_rc 0 && has requests.log "Authorization: Bearer env-key-5b1d" || return 1
	no_secret
}

# --- hostile providers: budgets, deadlines, validators, key echoes ----------

# A 200 body that echoes the key and is cut off inside it: the JSON error
# says where and what, never quoting the body, and no run of 8 characters
# of the key reaches stderr or the cache's recorded error.
scenario_hostile_key_echo() {
	server "GET /api/v1/instance-types file=hostile/lambda-key-echo.json truncate=138" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (key echo cut inside the key)"; g refresh --retries 0 lambda
	part=$(printf '%s' "$SECRET" | cut -c5-12)  # 8 characters from inside the key
	expect_rc 69 && lacks err "$part" && lacks err "sk-test-7f3a" || return 1
	has err "not valid JSON: premature end of input at line 1, column" || return 1
	sql_is "SELECT count(*) FROM provider_state WHERE last_error LIKE '%$part%' OR last_error LIKE '%7f3a9c%'" "0" || return 1
	sql_is "SELECT count(*) FROM provider_state WHERE provider='lambda' AND last_error LIKE '%not valid JSON%'" "1"
}

# A 304 to a request that carried no validator (after a failed refresh
# gpucmp sends none) is an error: the offers stay stale with their error.
scenario_hostile_unsolicited_304() {
	server "GET /api/v1/instance-types status=500 body={}" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (500)"; g refresh lambda --retries 0
	expect_rc 69 || return 1
	before=$(sql "SELECT ifnull(fetched_at, '-') FROM provider_state WHERE provider='lambda'")
	server "GET /api/v1/instance-types status=304" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh (unsolicited 304)"; g refresh --retries 0 lambda
	expect_rc 69 && has err "304" && lacks out "unchanged" || return 1
	lacks requests.log "If-None-Match" || return 1
	sql_is "SELECT min(stale) FROM offer WHERE provider='lambda'" "1" || return 1
	sql_is "SELECT stale, last_error IS NOT NULL, ifnull(fetched_at, '-') = '$before' FROM provider_state WHERE provider='lambda'" "1|1|1"
}

# An ETag holding a bare CR (from a cache an older gpucmp wrote) never adds a
# header line to the next request: an unclean validator is not sent.
scenario_hostile_etag_cr() {
	server "GET /api/v1/instance-types file=lambda/instance-types.json etag=v1" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	g refresh lambda
	expect_rc 0 || return 1
	sql "UPDATE provider_state SET etag = '\"v1\"' || char(13) || 'X-Injected: 1', last_modified = 'Wed' || char(13) || 'X-Also: 2' WHERE provider='lambda'" || return 1
	: >"$dir/requests.log"
	last="refresh (etag with CR)"; g refresh lambda
	expect_rc 0 || return 1
	lacks requests.log "X-Injected" && lacks requests.log "X-Also" && lacks requests.log "If-None-Match" || return 1
	sql_is "SELECT count(*) FROM provider_state WHERE instr(etag, char(13)) OR instr(last_modified, char(13))" "0"
}

# An ETag and a Last-Modified that echo the key are dropped, not stored
# masked (a masked ETag matches nothing): the cache never holds the key
# (g checks it after every run) and the next refresh asks without them.
# One that an older gpucmp stored is not sent back, so the answer's
# validators replace it instead of a 304 keeping it for ever.
scenario_hostile_etag_key() {
	server "GET /api/v1/instance-types file=lambda/instance-types.json etag=v1-$SECRET last_modified=x-$SECRET" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (validators echoing the key)"; g refresh lambda
	expect_rc 0 || return 1
	sql_is "SELECT etag IS NULL, last_modified IS NULL FROM provider_state WHERE provider='lambda'" "1|1" || return 1
	: >"$dir/requests.log"
	last="refresh (again)"; g refresh lambda
	expect_rc 0 && lacks out "unchanged" && lacks requests.log "If-None-Match" || return 1
	lacks requests.log "If-Modified-Since" || return 1
	# a cache an older gpucmp wrote; run without g: the key's bytes may stay
	# in the file's free space, which is not what this checks
	sql "UPDATE provider_state SET etag = '\"v1-$SECRET\"' WHERE provider='lambda'" || return 1
	: >"$dir/requests.log"
	last="refresh (a stored etag holding the key)"
	"$bin" refresh lambda >"$dir/out" 2>"$dir/err"
	rc=$?
	expect_rc 0 && lacks requests.log "If-None-Match" || return 1
	sql_is "SELECT etag IS NULL FROM provider_state WHERE provider='lambda'" "1"
}

# --deadline bounds a provider's whole refresh: a body trickled at 1 byte
# per second, a Retry-After longer than the deadline, a pagination whose
# every page comes well within --timeout.  `timeout` turns a hang into a
# failure; no duration is asserted (each outcome holds on a machine of any
# speed: the body takes hours, the Retry-After is ten deadlines, a page
# 0.8 s at least).
scenario_hostile_deadline() {
	wrapper="timeout 300 $wrapper"  # a hang fails the scenario (exit 124)
	server "GET /api/v1/instance-types file=lambda/instance-types.json trickle_ms=1000" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	last="refresh (trickle)"; g refresh lambda --timeout 5 --deadline 2
	expect_rc 69 && has err "lambda: " && has err "deadline of 2 s" && has err "--deadline" || return 1
	sql_is "SELECT min(stale) FROM offer WHERE provider='lambda'" "1" || return 1
	server "GET /api/v1/instance-types status=503 header=Retry-After:20 body={}" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh (Retry-After past the deadline)"; g refresh lambda --retries 3 --deadline 2
	expect_rc 69 && has err "deadline" || return 1
	[ "$(grep -c '^GET' "$dir/requests.log")" -le 1 ] || fail "a retry started past the deadline" || return 1
	sed 's/"pages": 2/"pages": 1000/' "$fixtures/linode/types.json" >"$dir/endless.json"
	SERVER_ROOT=$dir server "GET /v4/linode/types file=endless.json delay_ms=800" || return 1
	export GPUCMP_LINODE_BASE_URL="$BASE"
	last="refresh (1000 slow pages)"; g refresh linode --timeout 60 --deadline 3
	expect_rc 69 && has err "linode: " && has err "deadline of 3 s" || return 1
	[ "$(grep -c '^GET /v4' "$dir/requests.log")" -lt 10 ] || fail "pages went on past the deadline"
}

# Caps per provider: offers (GPUCMP_REFRESH_MAX_OFFERS), bytes received in
# one crawl (GPUCMP_REFRESH_MAX_BYTES) and JSON values in one document
# (GPUCMP_REFRESH_MAX_JSON_VALUES, a pre-scan before jansson allocates):
# each a failure of that provider naming the cap and how to raise it.
scenario_hostile_caps() {
	server "GET /v4/linode/types?page=2 file=linode/types-page2.json
GET /v4/linode/types file=linode/types.json
$LAMBDA_OK" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET" GPUCMP_LINODE_BASE_URL="$BASE"
	last="refresh (max offers 1)"; GPUCMP_REFRESH_MAX_OFFERS=1 g refresh --retries 0 lambda
	expect_rc 69 && has err "more than 1 offers" && has err "GPUCMP_REFRESH_MAX_OFFERS" || return 1
	sql_is "SELECT min(stale), min(source) FROM offer WHERE provider='lambda'" "1|snapshot" || return 1
	last="refresh (max bytes)"; GPUCMP_REFRESH_MAX_BYTES=1500 g refresh --retries 0 linode lambda
	expect_rc 75 && has err "linode: " && has err "more than 1500 bytes" && has err "GPUCMP_REFRESH_MAX_BYTES" || return 1
	has out "lambda " || return 1
	awk 'BEGIN { printf "["; for (i = 0; i < 1100000; i++) printf "{},"; print "{}]" }' >"$dir/empties.json"
	SERVER_ROOT=$dir server "GET /api/v1/instance-types file=empties.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE"
	last="refresh (1.1 million empty objects)"; g refresh --retries 0 lambda
	expect_rc 69 && has err "too many JSON values" && has err "GPUCMP_REFRESH_MAX_JSON_VALUES" || return 1
	sql_is "SELECT min(stale) FROM offer WHERE provider='lambda'" "1"
}

# --- hosted catalogs (SkyPilot, gpuhunt) as a refresh tier -------------------
# Real SkyPilot files trimmed, gpuhunt zips built here from constructed CSVs
# (tests/fixtures/catalogs/README.md).

catalogs=$(cd "$here/../fixtures/catalogs" && pwd)
mkzip=$(dirname "$fixtured")/gpucmp-mkzip
CAT_LM=Tue,_01_Dec_2026_10:00:00_GMT
CAT_ASOF=2026-12-01T10:00:00Z
CAT_CLOUDS="aws azure cudo daytona gcp hyperbolic lambda lium mithril nebius oci primeintellect runpod
seeweb shadeform spheron vast verda yotta hyperstack jarvislabs"

# catalog_root: $SERVER_ROOT with the SkyPilot files and gpuhunt zips
catalog_root() {
	SERVER_ROOT="$dir/root"
	mkdir -p "$SERVER_ROOT/gh/verda/20261130-3" "$SERVER_ROOT/gh/azure/20261201-7"
	cp -r "$catalogs/skypilot" "$SERVER_ROOT/sky"
	mkdir -p "$SERVER_ROOT/gh/cloudrift/20261201-2"
	"$mkzip" "$SERVER_ROOT/gh/cloudrift/20261201-2/catalog.zip" cloudrift.csv \
		"$catalogs/gpuhunt/cloudrift.csv" || fail "gpucmp-mkzip failed" || return 1
	"$mkzip" "$SERVER_ROOT/gh/verda/20261130-3/catalog.zip" verda.csv "$catalogs/gpuhunt/verda.csv" &&
		"$mkzip" "$SERVER_ROOT/gh/azure/20261201-7/catalog.zip" azure.csv "$catalogs/gpuhunt/azure.csv" ||
		fail "gpucmp-mkzip failed"
}

# catalog_routes: one route per SkyPilot cloud, validators on each
catalog_routes() {
	for c in $CAT_CLOUDS; do
		echo "GET /v8/$c/vms.csv file=sky/$c/vms.csv type=text/plain etag=$c-1 last_modified=$CAT_LM"
	done
}

catalog_env() {
	export GPUCMP_SKYPILOT_CATALOG_URL="$BASE/v8" GPUCMP_GPUHUNT_CATALOG_URL="$BASE/v3"
}

# Providers without a live adapter, or whose adapter needs a key that is not
# set, are priced from the SkyPilot catalog: source catalog, as_of its
# Last-Modified, fetched concurrently with the others.
scenario_catalog_tier() {
	catalog_root || return 1
	catalog_routes >"$dir/cat.routes" && server <"$dir/cat.routes" || return 1
	catalog_env
	# (--force: the trimmed files are far smaller than the snapshot's rows)
	last="refresh -v --force aws gcp lambda nebius seeweb hyperbolic mithril"
	g refresh -v --force aws gcp lambda nebius seeweb hyperbolic mithril
	expect_rc 0 && has out "aws" && has out "skypilot catalog" || return 1
	has err "aws: from the skypilot catalog (no live price API in gpucmp)" || return 1
	has err "lambda: from the skypilot catalog (needs an API key: set GPUCMP_LAMBDA_API_KEY" || return 1
	for p in aws gcp lambda nebius seeweb hyperbolic mithril; do
		n=$(sql "SELECT count(*) FROM offer WHERE provider='$p'")
		[ "$n" -gt 0 ] || fail "$p has no offers" || return 1
		sql_is "SELECT count(*) FROM offer WHERE provider='$p' AND (source <> 'catalog' OR as_of IS NOT '$CAT_ASOF')" "0" || return 1
		has requests.log "GET /v8/$p/vms.csv" || return 1
	done
	# real rows: AWS g6.24xlarge in us-east-1 (its zones folded into one
	# offer, spot the lowest of them: use1-az2's, not the first zone's
	# 2.7197), GCP's accelerator row paired with its host VM
	sql_is "SELECT price_hr, spot_price_hr, gpu_count FROM offer WHERE provider='aws' AND sku='g6.24xlarge' AND region='us-east-1'" "6.6752|2.5244|4.0" || return 1
	# p5.48xlarge us-east-1: six regular zones asking 55.04 (the on-demand
	# price, no spot), 47.2054, 14.582, 55.04, 14.246, 14.8686: spot is
	# use1-az5's 14.246 (docs/CATALOGS.md, "Zones")
	sql_is "SELECT price_hr, spot_price_hr FROM offer WHERE provider='aws' AND sku='p5.48xlarge' AND region='us-east-1'" "55.04|14.246" || return 1
	# GCP A4: the host VM a4-highgpu-8g priced $0.0, so no offer (a GPU-only
	# price is not the VM's), and the verbose summary says so
	sql_is "SELECT count(*) FROM offer WHERE provider='gcp' AND sku='a4-highgpu-8g'" "0" || return 1
	has err "gcp: 0 zone rows folded into their region's offer (lowest price of its regular zones), 0 Local or Wavelength Zone rows left out, 2 GPU rows left out whose host VM is priced \$0 or not at all" || return 1
	has err "aws: 10 zone rows folded" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='gcp' AND sku='a2-highgpu-1g' AND region='us-central1'" "1" || return 1
	sql_is "SELECT source, stale, last_error IS NULL FROM provider_state WHERE provider='aws'" "catalog|0|1" || return 1
	last="list --provider aws"; g list --provider aws --json
	expect_rc 0 && has out '"source":"catalog"' && has out "\"as_of\":\"$CAT_ASOF\"" || return 1
}

# as_of is the date of the data, never the fetch's. A catalog served without
# Last-Modified (GitHub's raw URL sends none) is of unknown age: as_of null
# and stale in JSON, CSV, cache status and recommend.
# It fills a provider the cache has no offers of (aws), but never replaces
# dated ones (nebius's snapshot rows, 2026-05-20): refresh says it kept
# them. A dated catalog (the S3 mirror's Last-Modified) newer than them
# replaces them; an older one does not.
scenario_catalog_undated() {
	catalog_root || return 1
	server <<EOF || return 1
GET /v8/aws/vms.csv file=sky/aws/vms.csv type=text/plain
GET /v8/nebius/vms.csv file=sky/nebius/vms.csv type=text/plain
GET /v8/jarvislabs/vms.csv file=sky/jarvislabs/vms.csv type=text/plain
EOF
	catalog_env
	last="refresh aws nebius jarvislabs (no Last-Modified)"; g refresh --force aws nebius jarvislabs
	expect_rc 0 && has out "nebius         kept its 21 dated offers: the skypilot catalog is undated or older" || return 1
	# JarvisLabs' list price (H100 $2.69, checked 2026-09-20) stays
	has out "jarvislabs     kept its 4 dated offers" || return 1
	sql_is "SELECT min(source), max(source) FROM offer WHERE provider='jarvislabs'" "list|list" || return 1
	sql_is "SELECT count(*) > 0, count(as_of) FROM offer WHERE provider='aws'" "1|0" || return 1
	sql_is "SELECT min(source), count(*), max(as_of) FROM offer WHERE provider='nebius'" "snapshot|21|2026-05-20T00:00:00Z" || return 1
	last="list --provider aws --json"; g list --provider aws --all-regions --json
	expect_rc 0 && has out '"as_of":null' && has out '"stale":true' && lacks out '"stale":false' || return 1
	last="list --provider aws (table footer)"; g list --provider aws
	expect_rc 0 && has err "offers of unknown date" && has err "is stale: run 'gpucmp refresh'" || return 1
	last="list --provider aws --format csv"; g list --provider aws --all-regions --format csv --columns provider,as_of,stale
	expect_rc 0 && has out "aws,,true" && lacks out ",false" || return 1
	last="recommend --json (aws only)"; g recommend --workload inference --provider aws --gpus 1 --json
	expect_rc 0 && has out '"as_of": null' && lacks out '"stale": false' || return 1
	last="cache status --json"; g cache status --json
	grep -A8 '"provider": "aws"' "$dir/out" >"$dir/aws.json"
	has aws.json '"as_of": null' && has aws.json '"age_seconds": null' && has aws.json '"stale": true' || return 1
	last="cache status"; g cache status
	grep -q '^aws .* unknown  stale' "$dir/out" || fail "cache status table: aws AGE is not 'unknown'" || return 1
	stop_server
	server <<EOF || return 1
GET /v8/nebius/vms.csv file=sky/nebius/vms.csv type=text/plain last_modified=Thu,_01_Jan_2026_00:00:00_GMT
EOF
	catalog_env
	last="refresh nebius (dated 2026-01-01, older)"; g refresh --force nebius
	expect_rc 0 && has out "kept its 21 dated offers" || return 1
	stop_server
	server <<EOF || return 1
GET /v8/nebius/vms.csv file=sky/nebius/vms.csv type=text/plain last_modified=$CAT_LM
EOF
	catalog_env
	last="refresh nebius (dated $CAT_ASOF, newer)"; g refresh --force nebius
	expect_rc 0 && lacks out "kept" || return 1
	sql_is "SELECT min(source), max(as_of) FROM offer WHERE provider='nebius'" "catalog|$CAT_ASOF"
}

# A catalog dated in the future (Last-Modified: 31 Dec 9999) would have
# frozen the provider: stored, it looked fresh, and every later real
# catalog was "older". The door refuses the store: the provider keeps its
# offers (stale), the error names the date; a real date then loads.
scenario_door_future_date() {
	catalog_root || return 1
	server <<EOF || return 1
GET /v8/nebius/vms.csv file=sky/nebius/vms.csv type=text/plain last_modified=Fri,_31_Dec_9999_23:59:59_GMT
EOF
	catalog_env
	before=$(sql "SELECT count(*) || '|' || min(source) FROM offer WHERE provider='nebius'")
	last="refresh nebius (Last-Modified 9999)"; g refresh --force nebius
	[ "$rc" != 0 ] && has err "as_of 9999-12-31T23:59:59Z is in the future" || fail "a catalog from 9999 was not refused" || return 1
	sql_is "SELECT count(*) || '|' || min(source) FROM offer WHERE provider='nebius'" "$before" || return 1
	sql_is "SELECT count(*) FROM offer WHERE as_of > '2027'" "0" || return 1
	sql_is "SELECT stale, last_error LIKE '%in the future%' FROM provider_state WHERE provider='nebius'" "1|1" || return 1
	stop_server
	server <<EOF || return 1
GET /v8/nebius/vms.csv file=sky/nebius/vms.csv type=text/plain last_modified=$CAT_LM
EOF
	catalog_env # the new server's port
	last="refresh nebius (a real date)"; g refresh --force nebius
	expect_rc 0 || return 1
	sql_is "SELECT min(source), max(as_of) FROM offer WHERE provider='nebius'" "catalog|$CAT_ASOF" || return 1
	# a gpuhunt version dated 9999 (its catalog real) is refused the same way
	stop_server
	server <<EOF || return 1
GET /v8/verda/vms.csv status=404 body=not-found
GET /v3/verda/version body=99991231-1 type=text/plain
GET /v3/verda/99991231-1/catalog.zip file=gh/verda/20261130-3/catalog.zip type=application/zip
EOF
	catalog_env
	before=$(sql "SELECT count(*) || '|' || min(source) FROM offer WHERE provider='verda'")
	last="refresh verda (gpuhunt 99991231-1)"; g refresh --force verda
	[ "$rc" != 0 ] && has err "as_of 9999-12-31T00:00:00Z is in the future" || fail "a gpuhunt version of 9999 was not refused" || return 1
	sql_is "SELECT count(*) || '|' || min(source) FROM offer WHERE provider='verda'" "$before"
}

# A key set for a provider's live API wins over its catalog.
scenario_catalog_live_wins() {
	server "GET /api/v1/instance-types file=lambda/instance-types.json" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	catalog_env
	last="refresh lambda"; g refresh lambda
	expect_rc 0 && has out "2 offers" && lacks out "catalog" || return 1
	sql_is "SELECT count(*), min(source), max(source) FROM offer WHERE provider='lambda'" "2|live|live" || return 1
	lacks requests.log "/v8/" || return 1
	no_secret
}

# --catalog-only takes a provider from its catalog even when its live API
# could run (a key set); without IDs, every provider a catalog covers.
scenario_catalog_only() {
	catalog_root || return 1
	cp -r "$fixtures/lambda" "$SERVER_ROOT/lambda"
	{ catalog_routes; echo "$LAMBDA_OK"; } >"$dir/cat.routes" && server <"$dir/cat.routes" || return 1
	export GPUCMP_LAMBDA_BASE_URL="$BASE" GPUCMP_LAMBDA_API_KEY="$SECRET"
	catalog_env
	last="refresh --catalog-only lambda"; g refresh -v --force --catalog-only lambda
	expect_rc 0 && has err "lambda: from the skypilot catalog (--catalog-only)" || return 1
	lacks requests.log "/api/v1/" || return 1
	sql_is "SELECT count(*) > 2, min(source), max(source) FROM offer WHERE provider='lambda'" "1|catalog|catalog" || return 1
	last="refresh --catalog-only --no-catalog"; g refresh --catalog-only --no-catalog
	expect_rc 64 && has err "--catalog-only needs the hosted catalog tier: drop --no-catalog" || return 1
	no_secret
}

# scripts/make-snapshot.sh URL builds the snapshot through the catalog tier
# (refresh --catalog-only into a throwaway cache, then gpucmp-mksnapshot
# --from-cache): every cloud of the catalog, AWS included, each row's origin
# its catalog file and as-of its Last-Modified date; the file loads with the
# binary's snapshot loader. A provider whose catalog fails fails the script
# and writes nothing.
scenario_catalog_snapshot() {
	catalog_root || return 1
	catalog_routes >"$dir/cat.routes" && server <"$dir/cat.routes" || return 1
	export GPUCMP_GPUHUNT_CATALOG_URL="$BASE/v3"
	mksnap="$(dirname "$bin")/gpucmp-mksnapshot"
	script="$here/../../scripts/make-snapshot.sh"
	last="make-snapshot.sh URL"
	timeout 300 "$script" --bin "$(dirname "$bin")" --out "$dir/snap.csv" \
		--providers "$(echo $CAT_CLOUDS | tr ' ' ,)" "$BASE/v8" >"$dir/out" 2>"$dir/err"
	rc=$?
	expect_rc 0 && has out "$dir/snap.csv" || return 1
	[ "$(head -1 "$dir/snap.csv")" = "$(head -1 "$here/../../data/snapshot.csv")" ] ||
		fail "the snapshot header differs from data/snapshot.csv's" || return 1
	"$mksnap" --check "$dir/snap.csv" >"$dir/check" 2>"$dir/err" ||
		fail "the snapshot does not load: $(cat "$dir/err")" || return 1
	has check "oldest 2026-12-01 newest 2026-12-01" || return 1
	for c in $CAT_CLOUDS; do
		grep -q "^$c [1-9]" "$dir/check" || fail "no $c rows in the snapshot" || return 1
		all=$(grep -c "^$c," "$dir/snap.csv")
		good=$(grep -c "^$c,.*,$BASE/v8/$c/vms.csv,2026-12-01\$" "$dir/snap.csv")
		[ "$all" = "$good" ] || fail "$c: $good of $all rows name $BASE/v8/$c/vms.csv, 2026-12-01" || return 1
		has requests.log "GET /v8/$c/vms.csv" || return 1
	done
	# a real AWS row (us-east-1's zones folded into one offer)
	grep -qF "aws,g6.24xlarge,l4,L4,4,24,96,384,,us-east-1,6.6752,2.5244,USD," "$dir/snap.csv" ||
		fail "no g6.24xlarge us-east-1 row at 6.6752/2.5244" || return 1
	# the same rows (all but origin and date) as the folder reader's
	printf 'cloud,origin,as_of\n' >"$dir/sources.csv"
	for c in $CAT_CLOUDS; do echo "$c,folder,2026-12-01"; done >>"$dir/sources.csv"
	"$mksnap" --gpus "$here/../../data/gpus.yaml" --types "$here/../../data/instance-types.yaml" \
		--sources "$dir/sources.csv" --out "$dir/folder.csv" "$catalogs/skypilot" 2>"$dir/err" ||
		fail "the folder reader failed: $(cat "$dir/err")" || return 1
	cut -d, -f1-17 "$dir/folder.csv" | sort >"$dir/folder.rows"
	cut -d, -f1-17 "$dir/snap.csv" | sort >"$dir/snap.rows"
	cmp -s "$dir/folder.rows" "$dir/snap.rows" ||
		fail "the catalog tier's rows differ from the folder reader's: $(diff "$dir/folder.rows" "$dir/snap.rows" | head -5)" || return 1
	# a provider whose catalog is missing (no route: 404) fails the run
	last="make-snapshot.sh URL (ibm missing)"
	timeout 300 "$script" --bin "$(dirname "$bin")" --out "$dir/snap2.csv" \
		--providers aws,ibm "$BASE/v8" >"$dir/out" 2>"$dir/err"
	rc=$?
	expect_rc 69 && has err "the catalog refresh failed" || return 1
	[ ! -e "$dir/snap2.csv" ] || fail "a snapshot was written after a failure"
}

# --no-catalog and `catalog: false` turn the tier off: nothing fetched, each
# provider reported with the reason (stderr, --verbose, cache status).
scenario_catalog_off() {
	catalog_root || return 1
	catalog_routes >"$dir/cat.routes" && server <"$dir/cat.routes" || return 1
	catalog_env
	before=$(sql "SELECT count(*) FROM offer WHERE provider='nebius'")
	last="refresh --no-catalog aws nebius lambda"; g refresh --no-catalog -v aws nebius lambda
	expect_rc 69 || return 1  # lambda, named, has no key and no catalog: a failure
	has err "aws: no live price API in gpucmp and the hosted catalog tier is off" || return 1
	has err "nebius: no live price API in gpucmp and the hosted catalog tier is off" || return 1
	has err "gpucmp: lambda needs an API key: set GPUCMP_LAMBDA_API_KEY (or LAMBDA_API_KEY, or api_key in the config file)" || return 1
	[ ! -s "$dir/requests.log" ] || fail "something was fetched" || return 1
	sql_is "SELECT count(*), max(stale) FROM offer WHERE provider='nebius'" "$before|0" || return 1
	last="cache status"; g cache status --json
	grep -A8 '"provider": "nebius"' "$dir/out" | grep -q "no live price API in gpucmp and the hosted catalog tier is off" ||
		fail "cache status does not say why nebius was skipped" || return 1
	mkdir -p "$XDG_CONFIG_HOME/gpucmp"
	printf 'catalog: false\n' >"$XDG_CONFIG_HOME/gpucmp/config.yaml"
	last="refresh aws (catalog: false)"; g refresh aws
	expect_rc 0 && has err "aws: no live price API in gpucmp and the hosted catalog tier is off" || return 1
	[ ! -s "$dir/requests.log" ] || fail "something was fetched with catalog: false" || return 1
	# neither a live API nor a catalog: a usage error naming both
	last="refresh coreweave"; g refresh coreweave
	expect_rc 64 && has err "'coreweave' has no live price API in gpucmp and no hosted catalog covers it" || return 1
}

# A 304 to the stored validators keeps the catalog's offers; a 304 to a
# request that sent none is a failure.
scenario_catalog_not_modified() {
	catalog_root || return 1
	catalog_routes >"$dir/cat.routes" && server <"$dir/cat.routes" || return 1
	catalog_env
	g refresh --force aws
	expect_rc 0 || return 1
	n=$(sql "SELECT count(*) FROM offer WHERE provider='aws'")
	last="refresh aws (again)"; g refresh aws
	expect_rc 0 && has out "unchanged since the last refresh" || return 1
	has requests.log 'If-None-Match: "aws-1"' || return 1
	sql_is "SELECT count(*), max(stale), min(source) FROM offer WHERE provider='aws'" "$n|0|catalog" || return 1
	server "GET /v8/mithril/vms.csv status=304" || return 1
	catalog_env
	last="refresh mithril (unsolicited 304)"; g refresh --retries 0 mithril
	expect_rc 69 && has err "HTTP 304 Not Modified to a request without a validator" || return 1
}

# An empty catalog (a header, no rows) is refused by the plausible-answer
# rule: gpuhunt is tried next (not there: 404), the previous offers stay,
# both failures are recorded.
scenario_catalog_empty() {
	catalog_root || return 1
	head -1 "$catalogs/skypilot/aws/vms.csv" >"$SERVER_ROOT/empty.csv"
	server "GET /v8/aws/vms.csv file=empty.csv type=text/plain" || return 1
	catalog_env
	before=$(sql "SELECT count(*) FROM offer WHERE provider='aws'")
	last="refresh aws (empty catalog)"; g refresh aws
	expect_rc 69 && has err "aws: skypilot: no usable offer in the new data" || return 1
	has err "; gpuhunt: $BASE/v3/aws/version: HTTP 404; kept its previous offers" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='aws'" "$before" || return 1
}

# No SkyPilot file for a provider: its gpuhunt catalog (version, then the
# zip) prices it; on-demand and spot rows pair into one offer; as_of is the
# version's date; a 304 to the version's validator keeps the offers.
scenario_catalog_gpuhunt() {
	catalog_root || return 1
	server <<ROUTES || return 1
GET /v8/verda/vms.csv status=404 body=not-found
GET /v3/verda/version body=20261130-3 type=text/plain etag=v3
GET /v3/verda/20261130-3/catalog.zip file=gh/verda/20261130-3/catalog.zip type=application/zip
ROUTES
	catalog_env
	last="refresh -v verda"; g refresh -v --force verda
	expect_rc 0 && has out "gpuhunt catalog" || return 1
	has err "verda: the skypilot catalog failed" || return 1
	sql_is "SELECT count(*), min(source), min(as_of), max(as_of) FROM offer WHERE provider='verda'" "4|catalog|2026-11-30T00:00:00Z|2026-11-30T00:00:00Z" || return 1
	sql_is "SELECT price_hr, spot_price_hr, gpu_count FROM offer WHERE provider='verda' AND sku='1H100.80S.30V'" "2.19|0.99|1.0" || return 1
	last="refresh verda (again)"; g refresh verda
	expect_rc 0 && has out "unchanged since the last refresh" || return 1
	has requests.log 'If-None-Match: "v3"' || return 1
	sql_is "SELECT count(*), max(stale) FROM offer WHERE provider='verda'" "4|0"
}

# SkyPilot's file fails, then gpuhunt's too: the message names both
# catalogs' reasons, not only the last.  A version whose date is no
# calendar date (20260231) is refused, naming it.
scenario_catalog_gpuhunt_both_fail() {
	server <<ROUTES || return 1
GET /v8/verda/vms.csv status=404 body=not-found
GET /v3/verda/version body=20260231-1 type=text/plain
ROUTES
	catalog_env
	before=$(sql "SELECT count(*) FROM offer WHERE provider='verda'")
	last="refresh verda (both catalogs fail)"; g refresh --retries 0 verda
	expect_rc 69 || return 1
	has err "verda: skypilot: $BASE/v8/verda/vms.csv: HTTP 404; gpuhunt: $BASE/v3/verda/version: gpuhunt catalog version '20260231-1' names no calendar date" || return 1
	lacks requests.log "catalog.zip" || return 1
	sql_is "SELECT count(*), max(stale) FROM offer WHERE provider='verda'" "$before|1" || return 1
	sql_is "SELECT last_error LIKE 'skypilot: %HTTP 404; gpuhunt: %no calendar date%' FROM provider_state WHERE provider='verda'" "1" || return 1
	server "GET /v8/verda/vms.csv status=404 body=not-found" || return 1
	catalog_env
	last="refresh verda (no gpuhunt version either)"; g refresh --retries 0 verda
	expect_rc 69 || return 1
	has err "verda: skypilot: $BASE/v8/verda/vms.csv: HTTP 404; gpuhunt: $BASE/v3/verda/version: HTTP 404" || return 1
	last="refresh --json verda"; g refresh --json --retries 0 verda
	expect_rc 69 && has out "skypilot: $BASE/v8/verda/vms.csv: HTTP 404; gpuhunt: " || return 1
}

# One tiny GPU row repeated to 250 MiB in a zip of a few hundred KB (the
# issue: 2.5 GB and 19 s, then stored): the rows count against the offer
# cap as they are read, so it is refused at row 100,001, nothing stored,
# within an address-space limit the old reader (the whole file inflated,
# then every row kept) could not live in.  The limit is left out under
# valgrind or a sanitizer, which reserve address space of their own.
scenario_catalog_gpuhunt_flood() {
	catalog_root || return 1
	printf '%s\n%s\n' "$(head -1 "$catalogs/gpuhunt/verda.csv")" "a,b,2.19,1,1,1,H100,80,False" \
		>"$dir/tiny.csv"
	"$mkzip" "$SERVER_ROOT/flood.zip" verda.csv "$dir/tiny.csv" 262144000 ||
		fail "gpucmp-mkzip failed" || return 1
	server <<ROUTES || return 1
GET /v8/verda/vms.csv status=404 body=not-found
GET /v3/verda/version body=20261130-3 type=text/plain
GET /v3/verda/20261130-3/catalog.zip file=flood.zip type=application/zip
ROUTES
	catalog_env
	before=$(sql "SELECT count(*) FROM offer WHERE provider='verda'")
	limit=unlimited
	if [ -z "$wrapper" ] && ! ldd "$bin" 2>/dev/null | grep -q 'lib[at]san'; then
		limit=300000 # KiB of address space; the reader needs under 100 MB
	fi
	last="refresh --force verda (250 MiB of one row, ulimit -v $limit)"
	# shellcheck disable=SC2086
	(ulimit -v $limit && exec $wrapper "$bin" refresh --force verda) >"$dir/out" 2>"$dir/err"
	rc=$?
	expect_rc 69 && has err "more than 100000 GPU rows" && has err "GPUCMP_REFRESH_MAX_OFFERS" ||
		return 1
	lacks err "out of memory" || return 1
	sql_is "SELECT count(*), max(stale), min(source) FROM offer WHERE provider='verda'" "$before|1|snapshot"
}

# No IDs: every provider with a live adapter or a catalog.  Keyless live
# adapters point at a closed port (they fail): those a catalog covers
# (azure, oci, runpod, vast) fall through to it, the others (linode,
# scaleway, vultr) keep their offers; every provider a catalog covers and
# no key unlocks is priced from it, all in one run.
scenario_catalog_all() {
	catalog_root || return 1
	catalog_routes >"$dir/cat.routes" && server <"$dir/cat.routes" || return 1
	catalog_env
	for id in azure linode oci runpod scaleway vast vultr; do
		up=$(echo "$id" | tr 'a-z-' 'A-Z_')
		export "GPUCMP_${up}_BASE_URL=http://127.0.0.1:9"
	done
	last="refresh --json --retries 0 --force"; g refresh --json --retries 0 --force
	expect_rc 75 || return 1
	for p in aws cudo daytona gcp hyperbolic hyperstack jarvislabs lambda lium mithril nebius \
		primeintellect seeweb shadeform spheron verda yotta azure oci runpod vast; do
		grep -A2 "\"provider\": \"$p\"" "$dir/out" | grep -q '"result": "updated"' ||
			fail "$p not updated from the catalog" || return 1
		grep -A2 "\"provider\": \"$p\"" "$dir/out" | grep -q '"tier": "skypilot"' ||
			fail "$p not from the skypilot tier" || return 1
	done
	for p in azure oci runpod vast; do
		grep -A9 "\"provider\": \"$p\"" "$dir/out" | grep -q '"live_error": "http://127.0.0.1:9/' ||
			fail "$p does not say its live API failed" || return 1
		has err "gpucmp: $p: live API failed (http://127.0.0.1:9/" || return 1
	done
	for p in linode scaleway vultr; do
		grep -A2 "\"provider\": \"$p\"" "$dir/out" | grep -q '"result": "failed"' ||
			fail "$p did not fail" || return 1
	done
	sql_is "SELECT count(DISTINCT provider) FROM offer WHERE source = 'catalog'" "21" || return 1
}


# --- tiers fall through: live API -> hosted catalog -> what the cache has ----

# Azure's live API answers 503: the same run takes its SkyPilot catalog.
# Keyless, so a success with a note (exit 0); the rows say catalog, the
# record keeps the live failure (cache status), --json gives live_error;
# with --quiet nothing is printed.  Once the API answers, live wins again.
scenario_tier_live_to_catalog() {
	catalog_root || return 1
	cp -r "$fixtures/azure" "$SERVER_ROOT/azure"
	{ echo "GET /api/retail/prices status=503 body=down"; catalog_routes; } >"$dir/t.routes"
	server <"$dir/t.routes" || return 1
	export GPUCMP_AZURE_BASE_URL="$BASE"
	catalog_env
	last="refresh -v --retries 0 --force azure (live 503)"
	g refresh -v --retries 0 --force azure
	expect_rc 0 && has out "offers (skypilot catalog after the live API failed" || return 1
	has err "azure: the live API failed ($BASE/api/retail/prices: HTTP 503); trying the skypilot catalog" || return 1
	has err "gpucmp: azure: live API failed ($BASE/api/retail/prices: HTTP 503); took the skypilot catalog" || return 1
	has requests.log "GET /v8/azure/vms.csv" || return 1
	sql_is "SELECT count(*) > 0, min(source), max(source), min(as_of) FROM offer WHERE provider='azure'" "1|catalog|catalog|$CAT_ASOF" || return 1
	sql_is "SELECT source, stale, last_error = 'live: $BASE/api/retail/prices: HTTP 503; took the skypilot catalog' FROM provider_state WHERE provider='azure'" "catalog|0|1" || return 1
	last="list --provider azure --json"; g list --provider azure --json
	expect_rc 0 && has out '"source":"catalog"' && lacks out '"source":"live"' || return 1
	last="cache status --json"; g cache status --json
	grep -A8 '"provider": "azure"' "$dir/out" | grep -q '"source": "catalog"' ||
		fail "cache status does not say azure came from the catalog" || return 1
	grep -A8 '"provider": "azure"' "$dir/out" | grep -q 'HTTP 503; took the skypilot catalog' ||
		fail "cache status does not keep azure's live failure" || return 1
	last="refresh --json --quiet azure (304 from the catalog)"
	g refresh --json --quiet --retries 0 azure
	expect_rc 0 && has out '"result": "unchanged"' && has out '"tier": "skypilot"' || return 1
	has out '"live_error": "'"$BASE"'/api/retail/prices: HTTP 503"' || return 1
	[ ! -s "$dir/err" ] || fail "--quiet printed a keyless live failure the catalog covered" || return 1
	sql_is "SELECT stale, last_error LIKE 'live: %HTTP 503; took the skypilot catalog' FROM provider_state WHERE provider='azure'" "0|1" || return 1
	# the live API is back: live wins, the error is cleared
	stop_server
	{ sed 's|file=|file=azure/|' "$fixtures/azure.routes"; catalog_routes; } >"$dir/t.routes"
	server <"$dir/t.routes" || return 1
	export GPUCMP_AZURE_BASE_URL="$BASE"
	catalog_env
	last="refresh azure (live back)"; g refresh azure
	expect_rc 0 && lacks out "catalog" || return 1
	lacks requests.log "/v8/" || return 1
	sql_is "SELECT min(source), max(source) FROM offer WHERE provider='azure'" "live|live" || return 1
	sql_is "SELECT source, stale, last_error IS NULL FROM provider_state WHERE provider='azure'" "live|0|1"
}

# A live answer the door refuses (no usable offer) is a live failure like
# any other: oci's catalog stands in.
scenario_tier_door_to_catalog() {
	catalog_root || return 1
	printf '{"items":[]}' >"$SERVER_ROOT/empty.json"
	{ echo "GET /a/ocom/docs/cloudestimator2/data/shapes.json file=empty.json"
	  echo "GET /a/ocom/docs/cloudestimator2/data/products.json file=empty.json"
	  catalog_routes; } >"$dir/t.routes"
	server <"$dir/t.routes" || return 1
	export GPUCMP_OCI_BASE_URL="$BASE"
	catalog_env
	last="refresh oci (live answer empty)"; g refresh oci
	expect_rc 0 && has out "skypilot catalog after the live API failed" || return 1
	has err "oci: live API failed (no usable offer in the new data; " || return 1
	sql_is "SELECT count(*) > 0, min(source) FROM offer WHERE provider='oci'" "1|catalog" || return 1
	sql_is "SELECT last_error LIKE 'live: no usable offer in the new data;%; took the skypilot catalog' FROM provider_state WHERE provider='oci'" "1"
}

# With the user's key set, a live failure is a failure even when the
# catalog stood in: one line even with --quiet, exit 75 (never 69: the
# provider's offers are current), the key never sent to the catalog nor
# written anywhere.  "Keys and cron" still hold beside it.
scenario_tier_keyed_live_fails() {
	catalog_root || return 1
	{ echo "POST /api/v0/bundles/ status=401 body=bad-key"; catalog_routes; } >"$dir/t.routes"
	server <"$dir/t.routes" || return 1
	export GPUCMP_VAST_BASE_URL="$BASE" GPUCMP_VAST_API_KEY="$SECRET"
	catalog_env
	last="refresh --quiet --force vast (key set, live 401)"; g refresh --quiet --force vast
	expect_rc 75 || return 1
	has err "gpucmp: vast: live API failed ($BASE/api/v0/bundles/: HTTP 401); took the skypilot catalog: its offers are current, the exit code counts the failure" || return 1
	[ ! -s "$dir/out" ] || fail "--quiet printed to stdout" || return 1
	sql_is "SELECT count(*) > 0, min(source), max(stale) FROM offer WHERE provider='vast'" "1|catalog|0" || return 1
	grep -A3 "GET /v8/vast/vms.csv" "$dir/requests.log" | grep -q "Authorization" &&
		fail "the live API's key went to the catalog" && return 1
	has requests.log "Authorization: Bearer $SECRET" || return 1
	last="refresh --json --force vast"; g refresh --json --force --retries 0 vast
	expect_rc 75 && has out '"tier": "skypilot"' && has out '"live_error": "'"$BASE"'/api/v0/bundles/: HTTP 401"' || return 1
	# beside a named provider without its key (no catalog: the tier off for it
	# by --no-catalog), the run still fails, and says both
	last="refresh --no-catalog --quiet vast lambda"; g refresh --no-catalog --quiet --retries 0 vast lambda
	expect_rc 69 && has err "gpucmp: lambda needs an API key: set GPUCMP_LAMBDA_API_KEY" || return 1
	has err "vast: $BASE/api/v0/bundles/: HTTP 401; kept its previous offers, marked stale" || return 1
	no_secret
}

# Every tier fails: the live API (503), SkyPilot (503), gpuhunt (404). The
# provider keeps its previous offers, marked stale, and the message and the
# record name each tier's reason; exit 69.
scenario_tier_all_fail() {
	{ echo "GET /api/retail/prices status=503 body=down"
	  echo "GET /v8/azure/vms.csv status=503 body=down"; } >"$dir/t.routes"
	server <"$dir/t.routes" || return 1
	export GPUCMP_AZURE_BASE_URL="$BASE"
	catalog_env
	before=$(sql "SELECT count(*) || '|' || min(source) FROM offer WHERE provider='azure'")
	last="refresh --retries 0 azure (every tier fails)"; g refresh --retries 0 azure
	expect_rc 69 || return 1
	has err "gpucmp: azure: live: $BASE/api/retail/prices: HTTP 503; skypilot: $BASE/v8/azure/vms.csv: HTTP 503; gpuhunt: $BASE/v3/azure/version: HTTP 404; kept its previous offers, marked stale" || return 1
	sql_is "SELECT count(*) || '|' || min(source) FROM offer WHERE provider='azure'" "$before" || return 1
	sql_is "SELECT max(stale) FROM offer WHERE provider='azure'" "1" || return 1
	sql_is "SELECT stale, last_error LIKE 'live: %HTTP 503; skypilot: %HTTP 503; gpuhunt: %HTTP 404' FROM provider_state WHERE provider='azure'" "1|1" || return 1
	last="refresh --json azure"; g refresh --json --retries 0 azure
	expect_rc 69 && has out '"result": "failed"' && has out '"live_error": "'"$BASE"'/api/retail/prices: HTTP 503"' || return 1
	# --no-catalog: the live failure alone, as before
	asked=$(grep -c "GET /v8/azure/vms.csv" "$dir/requests.log")
	last="refresh --no-catalog azure"; g refresh --no-catalog --retries 0 azure
	expect_rc 69 && lacks err "skypilot" || return 1
	[ "$(grep -c "GET /v8/azure/vms.csv" "$dir/requests.log")" = "$asked" ] ||
		fail "--no-catalog fetched the catalog" || return 1
	has err "gpucmp: azure: $BASE/api/retail/prices: HTTP 503; kept its previous offers"
}

# The keyless count (issue 22): no key set anywhere, every adapter pointed
# at its recorded responses on loopback, both catalogs at the recorded
# catalog tree: at least 28 providers come out priced by the refresh
# (live keyless adapters, catalog clouds, list prices), not by the
# built-in snapshot.
scenario_catalog_keyless_count() {
	for v in $(env | sed -n 's/^\(GPUCMP_[A-Z_]*_API_KEY\)=.*/\1/p'); do unset "$v"; done
	start_adapter_servers nokey || return 1
	catalog_root || return 1
	{ catalog_routes
	  echo "GET /v3/cloudrift/version body=20261201-2 type=text/plain"
	  echo "GET /v3/cloudrift/20261201-2/catalog.zip file=gh/cloudrift/20261201-2/catalog.zip type=application/zip"
	} >"$dir/cat.routes" && server <"$dir/cat.routes" || return 1
	catalog_env
	last="refresh --json --retries 0 --force (no key)"; g refresh --json --retries 0 --force
	stop_adapter_servers
	[ "$rc" = 0 ] || [ "$rc" = 75 ] || fail "exit $rc, want 0 or 75" || return 1
	priced=$(sql "SELECT count(DISTINCT provider) FROM offer WHERE source <> 'snapshot'
		AND (price_hr IS NOT NULL OR spot_price_hr IS NOT NULL)")
	[ "$priced" -ge 28 ] || fail "$priced providers priced with no key, want >= 28:" \
		"$(sql "SELECT group_concat(p) FROM (SELECT DISTINCT provider p FROM offer
			WHERE source <> 'snapshot' ORDER BY 1)")" || return 1
	for p in cudo daytona lium primeintellect seeweb shadeform spheron yotta cloudrift; do
		sql_is "SELECT count(*) > 0 FROM offer WHERE provider='$p' AND source = 'catalog'" "1" ||
			return 1
	done
	last="providers --json"; g providers --json
	expect_rc 0 || return 1
	n=$(grep -c '"min_price_hr": [0-9]' "$dir/out")
	[ "$n" -ge 28 ] || fail "providers --json prices $n providers, want >= 28" || return 1
}

# Azure's reservation meters (tests/fixtures/http/azure/reservations.json)
# become committed prices through the door: each term's total over its
# hours, the one above on-demand refused and named; list --price-type
# reserved:12 answers at them, the default answer is as before; the next
# load replaces them (none left behind by the offers it replaced).
scenario_azure_reservations() {
	{ sed 's|file=|file=azure/|' "$fixtures/azure.routes"; } >"$dir/t.routes"
	server <"$dir/t.routes" || return 1
	export GPUCMP_AZURE_BASE_URL="$BASE"
	last="refresh -v azure"; g refresh -v --retries 0 azure
	expect_rc 0 || return 1
	has requests.log "priceType%20eq%20%27Reservation%27" || return 1
	has err "azure: 4 committed prices stored, 1 refused (the last: not below on-demand)" || return 1
	sql_is "SELECT count(*) FROM offer_commit k JOIN offer o ON o.id = k.offer WHERE o.provider='azure'" "4" || return 1
	last="list --price-type reserved:12"
	g list --provider azure --price-type reserved:12 --format csv --columns sku,region,price_hr,price_type,term_months
	expect_rc 0 || return 1
	want='sku,region,price_hr,price_type,term_months
Standard_NC24ads_A100_v4,eastus,2.203881,reserved,12
Standard_ND96isr_H100_v5,westeurope,61.940639,reserved,12'
	[ "$(cat "$dir/out")" = "$want" ] || fail "reserved:12 answered: $(cat "$dir/out")" || return 1
	last="list (default)"; g list --provider azure --format csv --columns sku,price_hr,price_type
	expect_rc 0 && has out "Standard_NC24ads_A100_v4,3.673,on_demand" || return 1
	last="refresh azure (again)"; g refresh --retries 0 --force azure
	expect_rc 0 || return 1
	sql_is "SELECT count(*) FROM offer_commit" "$(sql "SELECT count(*) FROM offer_commit k JOIN offer o ON o.id = k.offer")" || return 1
	sql_is "SELECT count(*) FROM offer_commit k JOIN offer o ON o.id = k.offer WHERE o.provider='azure'" "4"
}

# GCP's committed-use SKUs (tests/fixtures/http/gcp/skus-commit.json, as
# page 1's next page): each machine type's 12- and 36-month prices composed
# of the term's parts pass the door; list --price-type reserved:N answers
# at them, a region without a part has no price of that term, and the
# default answer is the on-demand one as before.
scenario_gcp_commit() {
	token=APKCS1HVa0YpwgyTFbqbJ1eGwzKZmsPwLqzMZPTSNia5ck1Hc54Tx_Kz3oBxwSnRIdGVxXoSPdf-XlDpyNBf4QuxKcIEgtrQ1LDLWAgZowI0ns7HjrGta2s%3D
	server "GET /v1/services/6F81-5844-456A/skus?pageSize=5000&pageToken=$token&key=fixture-key file=gcp/skus-commit.json
GET /v1/services/6F81-5844-456A/skus file=gcp/skus-page1.json" || return 1
	export GPUCMP_GCP_BASE_URL="$BASE" GPUCMP_GCP_API_KEY=fixture-key
	last="refresh -v gcp"; g refresh -v --retries 0 gcp
	expect_rc 0 || return 1
	has err "gcp: 25 committed prices stored" || return 1
	sql_is "SELECT count(*) FROM offer WHERE provider='gcp'" "15" || return 1
	sql_is "SELECT count(*) FROM offer_commit k JOIN offer o ON o.id = k.offer WHERE o.provider='gcp' AND k.term_months=12" "15" || return 1
	last="list --price-type reserved:12"
	g list --provider gcp --price-type reserved:12 --format csv --where "sku = 'a2-highgpu-1g'" --columns sku,region,price_hr,price_type,term_months
	expect_rc 0 || return 1
	want='sku,region,price_hr,price_type,term_months
a2-highgpu-1g,us-central1,2.3195,reserved,12
a2-highgpu-1g,us-east1,2.3195,reserved,12
a2-highgpu-1g,us-west1,2.3195,reserved,12'
	[ "$(cat "$dir/out")" = "$want" ] || fail "reserved:12 answered: $(cat "$dir/out")" || return 1
	last="list --price-type reserved:36"
	g list --provider gcp --price-type reserved:36 --format csv --where "sku = 'a2-highgpu-1g'" --columns sku,region,price_hr,price_type,term_months
	expect_rc 0 || return 1
	want='sku,region,price_hr,price_type,term_months
a2-highgpu-1g,us-central1,1.3595,reserved,36
a2-highgpu-1g,us-east1,1.3595,reserved,36'
	[ "$(cat "$dir/out")" = "$want" ] || fail "reserved:36 answered: $(cat "$dir/out")" || return 1
	last="list (default)"
	g list --provider gcp --format csv --where "sku = 'a2-highgpu-1g'" --columns sku,price_hr,price_type
	expect_rc 0 && has out "a2-highgpu-1g,3.673385,on_demand"
}

# --- runner ----------------------------------------------------------------

# GPUCMP_SAMPLE=N: without named scenarios, every Nth (the valgrind run's
# sample, tests/CMakeLists.txt); GPUCMP_SHARD=I/K: of those, the Ith of
# every K (1-based), so K shards run the sample once between them
all=$(sed -n 's/^scenario_\([a-z0-9_]*\)() {$/\1/p' "$0" |
	awk -v n="${GPUCMP_SAMPLE:-1}" -v shard="${GPUCMP_SHARD:-1/1}" '
		BEGIN { if (split(shard, s, "/") != 2 || s[1] !~ /^[0-9]+$/ || s[2] !~ /^[0-9]+$/ ||
			s[1] < 1 || s[1] > s[2]) exit; i = s[1] - 1; k = s[2] }
		(NR - 1) % n == 0 && ((NR - 1) / n) % k == i')
[ -n "$all" ] || { echo "no scenario chosen (GPUCMP_SAMPLE=${GPUCMP_SAMPLE:-}," \
	"GPUCMP_SHARD=${GPUCMP_SHARD:-})"; exit 1; }
[ $# -gt 0 ] && all="$*"
pass=0
failed=""
template="$root/template.db"
GPUCMP_CACHE=$template GPUCMP_TODAY=2026-12-02 HOME=$root XDG_CONFIG_HOME=$root/config GPUCMP_CONFIG= "$bin" --quiet list --limit 0 >/dev/null || exit 1
for name in $all; do
	dir="$root/$name"
	mkdir -p "$dir/home"
	cp "$template" "$dir/cache.db"
	if (
		unset XDG_CACHE_HOME XDG_CONFIG_HOME NO_COLOR COLUMNS
		for v in $(env | sed -n 's/^\(GPUCMP_[A-Z0-9_]*\)=.*/\1/p'); do unset "$v"; done
		export HOME="$dir/home" GPUCMP_CACHE="$dir/cache.db" GPUCMP_TODAY=2026-12-02 LC_ALL=C
		export XDG_CONFIG_HOME="$dir/config" # never the user's config file
		# hosted catalogs: never the public ones (a closed loopback port)
		export GPUCMP_SKYPILOT_CATALOG_URL=http://127.0.0.1:9/v8 GPUCMP_GPUHUNT_CATALOG_URL=http://127.0.0.1:9/v3
		last=""
		"scenario_$name"
		r=$?
		stop_server
		if [ -s "$dir/leaks" ]; then
			echo "FAIL $name:"; cat "$dir/leaks"
			[ -f "$dir/leaked.err" ] && { echo "--- stderr"; head -20 "$dir/leaked.err"; }
			r=1
		fi
		exit $r
	); then
		pass=$((pass + 1))
	else
		failed="$failed $name"
	fi
done
count=$(echo $all | wc -w)
echo "$pass of $count network scenarios passed"
[ -z "$failed" ] || { echo "failed:$failed"; exit 1; }
