#!/usr/bin/env bash
# The main job on the embedded default store ($PAYLOG_STORE, else ./paylog-data): installs missing system
# packages, builds paylog in release mode and runs `paylog demo`. Extra arguments go to `paylog demo`.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/ensure-deps.sh
swift build -c release --product paylog
exec .build/release/paylog demo "$@"
