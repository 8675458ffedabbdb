/// The result of checking the hash chain over the log.
public struct ChainReport: Sendable, Hashable {
    /// How many events were checked.
    public var eventsChecked: UInt64
    /// The last position the log holds.
    public var lastPosition: UInt64
    /// The first position whose record or hash does not match, if any.
    public var firstBrokenPosition: UInt64?
    /// Why the chain broke there.
    public var problem: String?

    /// True when every event checked out and the chain reaches the stored head.
    public var isIntact: Bool { firstBrokenPosition == nil }
}
