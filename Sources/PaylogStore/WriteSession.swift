import Foundation
import LMDBKit

/// Reads and appends inside one durable write transaction on the writer thread, for work that must see its
/// own earlier appends before deciding the next one and wants them all committed with one fsync: how
/// `paylog ingest` records a batch of lines, each routed and decided against the state the previous lines left.
///
/// Obtain one only through ``EventStore/withWriteSession(_:)``; it is valid only inside that call. A refused
/// append leaves nothing behind while the others commit, without nested transactions (a nested LMDB transaction
/// allocates its own page lists and copies every page it touches: an eighth of the writer's time in an ingest):
/// an append's checks (idempotency, expected version) write nothing, so a refusal by them needs no undo; an
/// append that fails after it began writing (a projection refusing its event) poisons the session, which then
/// runs again from the start without that append, the ``append(_:to:expecting:)`` call that failed getting the
/// same error at once — just as the writer's group commit does (``Writer``).
public final class WriteSession {
    private let transaction: UnsafePointer<Transaction>
    private let databases: StoreDatabases
    /// The live views, looked up once: only the writer thread promotes a rebuilt view, and it is busy with this session.
    private let views: ProjectionDatabases
    private let recordedAt: Timestamp
    private var head: ChainHead
    private var isOpen = true
    /// Appends that failed after they began writing in an earlier run of this session, by ordinal: each fails
    /// at once with its error this time.
    private let failedLate: [Int: EventStoreError]
    /// Calls of ``append(_:to:expecting:)`` so far in this run: the ordinal of the next one.
    private var appendCalls = 0
    /// Set when an append failed after it began writing: the transaction holds part of its writes, so this run
    /// must be aborted and the session run again without it.
    private(set) var lateFailure: LateAppendFailure?
    /// Events appended through this session so far.
    public private(set) var eventsAppended = 0
    /// The last id ``event(id:)`` found absent, until the next append: the append of an event with that id then
    /// skips looking it up again (the workflow checks each observation's first event id before deciding, and the
    /// `ids` index is the largest randomly keyed tree the writer reads).
    private var absentID: UUID?

    init(
        _ transaction: UnsafePointer<Transaction>, databases: StoreDatabases, failedLate: [Int: EventStoreError] = [:]
    ) throws {
        self.transaction = transaction
        self.databases = databases
        self.failedLate = failedLate
        self.views = databases.views.active()
        self.recordedAt = Timestamp.now()
        self.head = try ChainHead.loadForAppend(transaction.pointee, databases)
    }

    /// Ends the session: later calls trap, since the transaction is gone.
    func close() { isOpen = false }

    /// Saves what the session's appends leave at the end of the transaction: the chain head and the live views'
    /// checkpoints (``Writer/saveHead(_:in:databases:)``). Called once, before the commit.
    func finish() throws {
        precondition(isOpen, "a WriteSession was finished after its withWriteSession call returned")
        try Writer.saveHead(head, in: transaction.pointee, databases: databases)
    }

    /// Runs `body` with the transaction and the live views, seeing this session's own appends.
    public func readViews<R>(_ body: (borrowing Transaction, ProjectionDatabases) throws -> R) throws -> R {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        return try body(transaction.pointee, views)
    }

    /// The last event that declared `tag`, including events appended earlier in this session, or nil.
    public func taggedEvent(_ tag: String) throws -> TaggedEvent? {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        return try TaggedEvent.read(tag, in: transaction.pointee, databases: databases)
    }

    /// The event with id `id`, or nil, including events appended earlier in this session.
    public func event(id: UUID) throws -> RecordedEvent? {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        let txn = transaction
        guard let position = try txn.pointee.value(for: StoreKeys.eventID(id), in: databases.ids) else {
            absentID = id
            return nil
        }
        return try EventStore.event(at: StoreKeys.readUInt64(position), in: txn.pointee, databases)
    }

    /// One stream's events in version order, as ``EventStore/readStream(_:from:direction:limit:)`` reads them,
    /// including events appended earlier in this session.
    public func readStream(
        _ streamID: String, from: UInt64? = nil, direction: ReadDirection = .forward, limit: Int = .max
    ) throws -> [RecordedEvent] {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        return try EventStore.readStream(streamID, from: from, direction: direction, limit: limit, in: transaction.pointee, databases)
    }

    /// Appends like ``EventStore/append(_:to:expecting:)``, with the same checks and idempotency, but inside
    /// this session's transaction: durable once ``EventStore/withWriteSession(_:)`` returns.
    ///
    /// - Parameter decided: what the caller already worked out in memory about these events (say, their decoded
    ///   form and the state they apply to), handed with each event to every inline projection's live view
    ///   (``InlineProjection/apply(_:decided:in:databases:)``), which may then skip decoding it again. It is
    ///   the caller's word: it must describe exactly `events` and the views as this session holds them.
    public func append(
        _ events: [NewEvent], to streamID: String, expecting expected: ExpectedVersion = .any, decided: (any Sendable)? = nil
    ) throws(EventStoreError) -> AppendResult {
        precondition(isOpen, "a WriteSession was used after its withWriteSession call returned")
        let ordinal = appendCalls
        appendCalls += 1
        // Any append may store the id looked up before it: only the next append may rely on its absence.
        let knownAbsent = absentID
        absentID = nil
        if let error = failedLate[ordinal] { throw error }
        // Once poisoned, this run will be thrown away: write nothing more.
        if let lateFailure { throw lateFailure.error }
        let request = try EventStore.validated(events, to: streamID, expecting: expected)
        let append = AppendRequest(
            streamID: request.streamID, events: request.events, expected: request.expected, decided: decided) { _ in }
        let plan: AppendPlan
        do {
            plan = try Writer.plan(append, in: transaction.pointee, databases: databases, knownAbsent: knownAbsent)
        } catch {
            throw .wrapping(error)
        }
        switch plan {
        case .alreadyRecorded(let result):
            return result
        case .write(let currentVersion):
            do {
                let (result, newHead) = try Writer.write(
                    append, after: currentVersion, in: transaction.pointee, databases: databases, head: head,
                    recordedAt: recordedAt)
                head = newHead
                eventsAppended += events.count
                return result
            } catch {
                let failure = EventStoreError.wrapping(error)
                lateFailure = LateAppendFailure(index: ordinal, error: failure)
                throw failure
            }
        }
    }
}
