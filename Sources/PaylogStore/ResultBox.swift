import Synchronization

/// Hands an append's result from the writer thread to a blocked caller.
final class ResultBox: Sendable {
    private let value = Mutex<Result<AppendResult, EventStoreError>?>(nil)

    func set(_ result: Result<AppendResult, EventStoreError>) { value.withLock { $0 = result } }

    func get() throws(EventStoreError) -> AppendResult {
        guard let result = value.withLock({ $0 }) else { throw .closed }
        return try result.get()
    }
}
