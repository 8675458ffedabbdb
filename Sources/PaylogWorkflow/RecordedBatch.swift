import PaylogStore

/// What recording one ingest batch in one write session came to: each line's outcome, or, when the session failed
/// and nothing of it was committed, why and from which line.
struct RecordedBatch: Sendable {
    /// Each line's number and outcome (what it appended, nil for nothing, or why it was rejected), in order; empty when the
    /// session failed or the batch was not recorded.
    var results: [(number: Int, result: Result<AppendedEvents?, WorkflowError>)]
    /// The storage failure that kept the whole batch from being committed, and the batch's first line.
    var failure: (line: Int, error: EventStoreError)?

    init(results: [(number: Int, result: Result<AppendedEvents?, WorkflowError>)], failure: (line: Int, error: EventStoreError)? = nil) {
        self.results = results
        self.failure = failure
    }
}
