import Crypto

/// A SHA-256 chain hash, held inline in four words rather than in an array.
///
/// Every decoded ``RecordedEvent`` and every appended event carries one; as a `[UInt8]` it was a heap allocation
/// (and a free) per event on every scan, replay and append, for 32 bytes of fixed size. The words hold the digest's
/// bytes in order (byte 0 is the most significant byte of `first`), so comparing and hashing digests compares
/// their bytes.
public struct ChainDigest: Sendable, Hashable {
    /// The digest's size in bytes.
    public static let byteCount = 32

    /// The hash that precedes position 1: 32 zero bytes.
    public static let genesis = ChainDigest(words: (0, 0, 0, 0))

    private var first: UInt64
    private var second: UInt64
    private var third: UInt64
    private var fourth: UInt64

    private init(words: (UInt64, UInt64, UInt64, UInt64)) {
        (first, second, third, fourth) = words
    }

    /// The digest in `bytes`, which must be exactly ``byteCount`` bytes long; nil otherwise.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (offset, byte) in bytes.enumerated() {
            words[offset / 8] = words[offset / 8] << 8 | UInt64(byte)
        }
        self.init(words: (words[0], words[1], words[2], words[3]))
    }

    /// The digest written as 64 hexadecimal digits (``hex``; capitals read too), or nil for any other text: another
    /// length, a sign, a space, a character that is not a digit. Reads the text's UTF-8 once, without building a
    /// byte array (an import reads one per event).
    public init?(hex text: String) {
        var text = text
        guard let words = text.withUTF8({ ChainDigest.words(hex: $0) }) else { return nil }
        self.init(words: words)
    }

    /// The four words of 64 hexadecimal digits in `digits`, or nil.
    private static func words(hex digits: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard digits.count == 2 * byteCount else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for word in 0..<4 {
            var value: UInt64 = 0
            for digit in digits[(word * 16)..<(word * 16 + 16)] {
                let nibble: UInt8
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt64(nibble)
            }
            switch word {
            case 0: words.0 = value
            case 1: words.1 = value
            case 2: words.2 = value
            default: words.3 = value
            }
        }
        return words
    }

    /// The digest in the first ``byteCount`` bytes of `raw` (the caller checked there are that many).
    init(unchecked raw: UnsafeRawBufferPointer) {
        precondition(raw.count >= Self.byteCount, "a chain digest needs 32 bytes")
        func word(_ offset: Int) -> UInt64 {
            UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        self.init(words: (word(0), word(8), word(16), word(24)))
    }

    /// The digest SHA-256 computed.
    init(_ digest: SHA256.Digest) {
        self = digest.withUnsafeBytes { ChainDigest(unchecked: $0) }
    }

    /// Calls `body` with the digest's 32 bytes, in order.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let words = (first.bigEndian, second.bigEndian, third.bigEndian, fourth.bigEndian)
        return try Swift.withUnsafeBytes(of: words) { try body($0) }
    }

    /// The digest's 32 bytes, in order.
    public var bytes: [UInt8] { withUnsafeBytes { Array($0) } }

    /// The digest in lower-case hexadecimal (64 digits).
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes { raw in
            String(unsafeUninitializedCapacity: Self.byteCount * 2) { buffer in
                for (index, byte) in raw.enumerated() {
                    buffer[2 * index] = digits[Int(byte >> 4)]
                    buffer[2 * index + 1] = digits[Int(byte & 0x0f)]
                }
                return Self.byteCount * 2
            }
        }
    }

    /// True when the digest equals the 32 bytes of `raw`.
    func matches(_ raw: UnsafeRawBufferPointer) -> Bool {
        raw.count == Self.byteCount && self == ChainDigest(unchecked: raw)
    }
}
