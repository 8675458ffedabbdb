import Synchronization

/// How many times each of several sessions' bodies ran, shared between their tasks and the test.
final class SessionRuns: Sendable {
    private let counts: Mutex<[Int]>
    init(sessions: Int) { counts = Mutex(Array(repeating: 0, count: sessions)) }
    /// Counts one run of session `index`'s body.
    func ran(_ index: Int) { counts.withLock { $0[index] += 1 } }
    /// The runs so far, by session.
    var value: [Int] { counts.withLock { $0 } }
}
