#!/usr/bin/env bash
# The full test suite under AddressSanitizer, in a build folder of its own (.build-asan, ignored by git), so that the
# usual build is left as it is. A memory error stops the run with a report naming where it was read or written and
# where that memory came from: how the crash of the forty-ninth round (Docs/performance-history.md) was found. Takes
# a first build of about 4.5 minutes and a run of about 5 on two cores. Extra arguments go to `swift test` (say,
# --filter).
set -euo pipefail
cd "$(dirname "$0")/.."
Tools/ensure-deps.sh --tests
swift build --build-tests --sanitize=address --scratch-path .build-asan
# Leaks are not what this looks for: Swift's runtime and Foundation keep caches for the process's life.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-threads=crashed,images=none}"
swift test --skip-build --sanitize=address --scratch-path .build-asan "$@"
