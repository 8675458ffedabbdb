import Foundation
import Testing

@testable import PaylogStore

/// Holds a store's writer thread busy with a task until ``release()``, so that jobs queue behind it in an order a
/// test chooses (``waitUntilQueued(_:)`` between submissions).
final class WriterHold: Sendable {
    private let store: EventStore
    private let gate = DispatchSemaphore(value: 0)
    private let task: Task<Void, Never>

    /// Queues the holding task and returns once the writer runs it.
    init(_ store: EventStore) async throws {
        self.store = store
        let running = DispatchSemaphore(value: 0)
        task = Task { [gate] in
            _ = try? await store.onWriterThread {
                running.signal()
                gate.wait()
            }
        }
        try await Self.poll("the writer to run the holding task") { running.wait(timeout: .now()) == .success }
    }

    /// Returns once `count` jobs are queued behind the held writer.
    func waitUntilQueued(_ count: Int) async throws {
        try await Self.poll("\(count) jobs to queue") { store.writer.queuedJobs >= count }
    }

    /// Lets the writer go on, and returns once the holding task has finished.
    func release() async {
        gate.signal()
        await task.value
    }

    private static func poll(_ what: String, until condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
