import Crypto
import Foundation
import SwiftProtobuf

/// Encodes events into the stored value layout and decodes them back. See Docs/storage.md.
///
/// Value layout: format byte `0x01` | SHA-256 hash (32 bytes) | `EventRecord` protobuf bytes.
enum RecordCodec {
    static let headerSize = 33

    /// The record bytes of `event` with the envelope the store assigned.
    static func recordBytes(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp
    ) throws -> [UInt8] {
        var record = Paylog_Store_V1_EventRecord()
        record.eventID = withUnsafeBytes(of: event.id.uuid) { Data($0) }
        record.streamID = streamID
        record.version = version
        record.position = position
        record.type = event.type
        record.schemaVersion = event.schemaVersion
        record.recordedAtUs = recordedAt.microseconds
        if let observed = event.observedAt { record.observedAtUs = observed.microseconds }
        record.correlationID = event.correlationID
        record.causationID = event.causationID
        record.actor = event.actor
        record.payload = event.payload
        return try record.serializedBytes()
    }

    /// SHA-256 over the previous hash and the record bytes.
    static func chainHash(previous: [UInt8], record: some DataProtocol) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: previous)
        hasher.update(data: record)
        return Array(hasher.finalize())
    }

    /// The full stored value: format byte, hash, record bytes.
    static func value(hash: [UInt8], record: [UInt8]) -> [UInt8] {
        var value = [UInt8]()
        value.reserveCapacity(headerSize + record.count)
        value.append(StoreKeys.recordFormatByte)
        value.append(contentsOf: hash)
        value.append(contentsOf: record)
        return value
    }

    /// Decodes a stored value read at `position`.
    static func decode(_ value: UnsafeRawBufferPointer, position: UInt64) throws(EventStoreError) -> RecordedEvent {
        guard value.count >= headerSize else {
            throw .corruptRecord(position: position, reason: "the value is \(value.count) bytes, shorter than its header")
        }
        guard value[0] == StoreKeys.recordFormatByte else {
            throw .corruptRecord(position: position, reason: "unknown record format byte \(value[0])")
        }
        do {
            return try EnvelopeDecoder.decode(
                UnsafeRawBufferPointer(rebasing: value[headerSize...]), hash: Array(value[1..<headerSize]))
        } catch {
            throw .corruptRecord(position: position, reason: "the record does not decode: \(error.reason)")
        }
    }

    /// True when `stored` carries the same caller-supplied content as `event` in `streamID`.
    static func sameContent(_ stored: RecordedEvent, _ event: NewEvent, streamID: String) -> Bool {
        stored.streamID == streamID && stored.type == event.type && stored.schemaVersion == event.schemaVersion
            && stored.payload == event.payload && stored.observedAt == event.observedAt
            && stored.correlationID == event.correlationID && stored.causationID == event.causationID
            && stored.actor == event.actor
    }
}
