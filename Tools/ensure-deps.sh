#!/usr/bin/env bash
# Installs what building paylog needs from Debian/Ubuntu when it is missing: liblmdb-dev (lmdb.h, liblmdb.so,
# lmdb.pc), libzstd-dev (zstd.h, libzstd.so: the stored payloads' compression) and pkg-config; with --tests, also
# strace (a test watches the system calls a new store makes to be durable). Safe to run again; does nothing when
# everything is there.
set -euo pipefail
missing=()
[ -f /usr/include/lmdb.h ] || missing+=(liblmdb-dev)
[ -f /usr/include/zstd.h ] || missing+=(libzstd-dev)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if [ "${1:-}" = --tests ]; then command -v strace >/dev/null 2>&1 || missing+=(strace); fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "paylog: installing ${missing[*]} ..." >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
  echo "paylog: need root or sudo to install ${missing[*]} (apt-get install ${missing[*]})" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
