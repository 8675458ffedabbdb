#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutex and a condition variable whose timed waits run on the monotonic clock.
///
/// `NSCondition.wait(until:)` takes a wall-clock `Date`; when the system clock is stepped back (NTP, a VM
/// resumed), a wait of two milliseconds can last as long as the step. The writer's gathering wait must stay
/// bounded whatever the wall clock does, so it waits on `CLOCK_MONOTONIC` instead.
final class MonotonicCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// The monotonic clock now, in nanoseconds.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Wakes one waiter. Call with the lock held.
    func signal() { pthread_cond_signal(condition) }
    /// Wakes every waiter. Call with the lock held.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits, with the lock held, until woken (spurious wake-ups included: re-check the predicate).
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits, with the lock held, until woken or the monotonic clock reaches `deadline` (``now()``'s scale).
    /// Returns false when the deadline passed.
    func wait(untilNanoseconds deadline: UInt64) -> Bool {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }
}
