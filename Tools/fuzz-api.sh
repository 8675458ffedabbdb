#!/usr/bin/env bash
# Schema-driven fuzzing of `paylog serve` with schemathesis against Docs/openapi.yaml, on a fresh store.
#
#   Tools/fuzz-api.sh                          # builds .build/release/paylog when missing
#   PAYLOG_BIN=/path/to/paylog Tools/fuzz-api.sh
#
# Settings (environment): MAX_EXAMPLES (per operation, default 50), MAX_TIME (seconds for schemathesis,
# default 240), WORKERS (default 2), SEED (default 20261122), FUZZ_OUT (where the reports stay, default
# .build/fuzz-api).
#
# What it checks:
#   1. schemathesis: no 5xx (not_a_server_error), every status, content type, header and body documented
#      (status_code_conformance, content_type_conformance, response_headers_conformance,
#      response_schema_conformance). Every request and response is kept in FUZZ_OUT/requests.har.
#   2. No event appended by a rejected request: after SIGTERM, the events in the log must equal the events
#      seeded before the server started (`paylog demo --payments 60`) plus those the 2xx answers report,
#      counted from the HAR:
#        - `events_appended` of each 2xx answer (payments, app-switch, callbacks, observations,
#          reconciliations), except answers with `Idempotent-Replayed: true` (a stored answer, nothing ran);
#        - the Square web callback's 200 does not carry `events_appended` (it appends 1 or 2 events: the
#          callback, plus Offline or Failed); its share is read from the server's own counter
#          paylog_events_appended_total{endpoint="square-callback"} before shutdown, and must lie between
#          1× and 2× the number of its 200 answers (0 when there were none).
#      Any event beyond that sum was appended by a request that was answered 4xx (or not answered).
#   3. The server stops cleanly on SIGTERM (exit 0), `paylog verify` exits 0, and `paylog replay` exits 0 or
#      5 (5 = error-severity compatibility findings, expected on fuzzed evidence) with the projections
#      matching and the chain intact; 3 (broken chain) or 4 (projection drift) fail the run.
set -euo pipefail

# The schemathesis this script was written for (its 4.x CLI flags); installed only when `st` is missing.
SCHEMATHESIS_REQUIREMENT='schemathesis==4.32.5'

cd "$(dirname "$0")/.."
ROOT=$(pwd)
BIN=${PAYLOG_BIN:-.build/release/paylog}
MAX_EXAMPLES=${MAX_EXAMPLES:-50}
MAX_TIME=${MAX_TIME:-240}
WORKERS=${WORKERS:-2}
SEED=${SEED:-20261122}
OUT=${FUZZ_OUT:-.build/fuzz-api}

fail() { echo "fuzz-api: FAIL: $*" >&2; exit 1; }
say() { echo "fuzz-api: $*"; }

# shellcheck source=Tools/serve-lib.sh
. "$ROOT/Tools/serve-lib.sh"
ensure_binary

if ! command -v st >/dev/null 2>&1; then
    say "installing $SCHEMATHESIS_REQUIREMENT"
    python3 -m pip install --quiet "$SCHEMATHESIS_REQUIREMENT"
fi
ST_VERSION=$(st --version 2>/dev/null | sed -n 's/.*version \([0-9][0-9.]*\).*/\1/p')
case "$ST_VERSION" in 4.*) ;; *) fail "schemathesis 4.x is needed (found '${ST_VERSION:-none}'); pip install '$SCHEMATHESIS_REQUIREMENT'" ;; esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/paylog-fuzz.XXXXXX")
trap serve_cleanup EXIT
trap 'exit 130' INT TERM

STORE="$WORK/store"
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# Seed a realistic day (60 payments of every provider and scenario, ids pay-0001…pay-0060) so that the read
# endpoints have something to read and the path examples (pay-0001) exist.
"$BIN" demo --store "$STORE" --payments 60 >"$OUT/demo.txt" 2>&1 || fail "paylog demo failed (see $OUT/demo.txt)"
SEEDED=$("$BIN" log --store "$STORE" --json --limit 1000000000 | wc -l | tr -d ' ')
say "seeded $SEEDED events (paylog demo --payments 60)"

KEY=$("$BIN" keys add --store "$STORE" --name fuzz --scopes ingest,read,audit,admin --json |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["key"])')

start_server "$STORE" "$OUT/server.log"
say "server $BASE (pid $SERVER_PID), store $STORE"

# schemathesis has no serializer for application/x-ndjson: send the generated string as text, as is.
mkdir -p "$WORK/hooks"
cat >"$WORK/hooks/paylog_fuzz_hooks.py" <<'PY'
import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "text/plain")
PY

say "schemathesis $ST_VERSION: up to $MAX_EXAMPLES examples per operation, at most ${MAX_TIME}s, $WORKERS workers, seed $SEED"
ST_STATUS=0
PYTHONPATH="$WORK/hooks${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=paylog_fuzz_hooks \
    st run "$ROOT/Docs/openapi.yaml" \
    --url "$BASE" \
    -H "Authorization: Bearer $KEY" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --phases examples,coverage,fuzzing \
    --max-examples "$MAX_EXAMPLES" \
    --max-time "$MAX_TIME" \
    --workers "$WORKERS" \
    --seed "$SEED" \
    --request-timeout 30 \
    --suppress-health-check all \
    --continue-on-failure \
    --report har,junit \
    --report-dir "$OUT" \
    --report-har-path "$OUT/requests.har" \
    --report-junit-path "$OUT/junit.xml" \
    --output-truncate false \
    >"$OUT/schemathesis.txt" 2>&1 || ST_STATUS=$?
tail -n 40 "$OUT/schemathesis.txt"

# The server's own count of events appended by the Square web callback (it does not answer events_appended).
curl -sf "$BASE/metrics" >"$OUT/metrics.txt" || fail "GET /metrics failed after the run"

stop_server "$OUT/server.log"

"$BIN" log --store "$STORE" --json --limit 1000000000 >"$OUT/log.jsonl"
LOG_EVENTS=$(wc -l <"$OUT/log.jsonl" | tr -d ' ')

python3 - "$OUT/requests.har" "$OUT/metrics.txt" "$LOG_EVENTS" "$SEEDED" >"$OUT/events-check.txt" <<'PY' || { cat "$OUT/events-check.txt" >&2; fail "events in the log do not match the acknowledged requests (see $OUT/events-check.txt)"; }
import collections, json, re, sys
from urllib.parse import urlsplit

har_path, metrics_path, log_events, seeded = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
entries = json.load(open(har_path))["log"]["entries"]
by_status = collections.Counter()
by_route = collections.Counter()
acknowledged = 0          # sum of events_appended over 2xx answers that ran (not replayed)
replayed = 0
square_ok = 0
problems = []
for entry in entries:
    request, response = entry["request"], entry["response"]
    status = response["status"]
    path = urlsplit(request["url"]).path
    by_status[status] += 1
    by_route[(request["method"], re.sub(r"^/v1/payments/[^/]+", "/v1/payments/{id}", path), status)] += 1
    if not 200 <= status < 300 or request["method"] != "POST" and path != "/v1/callbacks/square":
        continue
    headers = {h["name"].lower(): h["value"] for h in response.get("headers", [])}
    if headers.get("idempotent-replayed") == "true":
        replayed += 1
        continue
    if path == "/v1/callbacks/square":
        square_ok += 1
        continue
    text = response.get("content", {}).get("text", "")
    try:
        body = json.loads(text)
        acknowledged += int(body["events_appended"])
    except Exception as error:
        problems.append(f"{request['method']} {request['url']} answered {status} without events_appended: {text[:200]!r} ({error})")

square_events = 0
for line in open(metrics_path):
    match = re.match(r'paylog_events_appended_total\{endpoint="square-callback"\}\s+([0-9.e+]+)', line)
    if match:
        square_events = int(float(match.group(1)))
if not square_ok <= square_events <= 2 * square_ok:
    problems.append(f"the server counts {square_events} events from {square_ok} Square callback 200s (expected 1–2 each)")

expected = seeded + acknowledged + square_events
print(f"requests recorded: {len(entries)}")
print("by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(by_status.items())))
for (method, route, status), n in sorted(by_route.items()):
    print(f"  {method:4} {route:36} {status}: {n}")
print(f"idempotent replays (2xx, nothing appended): {replayed}")
print(f"events: seeded {seeded} + acknowledged by 2xx answers {acknowledged} + Square callbacks {square_events} ({square_ok} answers) = {expected}")
print(f"events in the log: {log_events}")
if log_events != expected:
    problems.append(
        f"the log holds {log_events} events but the 2xx answers account for {expected}: "
        + ("a rejected or unanswered request appended events" if log_events > expected else "an acknowledged event is missing"))
for problem in problems:
    print("PROBLEM: " + problem)
sys.exit(1 if problems else 0)
PY
grep -v "^  " "$OUT/events-check.txt"  # the per-route table stays in the file

VERIFY_STATUS=0
"$BIN" verify --store "$STORE" >"$OUT/verify.txt" 2>&1 || VERIFY_STATUS=$?
cat "$OUT/verify.txt"
[ "$VERIFY_STATUS" = 0 ] || fail "paylog verify exited $VERIFY_STATUS"

REPLAY_STATUS=0
"$BIN" replay --store "$STORE" --json >"$OUT/replay.json" 2>"$OUT/replay.err" || REPLAY_STATUS=$?
python3 - "$OUT/replay.json" "$REPLAY_STATUS" <<'PY' || fail "paylog replay exited $REPLAY_STATUS (see $OUT/replay.json)"
import json, sys
report = json.load(open(sys.argv[1]))
status = int(sys.argv[2])
errors = sum(1 for f in report["findings"] if f["severity"] == "error")
print(f"replay: {report['events']} events, {report['payments']} payments, projections_match={report['projections_match']}, "
      f"chain_ok={report['chain_ok']}, {errors} error finding(s), exit {status}")
ok = status in (0, 5) and report["projections_match"] and report["chain_ok"] and "rebuild_error" not in report
sys.exit(0 if ok else 1)
PY

[ "$ST_STATUS" = 0 ] || fail "schemathesis reported failures (exit $ST_STATUS); see $OUT/schemathesis.txt and $OUT/junit.xml"
say "PASS: no 5xx, every response as documented, no event from a rejected request, replay and verify clean"
say "reports in $OUT (requests.har: every request and response)"
