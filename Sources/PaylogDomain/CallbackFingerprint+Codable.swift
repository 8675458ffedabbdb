/// A fingerprint is encoded as its 64 lower-case hexadecimal digits.
extension CallbackFingerprint: Codable {
    /// Reads 64 hexadecimal digits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        var bytes: [UInt8] = []
        var high: UInt8?
        for character in text.utf8 {
            guard let nibble = CallbackFingerprint.nibble(character) else { bytes = []; break }
            if let h = high { bytes.append(h << 4 | nibble); high = nil } else { high = nibble }
        }
        guard high == nil, let fingerprint = bytes.withUnsafeBytes({ CallbackFingerprint(bytes: $0) }) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a callback fingerprint is 64 hexadecimal digits, got \"\(text)\"")
        }
        self = fingerprint
    }

    /// Writes 64 lower-case hexadecimal digits.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(hex)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
