import Foundation

/// The line `paylog export` writes in place of a record that does not decode, so that the records after it are
/// still copied out, and the damage shown as stored: its position, why it does not decode, and its bytes.
/// `paylog import-log` refuses it (an export of a damaged store is evidence of the damage, not a log to restore).
public struct DamagedExportLine: Sendable, Hashable, Codable {
    /// Global position of the record.
    public var position: UInt64
    /// Why it does not decode.
    public var damaged: String
    /// The record's bytes exactly as stored in `events`, base64 (absent when they could not be read).
    public var recordBase64: String?

    enum CodingKeys: String, CodingKey {
        case position, damaged
        case recordBase64 = "record_base64"
    }

    /// The line of the damaged record at `position`, with `problem` and the `bytes` stored there.
    public init(position: UInt64, problem: EventStoreError, bytes: [UInt8]?) {
        self.position = position
        if case .corruptRecord(_, let reason) = problem { damaged = reason } else { damaged = problem.description }
        recordBase64 = bytes.map { Data($0).base64EncodedString() }
    }
}
