/// Thrown out of a group's write transaction when the append at `index` failed after it began writing (a
/// projection refused one of its events): the transaction is aborted and the group runs again without it.
struct LateAppendFailure: Error {
    /// The append's place in its group.
    let index: Int
    /// What its caller is told.
    let error: EventStoreError
}
