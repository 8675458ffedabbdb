#ifndef PAYLOG_CLMDB_SHIM_H
#define PAYLOG_CLMDB_SHIM_H
/* paylog's whole C layer: LMDB (the log) and zstd (the stored payloads' compression), both from Debian. */
#include <lmdb.h>
#include <zstd.h>
#include <stddef.h>

/* Asks the CPU to start loading the cache lines of [start, start + bytes) for reading, without waiting for them
   (a hint: it never faults, and does nothing for memory that is not mapped). LMDBKit's read-ahead walk
   (Cursor+ReadAhead.swift) calls it on the next value while the caller decodes the current one. */
static inline void paylog_prefetch(const void *start, size_t bytes) {
    const char *bytePointer = (const char *)start;
    for (size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(bytePointer + offset, 0, 3);
}
#endif
