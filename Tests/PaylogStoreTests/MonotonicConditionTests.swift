import Foundation
import Testing

@testable import PaylogStore

/// The writer's lock and condition: timed waits on the monotonic clock.
@Suite("Monotonic condition")
struct MonotonicConditionTests {
    @Test("a timed wait nobody signals reports the deadline passed, and the clock has reached it")
    func timesOut() {
        let condition = MonotonicCondition()
        let deadline = MonotonicCondition.now() + 2_000_000
        condition.lock()
        var woken = true
        // Spurious wake-ups are allowed: wait again until the deadline is reported.
        while woken { woken = condition.wait(untilNanoseconds: deadline) }
        condition.unlock()
        #expect(MonotonicCondition.now() >= deadline)
    }

    @Test("a signal from another thread wakes a timed wait long before its deadline")
    func signalWakes() {
        let condition = MonotonicCondition()
        let probe = Probe()  // its `stop` flag says the other thread has signalled
        let thread = Thread {
            condition.lock()
            probe.stop.store(true, ordering: .sequentiallyConsistent)
            condition.signal()
            condition.unlock()
        }
        let deadline = MonotonicCondition.now() + 60_000_000_000
        condition.lock()
        thread.start()
        var woken = true
        while !probe.stop.load(ordering: .sequentiallyConsistent) && woken {
            woken = condition.wait(untilNanoseconds: deadline)
        }
        condition.unlock()
        let signalled = probe.stop.load(ordering: .sequentiallyConsistent)
        #expect(signalled)
        #expect(woken, "woken by the signal, not by the deadline a minute away")
    }
}
