#!/usr/bin/env bash
# The full test suite: installs missing system packages, builds everything, runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/ensure-deps.sh --tests
swift build --build-tests
# A crash prints the crashed thread's backtrace only: with a few hundred threads in the test process, a backtrace of
# every thread took 37 s and pushed the crashed one out of the part of CI's log that is kept. Set SWIFT_BACKTRACE to
# override (for example threads=all).
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-threads=crashed,images=none}"
swift test --skip-build "$@"
