import LMDBKit

/// A view kept in the store's own LMDB environment and updated by the writer inside the same transaction as
/// the events it derives from: it is current as soon as an append is acknowledged, and every event is applied
/// exactly once, also across crashes (the checkpoint commits with the view).
///
/// At open the store catches a projection up from its checkpoint, and rebuilds it from position 1 when its
/// ``version`` differs from the one stored with the checkpoint.
public protocol InlineProjection: Sendable {
    /// A stable name, used in the checkpoint key.
    var name: String { get }
    /// The projection's code version. Change it whenever `apply` changes meaning: the view is rebuilt.
    var version: UInt64 { get }
    /// The LMDB databases the projection owns (names unique across the store).
    var databaseNames: [String] { get }
    /// Applies one event to the view. Throwing fails the append that carried the event.
    func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws
    /// Applies one event to the live view like ``apply(_:in:databases:)-(RecordedEvent,_,_)``, given what the
    /// appender already worked out in memory (``WriteSession/append(_:to:expecting:decided:)``): a projection that
    /// recognises it may skip decoding the payload and reading its state back, provided the view ends exactly as
    /// ``apply(_:in:databases:)-(RecordedEvent,_,_)`` would leave it. The default ignores `decided`. Used only
    /// for the live view; a view being rebuilt gets the plain call.
    func apply(
        _ event: RecordedEvent, decided: any Sendable, in txn: borrowing Transaction, databases: ProjectionDatabases
    ) throws
    /// Applies consecutive events in log order, leaving the view exactly as applying each in turn would.
    /// Rebuilds call this with large chunks, so a projection can keep the state a chunk touches in memory and
    /// write each key once; the default applies them one by one.
    func apply(_ events: [RecordedEvent], in txn: borrowing Transaction, databases: ProjectionDatabases) throws
}

extension InlineProjection {
    /// Applies `event` as if nothing were known of it: ``apply(_:in:databases:)-(RecordedEvent,_,_)``.
    public func apply(
        _ event: RecordedEvent, decided: any Sendable, in txn: borrowing Transaction, databases: ProjectionDatabases
    ) throws {
        try apply(event, in: txn, databases: databases)
    }

    /// Applies each event in turn.
    public func apply(_ events: [RecordedEvent], in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        for event in events { try apply(event, in: txn, databases: databases) }
    }
}
