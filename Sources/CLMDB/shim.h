#ifndef PAYLOG_CLMDB_SHIM_H
#define PAYLOG_CLMDB_SHIM_H
/* paylog's whole C layer: LMDB (the log) and zstd (the stored payloads' compression), both from Debian. */
#include <lmdb.h>
#include <zstd.h>
#endif
