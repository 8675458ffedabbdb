import LMDBKit
import PaylogDomain
import PaylogStore

/// A projection that keeps no view: a rebuild with it reads the log as a rebuild of ``PaymentsProjection`` does
/// (both fold threads, every envelope read in place, every payload decompressed and decoded into the fields a
/// payment reads, refusing what that fold refuses) and then evolves no payment and writes no row.
///
/// It is `paylog bench --scenario replay-floor`: the most this rebuild can do on a log, with every projection cost
/// taken away (the floor of its design: two fold threads, the stream ends read first), so that the replay's figure can
/// be read against what reading and decoding the log alone allow on the same machine in the same run
/// (Docs/performance.md, *What the open targets would need*). Not for a store that serves anything: it has no
/// databases, so its apply does nothing either.
public struct PaymentsReadingFloor: StreamFoldingProjection {
    /// The projection's name: its (empty) view's checkpoint in the store's `meta`.
    public let name = "payments-reading-floor"
    /// Its code version; it has no view to rebuild when this changes.
    public let version: UInt64 = 1
    /// None: it keeps no view.
    public let databaseNames: [String] = []

    private let payments = PaymentsProjection()

    /// A projection that reads as ``PaymentsProjection``'s rebuild does.
    public init() {}

    /// Nothing: there is no view to keep.
    public func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {}

    /// Nothing: there is no view to keep.
    public func apply(_ events: [RecordedEvent], in txn: borrowing Transaction, databases: ProjectionDatabases) throws {}

    /// Decodes the event as the payments fold does and keeps nothing of it.
    public func fold(_ event: RecordedEvent, into state: inout Payment?, rows: inout ViewRows) throws {
        _ = try EventCodec.decodeForState(event)
    }

    /// Reads and decodes the event as ``PaymentsProjection/fold(_:into:rows:)-(FoldEvent,_,_)`` does, and keeps
    /// nothing of it.
    public func fold(_ event: FoldEvent, into state: inout Payment?, rows: inout ViewRows) throws {
        try payments.fold(event, into: &state, rows: &rows, evolving: false)
    }

    /// Nothing: no row.
    public func finish(_ state: Payment, stream streamID: String, rows: inout ViewRows) throws {}

    /// A folder written with the concrete types, as ``PaymentsProjection``'s is.
    public func makeFolder() -> any StreamFolder {
        PaymentsReadingFloorFolder(payments)
    }
}
