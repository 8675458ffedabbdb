import Crypto

/// The SHA-256 of a callback's raw URL: what a ``Payment`` keeps of each callback it has recorded.
///
/// A payment only needs its callbacks' URLs to recognise an identical one arriving again (a delivery of one already
/// recorded, which changes nothing: ``CallbackReceived/isRedelivery``) and to count them; the URLs themselves are
/// evidence the log already keeps. Keeping the full URL in the status view made a payment's row three times its size (a
/// 220-byte Square callback in a 300-byte row), and every replay sorted, merged and wrote those copies. Two different
/// URLs give the same fingerprint only by a SHA-256 collision, so a distinct callback is never mistaken for a
/// duplicate.
///
/// The four words hold the digest's bytes in order (byte 0 is the most significant byte of the first word).
public struct CallbackFingerprint: Sendable, Hashable {
    /// The fingerprint's size in bytes.
    public static let byteCount = 32

    private var words: (UInt64, UInt64, UInt64, UInt64)

    /// The fingerprint of `rawURL`, the callback URL exactly as received (its UTF-8 bytes are hashed).
    public init(rawURL: String) {
        var url = rawURL
        let digest = url.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        self = digest.withUnsafeBytes { CallbackFingerprint(unchecked: $0) }
    }

    /// The fingerprint of the raw URL whose UTF-8 bytes are `rawURLBytes`: ``init(rawURL:)`` of the string they
    /// encode, without building that string (a rebuild's fold hashes the URL where it lies in the log).
    public init(rawURLBytes: UnsafeRawBufferPointer) {
        self = SHA256.hash(data: rawURLBytes).withUnsafeBytes { CallbackFingerprint(unchecked: $0) }
    }

    /// The fingerprint in `bytes`, which must be exactly ``byteCount`` bytes long; nil otherwise.
    public init?(bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.byteCount else { return nil }
        self.init(unchecked: bytes)
    }

    private init(unchecked raw: UnsafeRawBufferPointer) {
        func word(_ offset: Int) -> UInt64 { UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        words = (word(0), word(8), word(16), word(24))
    }

    /// Calls `body` with the fingerprint's 32 bytes, in order, without building an array.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let bigEndian = (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian)
        return try Swift.withUnsafeBytes(of: bigEndian) { try body($0) }
    }

    /// The fingerprint's 32 bytes, in order.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The fingerprint in lower-case hexadecimal (64 digits).
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] }, as: UTF8.self)
    }

    /// True when both hold the same digest.
    public static func == (lhs: CallbackFingerprint, rhs: CallbackFingerprint) -> Bool {
        lhs.words == rhs.words
    }

    /// Hashes the digest's words.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
