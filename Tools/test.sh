#!/usr/bin/env bash
# The full test suite: installs missing system packages, builds everything, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/ensure-deps.sh --tests
swift build --build-tests
swift test --skip-build "$@"
