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
    /// The last event's hash in hexadecimal when the chain is intact (nil otherwise, and for an empty log): with
    /// ``lastPosition``, what identifies the whole log. Kept beside a backup or an export, it shows a copy that was
    /// cut short (whose shorter chain still verifies) for what it is.
    public var headHash: String?
    /// True when what breaks the chain is a live view standing past its head (``firstBrokenPosition`` is the
    /// position after the head): the log was cut short with its head rewritten to match, so the events it still holds
    /// chain intact, and an export of them imports as a shorter log that verifies.
    public var isCutShort = false

    /// True when every event checked out and the chain reaches the stored head.
    public var isIntact: Bool { firstBrokenPosition == nil }
}
