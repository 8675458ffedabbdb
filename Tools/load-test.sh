#!/usr/bin/env bash
# HTTP load test of `paylog serve` with wrk, on loopback, bounded in time, on a fresh store.
#
#   Tools/load-test.sh                                   # builds .build/release/paylog when missing
#   PAYLOG_BIN=/path/to/paylog PAYLOG_BUILD=debug Tools/load-test.sh
#
# Settings (environment): DURATION (seconds, default 20), CONNECTIONS (default 64), THREADS (default 2),
# PAYLOG_BUILD (label for the report: release/debug; guessed from the path), PERF_DOC (default
# Docs/performance.md; set PERF_DOC= to skip writing it).
#
# Every request POSTs /v1/observations with one `request` line for a payment of its own (load-<thread>-<n>,
# a valid SumUp launch URL). Afterwards, with the server stopped by SIGTERM:
#   - every answer read must be 200 with events_appended 1 (no 4xx, no 5xx, no socket errors but the
#     connections wrk cuts when time is up);
#   - events in the log == acknowledged requests (200 answers), exactly. The only tolerated surplus is
#     requests wrk had sent but whose answers it had not read when the duration ended: the server still
#     appends them. That surplus is reported separately and may not exceed the requests sent without an
#     answer (at most one per connection);
#   - every event is the only one of its payment, and every payment is one of the load-<thread>-<n> ids
#     wrk sent (nothing else and nothing twice was appended);
#   - `paylog verify` exits 0 and `paylog replay --json` reports projections_match true (exit 0).
# Then throughput and p50/p90/p99 latency are printed and written to PERF_DOC between
# <!-- load-test:begin --> and <!-- load-test:end --> (the rest of the file is left alone).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=${PAYLOG_BIN:-.build/release/paylog}
DURATION=${DURATION:-20}
CONNECTIONS=${CONNECTIONS:-64}
THREADS=${THREADS:-2}
PERF_DOC=${PERF_DOC-Docs/performance.md}

fail() { echo "load-test: FAIL: $*" >&2; exit 1; }
say() { echo "load-test: $*"; }

command -v wrk >/dev/null 2>&1 || fail "wrk is not installed (Debian: apt-get install wrk)"
# shellcheck source=Tools/serve-lib.sh
. "$ROOT/Tools/serve-lib.sh"
ensure_binary
if [ -z "${PAYLOG_BUILD:-}" ]; then
    case "$BIN" in */release/*) PAYLOG_BUILD=release ;; */debug/*) PAYLOG_BUILD=debug ;; *) PAYLOG_BUILD=unknown ;; esac
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/paylog-load.XXXXXX")
trap serve_cleanup EXIT
trap 'exit 130' INT TERM

STORE="$WORK/store"
PAYLOG_KEY=$("$BIN" keys add --store "$STORE" --name load --scopes ingest,read --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')
export PAYLOG_KEY

start_server "$STORE" "$WORK/server.log"

cat >"$WORK/load.lua" <<'LUA'
-- One observation per request, each for a payment of its own: load-<thread>-<n>.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_id", #threads)
end

function init(args)
  sent, answered, acknowledged, other_200 = 0, 0, 0, 0
  statuses = {}
  headers = {
    ["Authorization"] = "Bearer " .. os.getenv("PAYLOG_KEY"),
    ["Content-Type"] = "application/x-ndjson",
  }
end

function request()
  sent = sent + 1
  local payment = string.format("load-%d-%d", thread_id, sent)
  local body = '{"kind":"request","payment":"' .. payment .. '","at":"2026-11-22T10:00:00Z","app_version":"1.88.0",'
    .. '"url":"sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=load-test-key&foreign-tx-id=' .. payment
    .. '&callbacksuccess=myshop%3A%2F%2Fpaylog-callback%3Fpaylog_payment%3D' .. payment
    .. '&callbackfail=myshop%3A%2F%2Fpaylog-callback%3Fpaylog_payment%3D' .. payment .. '"}\n'
  return wrk.format("POST", "/v1/observations", headers, body)
end

function response(status, headers, body)
  answered = answered + 1
  statuses[status] = (statuses[status] or 0) + 1
  if status == 200 then
    if string.find(body, '"events_appended":1,', 1, true) and string.find(body, '"rejected":0', 1, true) then
      acknowledged = acknowledged + 1
    else
      other_200 = other_200 + 1
    end
  end
end

function done(summary, latency, requests)
  local totals = { sent = 0, answered = 0, acknowledged = 0, other_200 = 0 }
  local by_status = {}
  for _, thread in ipairs(threads) do
    for name, _ in pairs(totals) do totals[name] = totals[name] + thread:get(name) end
    for status, count in pairs(thread:get("statuses")) do by_status[status] = (by_status[status] or 0) + count end
  end
  local per_thread = {}
  for index, thread in ipairs(threads) do table.insert(per_thread, index .. ":" .. thread:get("sent")) end
  local codes = {}
  for status, count in pairs(by_status) do table.insert(codes, status .. ":" .. count) end
  table.sort(codes)
  local e = summary.errors
  io.write(string.format(
    "LOADTEST sent=%d sent_by_thread=%s answered=%d acknowledged=%d other_200=%d statuses=%s wrk_requests=%d duration_us=%d "
      .. "connect_errors=%d read_errors=%d write_errors=%d status_errors=%d timeouts=%d "
      .. "p50_us=%d p90_us=%d p99_us=%d max_us=%d mean_us=%.0f\n",
    totals.sent, table.concat(per_thread, ","), totals.answered, totals.acknowledged, totals.other_200, table.concat(codes, ","),
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
LUA

COMMAND="wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency -s load.lua $BASE/v1/observations"
say "$BASE, $PAYLOG_BUILD build: $COMMAND"
wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --timeout 10s --latency -s "$WORK/load.lua" "$BASE/v1/observations" \
    | tee "$WORK/wrk.txt"
LINE=$(grep '^LOADTEST ' "$WORK/wrk.txt") || fail "wrk printed no LOADTEST summary"
field() { echo "$LINE" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
SENT=$(field sent); ANSWERED=$(field answered); ACK=$(field acknowledged); OTHER200=$(field other_200)
STATUSES=$(field statuses); DURATION_US=$(field duration_us)
P50=$(field p50_us); P90=$(field p90_us); P99=$(field p99_us); MAX=$(field max_us)
CONNECT_ERR=$(field connect_errors); WRITE_ERR=$(field write_errors); TIMEOUTS=$(field timeouts); STATUS_ERR=$(field status_errors)

METRICS=$(curl -sf "$BASE/metrics") || fail "GET /metrics failed after the run"
GROUP_SUM=$(echo "$METRICS" | sed -n 's/^paylog_group_commit_size_sum \(.*\)/\1/p')
GROUP_COUNT=$(echo "$METRICS" | sed -n 's/^paylog_group_commit_size_count \(.*\)/\1/p')

stop_server "$WORK/server.log"

"$BIN" log --store "$STORE" --json --limit 1000000000 >"$WORK/log.jsonl"
EVENTS=$(wc -l <"$WORK/log.jsonl" | tr -d ' ')
python3 - "$WORK/log.jsonl" "$(field sent_by_thread)" <<'PY' || fail "the log holds events that no load request explains (see above)"
import collections, json, re, sys
sent = {int(t): int(n) for t, n in (pair.split(":") for pair in sys.argv[2].split(","))}
streams = collections.Counter()
bad = []
for line in open(sys.argv[1]):
    event = json.loads(line)
    stream = event.get("stream")
    streams[stream] += 1
    match = re.fullmatch(r"load-([0-9]+)-([0-9]+)", str(stream))
    if not match or not 1 <= int(match.group(2)) <= sent.get(int(match.group(1)), 0) \
            or event.get("type") != "Requested" or event.get("version") != 1:
        bad.append(event)
twice = [s for s, n in streams.items() if n > 1]
for event in bad[:5]:
    print("unexpected event:", {k: event.get(k) for k in ("position", "stream", "version", "type")})
if twice:
    print("payments with more than one event:", twice[:5])
sys.exit(1 if bad or twice else 0)
PY

VERIFY_STATUS=0
"$BIN" verify --store "$STORE" >"$WORK/verify.txt" 2>&1 || VERIFY_STATUS=$?
REPLAY_STATUS=0
"$BIN" replay --store "$STORE" --json >"$WORK/replay.json" 2>/dev/null || REPLAY_STATUS=$?
MATCH=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("true" if r["projections_match"] and r["chain_ok"] else "false")' "$WORK/replay.json" 2>/dev/null || echo "unreadable")

UNANSWERED=$((SENT - ANSWERED))
SURPLUS=$((EVENTS - ACK))
RPS=$(python3 -c "print(f'{$ANSWERED / ($DURATION_US / 1e6):.0f}')")
ms() { python3 -c "print(f'{$1 / 1000:.2f}')"; }
MEAN_BATCH=$(python3 -c "s, c = '${GROUP_SUM:-0}', '${GROUP_COUNT:-0}'; print(f'{float(s) / float(c):.1f}' if float(c) else 'n/a')")

echo
say "requests sent $SENT, answered $ANSWERED (by status: $STATUSES), acknowledged (200, events_appended 1) $ACK"
say "throughput $RPS req/s; latency p50 $(ms "$P50") ms, p90 $(ms "$P90") ms, p99 $(ms "$P99") ms, max $(ms "$MAX") ms"
say "events in the log $EVENTS; sent but unanswered when wrk stopped $UNANSWERED; appended beyond the acknowledged $SURPLUS"
say "group commits: mean batch $MEAN_BATCH events; paylog verify exit $VERIFY_STATUS; paylog replay exit $REPLAY_STATUS, projections match: $MATCH"

PROBLEMS=()
[ "$OTHER200" = 0 ] || PROBLEMS+=("$OTHER200 answers were 200 without exactly one event appended")
NON200=$(echo "$STATUSES" | tr ',' '\n' | grep -v '^200:' | grep -c . || true)
[ "$NON200" = 0 ] || PROBLEMS+=("answers other than 200: $STATUSES")
[ "$CONNECT_ERR" = 0 ] && [ "$WRITE_ERR" = 0 ] && [ "$TIMEOUTS" = 0 ] && [ "$STATUS_ERR" = 0 ] ||
    PROBLEMS+=("wrk errors: connect $CONNECT_ERR, write $WRITE_ERR, timeout $TIMEOUTS, status $STATUS_ERR")
[ "$ACK" -gt 0 ] || PROBLEMS+=("no request was acknowledged")
if [ "$SURPLUS" -lt 0 ]; then
    PROBLEMS+=("$((-SURPLUS)) acknowledged request(s) are missing from the log")
elif [ "$SURPLUS" -gt "$UNANSWERED" ]; then
    PROBLEMS+=("the log holds $SURPLUS events beyond the acknowledged requests but only $UNANSWERED requests went unanswered")
fi
[ "$VERIFY_STATUS" = 0 ] || PROBLEMS+=("paylog verify exited $VERIFY_STATUS")
[ "$REPLAY_STATUS" = 0 ] && [ "$MATCH" = true ] || PROBLEMS+=("paylog replay exited $REPLAY_STATUS, projections match: $MATCH")

if [ "$SURPLUS" = 0 ]; then
    EXACT="exactly the $ACK acknowledged requests"
else
    EXACT="the $ACK acknowledged requests plus $SURPLUS sent before wrk stopped whose answers it did not read"
fi

if [ -n "$PERF_DOC" ] && [ "${#PROBLEMS[@]}" = 0 ]; then
    CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
    BLOCK="$WORK/block.md"
    {
        echo "<!-- load-test:begin -->"
        echo "## HTTP load test (Tools/load-test.sh)"
        echo
        echo "Written by \`Tools/load-test.sh\` on $(date -u +%Y-%m-%dT%H:%M:%SZ); run it again to replace this section."
        if [ "$PAYLOG_BUILD" != release ]; then
            echo
            echo "**These figures come from a $PAYLOG_BUILD build**, not a release build; re-run with"
            echo "\`swift build -c release --product paylog && Tools/load-test.sh\` for the figures to quote."
        fi
        echo
        echo "- Machine: $(nproc) cores ($CPU), $(uname -sr); server and wrk on the same machine, loopback."
        echo "- Binary: \`paylog\`, $PAYLOG_BUILD build. Fresh store; one \`paylog serve --port 0\`."
        echo "- Command: \`$COMMAND\` (DURATION=$DURATION CONNECTIONS=$CONNECTIONS THREADS=$THREADS)."
        echo "- Work: each request POSTs \`/v1/observations\` with one \`request\` line for a payment of its own"
        echo "  (a SumUp launch URL), so every request appends one event, in a write session the writer groups with the"
        echo "  sessions queued beside it (one commit for the group)."
        echo
        echo "| figure | value |"
        echo "|---|---|"
        echo "| requests sent | $SENT ($UNANSWERED still unanswered when the duration ended) |"
        echo "| requests answered | $ANSWERED in $(python3 -c "print(f'{$DURATION_US / 1e6:.1f}')") s (all $STATUSES) |"
        echo "| throughput | $RPS requests/s = appended events/s |"
        echo "| latency p50 / p90 / p99 / max | $(ms "$P50") / $(ms "$P90") / $(ms "$P99") / $(ms "$MAX") ms |"
        echo "| group commit | mean $MEAN_BATCH events per LMDB commit |"
        echo "| events in the log | $EVENTS: $EXACT |"
        echo "| after SIGTERM | \`paylog verify\` exit 0; \`paylog replay\`: projections match, chain intact |"
        echo "<!-- load-test:end -->"
    } >"$BLOCK"
    python3 - "$PERF_DOC" "$BLOCK" <<'PY'
import os, re, sys
path, block = sys.argv[1], open(sys.argv[2]).read().rstrip("\n")
text = open(path).read() if os.path.exists(path) else "# Performance\n"
pattern = re.compile(r"<!-- load-test:begin -->.*?<!-- load-test:end -->", re.S)
if pattern.search(text):
    text = pattern.sub(lambda _: block, text, count=1)
else:
    text = text.rstrip("\n") + "\n\n" + block + "\n"
with open(path, "w") as out:
    out.write(text if text.endswith("\n") else text + "\n")
PY
    say "wrote the result to $PERF_DOC"
fi

if [ "${#PROBLEMS[@]}" != 0 ]; then
    for problem in "${PROBLEMS[@]}"; do echo "load-test: PROBLEM: $problem" >&2; done
    fail "${#PROBLEMS[@]} problem(s); see above"
fi
say "PASS: the log holds $EXACT; replay finds the projections matching"
