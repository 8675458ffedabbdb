/// What an append's checks decided, before it writes anything.
enum AppendPlan {
    /// Every event is already recorded with the same content: the original result, nothing to write.
    case alreadyRecorded(AppendResult)
    /// The append is accepted; its stream is at `currentVersion`.
    case write(currentVersion: UInt64)
}
