/// One queued append: the events, where they go, and the caller waiting for the outcome.
struct AppendRequest: Sendable {
    let streamID: String
    let events: [NewEvent]
    let expected: ExpectedVersion
    let completion: @Sendable (Result<AppendResult, EventStoreError>) -> Void
}
