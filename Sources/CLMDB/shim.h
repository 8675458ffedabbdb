#ifndef PAYLOG_CLMDB_SHIM_H
#define PAYLOG_CLMDB_SHIM_H
#include <lmdb.h>
#endif
