import PaylogStore
import Synchronization

/// The answer to a job a test queued straight on a store's writer (``WriterHold``), once the writer gives it.
final class QueuedReply<Value: Sendable>: Sendable {
    private let outcome = Mutex<Result<Value, EventStoreError>?>(nil)

    /// Called by the writer (on its thread) with the job's outcome.
    func resolve(_ result: Result<Value, EventStoreError>) { outcome.withLock { $0 = result } }

    /// The job's value once the writer has answered, or its error.
    func value() async throws -> Value {
        while true {
            if let result = outcome.withLock({ $0 }) { return try result.get() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
