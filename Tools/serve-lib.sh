# Shared by Tools/fuzz-api.sh and Tools/load-test.sh (sourced, not run): find or build the paylog binary, start
# `paylog serve` on a free loopback port, stop it with SIGTERM and require a clean exit. The sourcing script
# defines fail() and say(), and sets BIN, ROOT and WORK before calling these.

# Builds $BIN (release) when it is missing and makes its path absolute.
ensure_binary() {
    if [ ! -x "$BIN" ]; then
        [ -z "${PAYLOG_BIN:-}" ] || fail "PAYLOG_BIN=$BIN is not an executable"
        say "building $BIN"
        "$ROOT/Tools/ensure-deps.sh"
        swift build -c release --product paylog
    fi
    case "$BIN" in /*) ;; *) BIN="$ROOT/$BIN" ;; esac
}

SERVER_PID=""

# On exit: stop a server still running (SIGTERM, then SIGKILL after 10 s) and remove $WORK.
serve_cleanup() {
    if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        for _ in $(seq 1 100); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}

# start_server STORE LOG: runs `paylog serve --port 0` on STORE, logging to LOG; sets SERVER_PID, PORT and BASE.
start_server() {
    "$BIN" serve --store "$1" --host 127.0.0.1 --port 0 >"$WORK/serve.out" 2>"$2" &
    SERVER_PID=$!
    PORT=""
    for _ in $(seq 1 300); do
        PORT=$(sed -n 's|^paylog serve: listening on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$WORK/serve.out")
        [ -n "$PORT" ] && break
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$2" >&2; fail "paylog serve exited before listening"; }
        sleep 0.1
    done
    [ -n "$PORT" ] || fail "paylog serve did not print its port within 30 s"
    BASE="http://127.0.0.1:$PORT"
}

# stop_server LOG: SIGTERM, then requires the server to exit 0 within 30 s (it drains and closes the store).
stop_server() {
    say "stopping the server (SIGTERM)"
    kill -TERM "$SERVER_PID"
    local status=""
    for _ in $(seq 1 300); do
        if ! kill -0 "$SERVER_PID" 2>/dev/null; then
            status=0
            wait "$SERVER_PID" || status=$?
            break
        fi
        sleep 0.1
    done
    [ -n "$status" ] || fail "paylog serve did not stop within 30 s of SIGTERM"
    SERVER_PID=""
    [ "$status" = 0 ] || { tail -20 "$1" >&2; fail "paylog serve exited with status $status after SIGTERM (see $1)"; }
}
