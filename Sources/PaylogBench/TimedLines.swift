/// Lines handed one by one to a consumer that processes each before asking for the next, such as
/// ``PaylogWorkflow/PaymentWorkflow/ingest(lines:defaultKind:)``: the time between two requests is the time the
/// consumer spent on the previous line, recorded per line.
final class TimedLines: Sequence, IteratorProtocol {
    private let lines: [String]
    private var nextIndex = 0
    private var handedOutAt: UInt64?
    /// The time spent on each line handed out and finished.
    private(set) var latencies = LatencyRecorder()

    /// Times the processing of `lines`.
    init(_ lines: [String]) {
        self.lines = lines
    }

    /// The next line, after recording how long the previous one took; nil at the end.
    func next() -> String? {
        if let handedOutAt { latencies.record(since: handedOutAt) }
        guard nextIndex < lines.count else {
            handedOutAt = nil
            return nil
        }
        defer { nextIndex += 1 }
        handedOutAt = Stopwatch.now()
        return lines[nextIndex]
    }
}
