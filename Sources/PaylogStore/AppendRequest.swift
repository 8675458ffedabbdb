/// One queued append: the events, where they go, and the caller waiting for the outcome.
struct AppendRequest: Sendable {
    let streamID: String
    let events: [NewEvent]
    let expected: ExpectedVersion
    /// What the appender worked out in memory, handed to the inline projections' live views (see
    /// ``InlineProjection/apply(_:decided:in:databases:)``); nil for appends through the queue.
    var decided: (any Sendable)? = nil
    let completion: @Sendable (Result<AppendResult, EventStoreError>) -> Void
}
