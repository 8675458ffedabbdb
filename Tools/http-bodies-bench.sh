#!/usr/bin/env bash
# How fast `paylog serve` records JSON Lines bodies (POST /v1/observations), on loopback, on fresh stores.
#
#   Tools/http-bodies-bench.sh                            # builds .build/release/paylog when missing
#   PAYLOG_BIN=/path/to/paylog OTHER_BIN=/path/to/older/paylog Tools/http-bodies-bench.sh
#   PAYLOG_BIN=/path/to/paylog OTHER_BIN="/path/to/one /path/to/another" Tools/http-bodies-bench.sh
#
# With OTHER_BIN (one binary or several, separated by spaces), every figure is measured for each binary, alternating,
# so that a change can be judged on the same spell of the machine. Settings (environment): RUNS (default 3, for the single-client bodies), SECONDS_EACH
# (wrk duration, default 10), STORES (the directory the stores are made in, default .build/http-bodies-bench:
# on the repository's disk, since a tmpfs would make every fsync free), SCENARIOS (the scenarios to run, separated by
# spaces, say "uploads-4 wrk-8-c64"; default all), INGEST_BATCH_LINES (below). Needs wrk, curl and python3.
#
# Scenarios, each on a fresh store and a fresh `paylog serve --port 0`:
#   body-6k      one client POSTs one body of 6,000 lines (2,000 SumUp payments: request, app switch, callback);
#                every line must be accepted. Prints the seconds and the lines a second.
#   body-60k     one client POSTs one body of 60,000 lines while another records a payment (POST /v1/payments)
#                every 40 ms; prints the body's seconds and the other client's median and slowest answer.
#   uploads-4    four clients each POST a body of 60,000 lines at once while another records a payment every 40 ms;
#                prints the four bodies' seconds (the slowest) and the other client's median and slowest answer.
#   ingest-beside  `paylog ingest` of the four uploads' 240,000 lines in another process, on the server's store,
#                while a client records a payment through the server every 40 ms; prints the ingest's seconds and the
#                client's median and slowest answer (LMDB's writer lock is the processes' only turn-taking). INGEST_BATCH_LINES
#                (say "8192 2048 1024") runs it once per `--batch-lines` value (OTHER_BIN builds need the option
#                too); by default, without the option. The payments are recorded only while the ingest runs.
#   wrk-N-cC     wrk with C connections (64, 4) for SECONDS_EACH seconds, each request a body of N request lines
#                (1, 8, 9, 64: 8 is the most recorded line by line) for payments of their own; prints requests/s,
#                lines/s and p99 latency.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=${PAYLOG_BIN:-.build/release/paylog}
RUNS=${RUNS:-3}
SECONDS_EACH=${SECONDS_EACH:-10}
STORES=${STORES:-$ROOT/.build/http-bodies-bench}

fail() { echo "http-bodies-bench: FAIL: $*" >&2; exit 1; }
say() { echo "http-bodies-bench: $*" >&2; }

for tool in wrk curl python3; do
    command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (Debian: apt-get install $tool)"
done
# shellcheck source=Tools/serve-lib.sh
. "$ROOT/Tools/serve-lib.sh"
ensure_binary
BINARIES=("$BIN")
for other in ${OTHER_BIN:-}; do
    [ -x "$other" ] || fail "OTHER_BIN: $other is not an executable"
    BINARIES+=("$other")
done

# wanted NAME: whether scenario NAME is to run.
wanted() { [ -z "${SCENARIOS:-}" ] || [[ " $SCENARIOS " == *" $1 "* ]]; }

mkdir -p "$STORES"
WORK=$(mktemp -d "$STORES/run.XXXXXX")
trap serve_cleanup EXIT
trap 'exit 130' INT TERM

# body FILE FIRST COUNT: COUNT SumUp payments from number FIRST on, three observations each.
body() {
    python3 - "$@" <<'PY'
import json, sys
path, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as out:
    for i in range(first, first + count):
        payment, ref = f"bench-{i:07d}", f"ref-{i:07d}"
        at = f"2026-11-22T{10 + (i // 3600) % 10:02d}:{(i // 60) % 60:02d}:{i % 60:02d}Z"
        url = (f"sumupmerchant://pay/1.0?amount={i % 90 + 1}.50&currency=EUR&affiliate-key=bench-key&foreign-tx-id={ref}"
               "&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail")
        out.write(json.dumps({"kind": "request", "payment": payment, "at": at, "app_version": "1.88.0", "url": url}) + "\n")
        out.write(json.dumps({"kind": "app_switch", "payment": payment, "at": at}) + "\n")
        out.write(json.dumps({"kind": "callback", "at": at,
                              "url": f"myshop://ok?smp-status=success&smp-tx-code=TX{i}&foreign-tx-id={ref}"}) + "\n")
PY
}
body "$WORK/6k.jsonl" 0 2000
body "$WORK/60k.jsonl" 0 20000
for upload in 1 2 3 4; do body "$WORK/upload-$upload.jsonl" $((upload * 100000)) 20000; done

cat >"$WORK/bodies.lua" <<'LUA'
-- Each request a body of LINES request lines, each for a payment of its own.
local threads = {}
function setup(thread) table.insert(threads, thread); thread:set("thread_id", #threads) end
function init(args)
  sent = 0
  headers = { ["Authorization"] = "Bearer " .. os.getenv("PAYLOG_KEY"), ["Content-Type"] = "application/x-ndjson" }
  lines = tonumber(os.getenv("LINES"))
end
function request()
  sent = sent + 1
  local parts = {}
  for i = 1, lines do
    local payment = string.format("wrk-%d-%d-%d", thread_id, sent, i)
    parts[i] = '{"kind":"request","payment":"' .. payment .. '","at":"2026-11-22T10:00:00Z","app_version":"1.88.0",'
      .. '"url":"sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=bench-key&foreign-tx-id=' .. payment
      .. '&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"}'
  end
  return wrk.format("POST", "/v1/observations", headers, table.concat(parts, "\n") .. "\n")
end
LUA

# fresh BINARY: a new store with an ingest key, and `paylog serve` on it (sets SERVER_PID, BASE, PAYLOG_KEY).
fresh() {
    BIN=$1
    rm -rf "$WORK/store" "$WORK/serve.log"
    PAYLOG_KEY=$("$BIN" keys add --store "$WORK/store" --name bench --scopes ingest,read --json |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
    export PAYLOG_KEY
    start_server "$WORK/store" "$WORK/serve.log"
}

# stop BINARY: stops the server with SIGTERM. The binary measured (PAYLOG_BIN) must exit 0; for OTHER_BIN (an older
# build, which may have the bugs a change fixed) a failed exit is noted instead: STOPPED is set to
# " (exit N after SIGTERM)" for its row (empty after a clean exit).
stop() {
    STOPPED=""
    if [ "$1" = "${BINARIES[0]}" ]; then
        stop_server "$WORK/serve.log" >/dev/null
        return
    fi
    kill -TERM "$SERVER_PID"
    local status=0
    wait "$SERVER_PID" || status=$?
    SERVER_PID=""
    [ "$status" = 0 ] || STOPPED=" (exit $status after SIGTERM)"
}

# live [PID]: records a payment (POST /v1/payments) every 40 ms, appending each answer's seconds to live.txt: 40
# times, or, given PID, for as long as that process runs (at most 1,000 times). Prints the median and the slowest
# (and, given PID, how many were recorded).
live() {
    : >"$WORK/live.txt"
    local i=0
    while if [ -n "${1:-}" ]; then kill -0 "$1" 2>/dev/null && [ "$i" -lt 1000 ]; else [ "$i" -lt 40 ]; fi; do
        i=$((i + 1))
        sleep 0.04
        curl -s -o /dev/null -w '%{time_total}\n' -X POST "$BASE/v1/payments" -H "Authorization: Bearer $PAYLOG_KEY" \
            -d "{\"payment\":\"live-$i\",\"url\":\"sumupmerchant://pay/1.0?amount=1.00&currency=EUR&affiliate-key=k&foreign-tx-id=live-$i&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail\"}" \
            >>"$WORK/live.txt"
    done
    local count=""
    [ -n "${1:-}" ] && count=" of {len(l)}"
    python3 -c "l = sorted(float(x) for x in open('$WORK/live.txt')); print(f'{l[len(l) // 2] * 1000:.1f} ms median, {l[-1] * 1000:.1f} ms slowest$count')"
}

# post FILE: POSTs FILE as one body; prints "seconds lines accepted", or "seconds error CODE" when the answer is
# not a report (a body that outlasted the server's request timeout, say).
post() {
    # `Expect:` empty: curl would otherwise ask 100-continue for a body over 1 MiB, and a server that does not
    # answer it (paylog before the forty-fourth round) costs a second of waiting that is not recording.
    curl -s -o "$WORK/reply.json" -w '%{time_total}' -X POST "$BASE/v1/observations" -H 'Expect:' \
        -H "Authorization: Bearer $PAYLOG_KEY" -H 'Content-Type: application/x-ndjson' --data-binary "@$1" >"$WORK/time"
    python3 - "$WORK/reply.json" "$WORK/time" <<'PY'
import json, sys
seconds = open(sys.argv[2]).read().strip()
try:
    reply = json.load(open(sys.argv[1]))
except ValueError:
    reply = {}
if "accepted" in reply:
    print(seconds, reply["lines"], reply["accepted"])
else:
    print(seconds, "error", reply.get("error", {}).get("code", "no-json-answer"))
PY
}

echo "| scenario | binary | run | figure |"
echo "|---|---|---|---|"
for run in $(seq 1 "$RUNS"); do
    wanted body-6k || break
    for binary in "${BINARIES[@]}"; do
        fresh "$binary"
        read -r seconds lines accepted <<<"$(post "$WORK/6k.jsonl")"
        [ "$lines" != error ] && [ "$accepted" = 6000 ] || fail "$binary: body-6k accepted $accepted of $lines lines"
        stop "$binary"
        echo "| body-6k | \`$binary\` | $run | $seconds s, $(python3 -c "print(round(6000 / $seconds))") lines/s$STOPPED |"
    done
done

for binary in "${BINARIES[@]}"; do
    wanted body-60k || break
    fresh "$binary"
    post "$WORK/60k.jsonl" >"$WORK/60k.out" &
    BODY=$!
    live=$(live)
    wait "$BODY"
    read -r seconds lines accepted <"$WORK/60k.out"
    stop "$binary"
    if [ "$lines" = error ]; then
        echo "| body-60k | \`$binary\` | 1 | $seconds s, answered \`$accepted\`$STOPPED |"
        continue
    fi
    [ "$accepted" = 60000 ] || fail "$binary: body-60k accepted $accepted of $lines lines"
    echo "| body-60k | \`$binary\` | 1 | $seconds s, $(python3 -c "print(round(60000 / $seconds))") lines/s; a payment recorded meanwhile every 40 ms: $live$STOPPED |"
done

for binary in "${BINARIES[@]}"; do
    wanted uploads-4 || break
    fresh "$binary"
    UPLOADS=()
    for upload in 1 2 3 4; do
        post "$WORK/upload-$upload.jsonl" >"$WORK/upload-$upload.out" &
        UPLOADS+=($!)
    done
    live=$(live)
    for pid in "${UPLOADS[@]}"; do wait "$pid"; done
    stop "$binary"
    slowest=0
    for upload in 1 2 3 4; do
        read -r seconds lines accepted <"$WORK/upload-$upload.out"
        [ "$lines" != error ] && [ "$accepted" = 60000 ] || fail "$binary: uploads-4 body $upload accepted $accepted of $lines lines"
        slowest=$(python3 -c "print(max($slowest, $seconds))")
    done
    echo "| uploads-4 | \`$binary\` | 1 | $slowest s for all four, $(python3 -c "print(round(240000 / $slowest))") lines/s; a payment recorded meanwhile every 40 ms: $live$STOPPED |"
done

cat "$WORK"/upload-[1-4].jsonl >"$WORK/240k.jsonl"
for binary in "${BINARIES[@]}"; do
    wanted ingest-beside || break
    for lines in ${INGEST_BATCH_LINES:-default}; do
        batch_args=()
        [ "$lines" = default ] || batch_args=(--batch-lines "$lines")
        fresh "$binary"
        (
            start=$(date +%s%N)
            "$binary" ingest --store "$WORK/store" --json ${batch_args[@]+"${batch_args[@]}"} "$WORK/240k.jsonl" >"$WORK/ingest.json"
            echo $(( ($(date +%s%N) - start) / 1000000 )) >"$WORK/ingest.ms"
        ) &
        INGEST=$!
        # The till's payments only while the ingest runs, so that none of them falls after it.
        live=$(live "$INGEST")
        wait "$INGEST" || fail "$binary: paylog ingest beside the server failed"
        seconds=$(python3 -c "print(f'{$(cat "$WORK/ingest.ms") / 1000:.2f}')")
        accepted=$(python3 -c "import json; print(json.load(open('$WORK/ingest.json'))['accepted'])")
        stop "$binary"
        [ "$accepted" = 240000 ] || fail "$binary: ingest-beside accepted $accepted of 240000 lines"
        echo "| ingest-beside ($lines) | \`$binary\` | 1 | $seconds s, $(python3 -c "print(round(240000 / $seconds))") lines/s; a payment recorded through the server meanwhile every 40 ms: $live$STOPPED |"
    done
done

for connections in 64 4; do
    for lines in 1 8 9 64; do
        wanted "wrk-$lines-c$connections" || continue
        for binary in "${BINARIES[@]}"; do
            fresh "$binary"
            LINES=$lines wrk -t2 -c"$connections" -d"${SECONDS_EACH}s" --timeout 10s --latency -s "$WORK/bodies.lua" \
                "$BASE/v1/observations" >"$WORK/wrk.txt"
            stop "$binary"
            grep -q 'Non-2xx' "$WORK/wrk.txt" && fail "$binary: wrk-$lines-c$connections got answers other than 2xx"
            requests=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk.txt")
            p99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk.txt")
            echo "| wrk-$lines-c$connections | \`$binary\` | 1 | $requests requests/s, $(python3 -c "print(round($requests * $lines))") lines/s, p99 $p99$STOPPED |"
        done
    done
done
