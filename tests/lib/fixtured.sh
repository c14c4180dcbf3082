# fixtured.sh - sourced by the test scripts that need the loopback fixture
# server (tests/tools/fixtured.c, routes in tests/http/README.md).

# fixtured_start FIXTURED ROUTES ROOT DIR [OPTION...]: start the server with
# the ROUTES file (file= paths relative to ROOT); its port file goes to
# DIR/port and its stderr to DIR/server.err, OPTIONs (--log FILE) to the
# server.  Sets FIXTURED_PID at once, and FIXTURED_BASE when it listens;
# returns 1 if it is not listening within 5 s.
fixtured_start() {
	_fx=$1 _routes=$2 _root=$3 _dir=$4
	shift 4
	rm -f "$_dir/port"
	"$_fx" --routes "$_routes" --root "$_root" --port-file "$_dir/port" "$@" \
		2>"$_dir/server.err" &
	FIXTURED_PID=$!
	_i=0
	while [ ! -s "$_dir/port" ]; do
		_i=$((_i + 1))
		if [ $_i -gt 100 ] || ! kill -0 "$FIXTURED_PID" 2>/dev/null; then
			return 1
		fi
		sleep 0.05
	done
	FIXTURED_BASE="http://127.0.0.1:$(cat "$_dir/port")"
}
