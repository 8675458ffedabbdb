import Foundation

/// The byte layout of every LMDB key and small value the store writes. See Docs/storage.md.
enum StoreKeys {
    /// The largest stream id in UTF-8 bytes; keeps `streams` keys under LMDB's 511-byte key limit.
    static let maximumStreamIDBytes = 200

    /// `meta` key of the chain head: position (8 bytes BE) + hash (32 bytes).
    static let head: [UInt8] = Array("head".utf8)
    /// `meta` key of the log format: UInt32 BE.
    static let format: [UInt8] = Array("format".utf8)
    /// The log format this build writes and reads.
    static let currentFormat: UInt32 = 1
    /// The first byte of every `events` value.
    static let recordFormatByte: UInt8 = 1

    @inline(__always)
    static func bigEndian(_ value: UInt64) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    @inline(__always)
    static func readUInt64(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + 8) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    static func readUInt64(_ bytes: [UInt8], at offset: Int = 0) -> UInt64 {
        bytes.withUnsafeBytes { readUInt64($0, at: offset) }
    }

    /// `events` key: the global position, big-endian so keys sort in log order.
    static func event(_ position: UInt64) -> [UInt8] { bigEndian(position) }

    /// `streams` key: stream id bytes, a NUL separator, then the version big-endian.
    static func stream(_ streamID: String, version: UInt64) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(streamID.utf8.count + 9)
        key.append(contentsOf: streamID.utf8)
        key.append(0)
        withUnsafeBytes(of: version.bigEndian) { key.append(contentsOf: $0) }
        return key
    }

    /// The prefix every `streams` key of one stream starts with.
    static func streamPrefix(_ streamID: String) -> [UInt8] {
        var key = Array(streamID.utf8)
        key.append(0)
        return key
    }

    /// `ids` key: the event id's 16 raw UUID bytes.
    static func eventID(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }

    /// `heads` key: the stream id bytes.
    static func streamHead(_ streamID: String) -> [UInt8] { Array(streamID.utf8) }

    /// Returns the reason a stream id is unusable, or nil.
    static func problem(with streamID: String) -> String? {
        let count = streamID.utf8.count
        if count == 0 { return "it is empty" }
        if count > maximumStreamIDBytes { return "it is \(count) bytes long, over \(maximumStreamIDBytes)" }
        if streamID.utf8.contains(0) { return "it contains a NUL byte" }
        return nil
    }
}
