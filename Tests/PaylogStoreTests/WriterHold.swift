import Foundation
import Testing

@testable import PaylogStore

/// Holds a store's writer thread busy with a task until ``release()``, so that jobs queue behind it in the order a
/// test queues them. Jobs are queued straight on the writer (``queueSession(_:)``, ``queueAppend(_:to:)``), not from
/// tasks, so their order does not depend on when the concurrency pool runs a task (the test suite's other tests may
/// keep its threads busy for seconds).
final class WriterHold: Sendable {
    private let store: EventStore
    private let gate = DispatchSemaphore(value: 0)

    /// Queues the holding task and returns once the writer runs it.
    init(_ store: EventStore) async throws {
        self.store = store
        let running = DispatchSemaphore(value: 0)
        store.writer.submitTask { [gate] in
            running.signal()
            gate.wait()
        }
        // The writer thread is the store's own: it takes the task at once.
        while running.wait(timeout: .now()) != .success { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// Queues a write session behind the held writer, as ``EventStore/withWriteSession(_:)`` does.
    func queueSession<R: Sendable>(_ body: @escaping @Sendable (WriteSession) throws -> R) -> QueuedReply<R> {
        let reply = QueuedReply<R>()
        store.writer.submitSession(SessionJob(
            run: { session in
                let value = try body(session)
                return { reply.resolve(.success(value)) }
            },
            fail: { reply.resolve(.failure($0)) }))
        return reply
    }

    /// Queues an append of `events` to `streamID` behind the held writer, as ``EventStore/append(_:to:expecting:)`` does.
    func queueAppend(_ events: [NewEvent], to streamID: String) -> QueuedReply<AppendResult> {
        let reply = QueuedReply<AppendResult>()
        store.writer.submit(AppendRequest(streamID: streamID, events: events, expected: .any) { reply.resolve($0) })
        return reply
    }

    /// The jobs queued behind the held writer.
    var queued: Int { store.writer.queuedJobs }

    /// Lets the writer go on.
    func release() { gate.signal() }

    /// Lets the writer go in any case (a test that stopped before ``release()`` would otherwise leave it held, and
    /// its store's close waiting for it for ever). A second signal after ``release()`` is harmless: nothing waits.
    deinit { gate.signal() }
}
