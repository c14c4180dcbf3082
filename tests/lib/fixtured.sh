# fixtured.sh - sourced by the test scripts that need the loopback fixture
# server (tests/tools/fixtured.c, routes in tests/http/README.md).

# fixtured_start FIXTURED ROUTES ROOT DIR [OPTION...]: start the server with
# the ROUTES file (file= paths relative to ROOT); its port file goes to
# DIR/port and its stderr to DIR/server.err, OPTIONs (--log FILE) to the
# server.  Sets FIXTURED_PID at once, and FIXTURED_BASE when it listens;
# returns 1 if it exits instead.  No time limit: the port file (written
# atomically once it listens) or its exit is the signal, so a busy machine
# only makes it slower (ctest's timeout ends a real hang).
fixtured_start() {
	_fx=$1 _routes=$2 _root=$3 _dir=$4
	shift 4
	rm -f "$_dir/port"
	"$_fx" --routes "$_routes" --root "$_root" --port-file "$_dir/port" "$@" \
		2>"$_dir/server.err" &
	FIXTURED_PID=$!
	fixtured_wait_port "$_dir/port" "$FIXTURED_PID" || return 1
	FIXTURED_BASE="http://127.0.0.1:$(cat "$_dir/port")"
}

# fixtured_wait_port PORT_FILE PID: wait until the server that PID is has
# written PORT_FILE (0), or has exited without it (1).
fixtured_wait_port() {
	while [ ! -s "$1" ]; do
		kill -0 "$2" 2>/dev/null || { [ -s "$1" ]; return; }
		sleep 0.05
	done
}

# fixtured_wait_log LOG PATTERN PID: wait until LOG has a line matching the
# grep pattern PATTERN (a request the server received; it logs a request
# before it holds it), 0; 1 if PID (the client that should send it) exited
# first without it being there.
fixtured_wait_log() {
	while ! grep -q -- "$2" "$1" 2>/dev/null; do
		kill -0 "$3" 2>/dev/null || { grep -q -- "$2" "$1" 2>/dev/null; return; }
		sleep 0.05
	done
}
