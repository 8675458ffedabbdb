/// Where a routing key in the status view's `routes` points: the payment and the position of the event that made
/// the key known. Stored as position u64 big-endian followed by the payment id's UTF-8 bytes, as the store's own
/// `tag-index` stores a tag's target, so that a key found in both is resolved by position.
struct RouteTarget: Hashable {
    /// The payment (stream) id.
    var streamID: String
    /// The global position of the event that made the key known.
    var position: UInt64

    /// A target.
    init(streamID: String, position: UInt64) {
        self.streamID = streamID
        self.position = position
    }

    /// Reads a stored target of `key`.
    /// - Throws: ``PaymentCodecError`` when the bytes are not a position followed by a payment id (a view
    ///   written by another build: rebuild it).
    init(_ bytes: UnsafeRawBufferPointer, key: String) throws(PaymentCodecError) {
        guard bytes.count > 8 else {
            throw PaymentCodecError(reason: "the route \(key.prefix(64).debugDescription) is \(bytes.count) bytes, not a position and a payment id")
        }
        var position: UInt64 = 0
        for index in 0..<8 { position = position << 8 | UInt64(bytes[index]) }
        guard let id = String(validating: UnsafeRawBufferPointer(rebasing: bytes[8...]), as: UTF8.self) else {
            throw PaymentCodecError(reason: "the route \(key.prefix(64).debugDescription) names a payment id that is not UTF-8")
        }
        self.init(streamID: id, position: position)
    }

    /// The stored bytes.
    var bytes: [UInt8] {
        var bytes = withUnsafeBytes(of: position.bigEndian) { Array($0) }
        bytes.append(contentsOf: streamID.utf8)
        return bytes
    }
}
