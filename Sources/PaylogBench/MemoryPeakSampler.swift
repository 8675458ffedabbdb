import Foundation
import Synchronization

/// Measures one scenario's memory peaks: resets `VmHWM` when it starts (see ``ProcessMemory/resetPeak()``) and
/// samples the anonymous resident memory (`RssAnon`) every few milliseconds on its own thread, keeping the
/// largest value — Linux keeps a peak for the whole resident set but none for anonymous memory alone, which is
/// what tells heap growth apart from LMDB's mapped file pages.
final class MemoryPeakSampler: Sendable {
    private let state = Mutex<(peak: Int, running: Bool)>((0, true))
    private let finished = DispatchSemaphore(value: 0)
    private let wasReset: Bool

    /// Resets the peak and starts sampling every `interval` seconds.
    init(interval: TimeInterval = 0.01) {
        wasReset = ProcessMemory.resetPeak()
        let thread = Thread { [self] in
            while true {
                let sample = ProcessMemory.anonymousResidentBytes() ?? 0
                let running = state.withLock { value in
                    value.peak = max(value.peak, sample)
                    return value.running
                }
                if !running { break }
                Thread.sleep(forTimeInterval: interval)
            }
            finished.signal()
        }
        thread.name = "paylog-bench-memory"
        thread.start()
    }

    /// Stops sampling and returns the peaks since ``init(interval:)``.
    func stop() -> MemoryPeaks {
        state.withLock { $0.running = false }
        finished.wait()
        let last = ProcessMemory.anonymousResidentBytes() ?? 0
        let anonymous = state.withLock { max($0.peak, last) }
        return MemoryPeaks(resident: ProcessMemory.peakResidentBytes() ?? 0, anonymous: anonymous, wasReset: wasReset)
    }
}
