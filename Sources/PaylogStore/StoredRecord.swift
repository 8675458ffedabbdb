/// One record of the log as a forensic read finds it (``EventStore/storedRecords(from:limit:)``): the event, or,
/// when its record cannot be decoded, its position and why, so that a reader can go on past the damage.
public enum StoredRecord: Sendable {
    /// A record that decodes.
    case event(RecordedEvent)
    /// A record at `position` that does not decode (`problem`: ``EventStoreError/corruptRecord(position:reason:)``
    /// or ``EventStoreError/badPayloadDictionary(number:reason:)``); ``EventStore/storedBytes(at:)`` gives its bytes.
    case damaged(position: UInt64, problem: EventStoreError)

    /// The record's global position.
    public var position: UInt64 {
        switch self {
        case .event(let event): return event.position
        case .damaged(let position, _): return position
        }
    }
}
