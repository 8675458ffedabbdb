/// The outcome of a successful append.
public struct AppendResult: Sendable, Hashable {
    /// The stream appended to.
    public var streamID: String
    /// The global positions of the appended events, in order. Contiguous: one append is never interleaved.
    public var positions: ClosedRange<UInt64>
    /// The stream versions of the appended events, in order.
    public var versions: ClosedRange<UInt64>
    /// True when every event id was already stored with the same content: nothing was written and the
    /// original positions are returned.
    public var wasAlreadyRecorded: Bool
}
