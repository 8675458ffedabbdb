#!/usr/bin/env bash
# Regenerates the golden logs under Tests/Golden from today's code: a small exported log and the views it
# must replay to. Run it only when a change to history's meaning is intended, and say so in the commit:
# the golden-log test fails whenever the current code reads the committed logs differently.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/ensure-deps.sh
swift build --product paylog
paylog=.build/debug/paylog
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p Tests/Golden
"$paylog" demo --payments 40 --seed 2026 --store "$work/store" >/dev/null
"$paylog" export --store "$work/store" -o Tests/Golden/demo-40.export.jsonl
"$paylog" status --json --store "$work/store" > Tests/Golden/demo-40.status.jsonl
"$paylog" replay --json --store "$work/store" > Tests/Golden/demo-40.replay.json || true
"$paylog" audit pay-0011 --json --store "$work/store" > Tests/Golden/demo-40.audit-pay-0011.json
echo "golden logs written to Tests/Golden"
