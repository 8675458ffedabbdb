import Synchronization

/// Records the time between successive calls of ``lap()`` from any thread: per-chunk latencies of work that reports
/// its progress through a callback.
final class LapRecorder: Sendable {
    private let state: Mutex<(last: UInt64, latencies: LatencyRecorder)>

    /// Starts the first lap now.
    init() {
        state = Mutex((Stopwatch.now(), LatencyRecorder()))
    }

    /// Ends the current lap, records it, and starts the next.
    func lap() {
        state.withLock { value in value.last = value.latencies.record(since: value.last) }
    }

    /// Restarts the current lap now.
    func restart() {
        state.withLock { $0.last = Stopwatch.now() }
    }

    /// The laps recorded so far.
    var latencies: LatencyRecorder { state.withLock { $0.latencies } }
}
