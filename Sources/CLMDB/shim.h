#ifndef PAYLOG_CLMDB_SHIM_H
#define PAYLOG_CLMDB_SHIM_H
/* paylog's whole C layer: LMDB (the log) and zstd (the stored payloads' compression), both from Debian, one Linux
   call that keeps the kernel from mapping more than the page a read of the log's map faults in, and one that names
   a thread. */
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

#ifdef __linux__
#include <sys/prctl.h>

/* Names the calling thread (at most 15 bytes are kept), as `ps -L`, `/proc/PID/task/TID/comm` and crash backtraces
   show it. Returns 0, or -1 with errno set. Swift cannot call the variadic prctl itself. */
static inline int paylog_name_this_thread(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif

#ifdef __linux__
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/userfaultfd.h>
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif
#ifndef UFFD_FEATURE_WP_ASYNC
#define UFFD_FEATURE_WP_ASYNC (1ULL << 15)
#endif

/* Keeps the kernel from mapping the neighbouring pages of [start, start + length) on each read fault there:
   registers the range with a userfaultfd in asynchronous write-protect mode (Linux 6.7+), which the kernel's
   fault path takes as "no fault-around" (mm/memory.c, should_fault_around), and marks it MADV_NOHUGEPAGE, without
   which a fault in a 2 MiB page-cache folio maps the whole folio. Nothing is ever write-protected and no fault is
   ever delivered to the descriptor: reads fault one page each, and nothing else changes. Only after the
   registration worked: with fault-around still on, MADV_NOHUGEPAGE alone makes such a fault map the folio's 512
   pages one entry at a time, the slowest of all. `descriptor` is the userfaultfd of an earlier call (the same one
   serves every range), or -1 to make one. Returns the descriptor, or -errno where the kernel refuses (no
   userfaultfd, older kernel, seccomp, a mapping that may not be written): the caller keeps the descriptor and
   closes it when its ranges are unmapped. LMDBKit's SinglePageFaults.swift calls it on an environment's map when
   the map has a memory budget. */
static inline int paylog_register_single_page_faults(int descriptor, void *start, size_t length) {
#ifdef SYS_userfaultfd
    int made = -1;
    if (descriptor < 0) {
        made = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
        if (made < 0) return -errno;
        struct uffdio_api api = { .api = UFFD_API, .features = UFFD_FEATURE_WP_ASYNC };
        if (ioctl(made, UFFDIO_API, &api) != 0) { int error = errno; close(made); return -error; }
        descriptor = made;
    }
    struct uffdio_register range = {
        .range = { .start = (unsigned long)start, .len = length }, .mode = UFFDIO_REGISTER_MODE_WP };
    if (ioctl(descriptor, UFFDIO_REGISTER, &range) != 0) {
        int error = errno;
        if (made >= 0) close(made);
        return -error;
    }
    /* A page-cache folio of 2 MiB (a file read in by `cat` or `cp`) is otherwise mapped whole, by one PMD entry, on
       the first fault in it, registration or not. Without THP in the kernel this fails and changes nothing. */
    (void)madvise(start, length, MADV_NOHUGEPAGE);
    return descriptor;
#else
    (void)descriptor; (void)start; (void)length;
    return -ENOSYS;
#endif
}
#endif
#endif
