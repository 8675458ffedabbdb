import Foundation
import LMDBKit

/// Reads and appends inside one durable write transaction on the writer thread, for work that must see its
/// own earlier appends before deciding the next one and wants them all committed with one fsync: how
/// `paylog ingest` records a batch of lines, each routed and decided against the state the previous lines left.
///
/// Obtain one only through ``EventStore/withWriteSession(_:)``; it is valid only inside that call. Each
/// ``append(_:to:expecting:)`` runs in its own nested transaction, so a refused append leaves nothing behind
/// while the others commit.
public final class WriteSession {
    private let transaction: UnsafePointer<Transaction>
    private let databases: StoreDatabases
    /// The live views, looked up once: only the writer thread promotes a rebuilt view, and it is busy with this session.
    private let views: ProjectionDatabases
    private let recordedAt: Timestamp
    private var head: ChainHead
    private var isOpen = true
    /// Events appended through this session so far.
    public private(set) var eventsAppended = 0

    init(_ transaction: UnsafePointer<Transaction>, databases: StoreDatabases) throws {
        self.transaction = transaction
        self.databases = databases
        self.views = databases.views.active()
        self.recordedAt = Timestamp.now()
        self.head = try ChainHead.load(transaction.pointee, databases)
    }

    /// Ends the session: later calls trap, since the transaction is gone.
    func close() { isOpen = false }

    /// Runs `body` with the transaction and the live views, seeing this session's own appends.
    public func readViews<R>(_ body: (borrowing Transaction, ProjectionDatabases) throws -> R) throws -> R {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        return try body(transaction.pointee, views)
    }

    /// The event with id `id`, or nil, including events appended earlier in this session.
    public func event(id: UUID) throws -> RecordedEvent? {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        let txn = transaction
        guard let position = try txn.pointee.value(for: StoreKeys.eventID(id), in: databases.ids) else { return nil }
        return try EventStore.event(at: StoreKeys.readUInt64(position), in: txn.pointee, databases)
    }

    /// Appends like ``EventStore/append(_:to:expecting:)``, with the same checks and idempotency, but inside
    /// this session's transaction: durable once ``EventStore/withWriteSession(_:)`` returns.
    public func append(
        _ events: [NewEvent], to streamID: String, expecting expected: ExpectedVersion = .any
    ) throws(EventStoreError) -> AppendResult {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        let request = try EventStore.validated(events, to: streamID, expecting: expected)
        let append = AppendRequest(streamID: request.streamID, events: request.events, expected: request.expected) { _ in }
        do {
            let (result, newHead) = try transaction.pointee.nested { child in
                try Writer.append(append, in: child, databases: databases, head: head, recordedAt: recordedAt)
            }
            head = newHead
            if !result.wasAlreadyRecorded { eventsAppended += events.count }
            return result
        } catch {
            throw .wrapping(error)
        }
    }
}
