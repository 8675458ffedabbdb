#!/usr/bin/env bash
# Regenerates the committed Swift code for the protobuf schemas. Run only after editing a .proto file;
# the build never needs protoc. Needs `protoc` (Debian: protobuf-compiler) and `protoc-gen-swift` on PATH
# (build it once from swift-protobuf: `swift build -c release --product protoc-gen-swift`).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v protoc >/dev/null || { echo "protoc is missing: apt-get install protobuf-compiler" >&2; exit 2; }
command -v protoc-gen-swift >/dev/null || { echo "protoc-gen-swift is missing: build it from swift-protobuf and put it on PATH" >&2; exit 2; }
for schema in Sources/*/Schema/*.proto; do
  dir="$(dirname "$schema")"
  target="$(dirname "$dir")"
  protoc --proto_path="$dir" --swift_opt=Visibility=Package --swift_out="$target/Generated" "$schema"
  echo "generated $target/Generated from $schema"
done
