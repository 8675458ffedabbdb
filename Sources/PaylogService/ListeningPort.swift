import Synchronization

/// The port the server really listens on, once it does: with `port: 0` the system picks one, and the Square web
/// callback's observed URL must carry that port, not 0.
final class ListeningPort: Sendable {
    private let port = Mutex<Int?>(nil)

    /// The bound port, or nil before the server runs.
    var value: Int? { port.withLock { $0 } }

    /// Records the bound port.
    func set(_ value: Int) { port.withLock { $0 = value } }
}
