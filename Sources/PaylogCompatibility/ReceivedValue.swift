import PaylogProviders

/// A query item's value as the provider's app receives it: its Unicode scalars, or, for a value that is not
/// percent-encoded UTF-8 (recorded still encoded, noted as `undecodablePercentEncoding`), its bytes, each one
/// character. Judged by its escape text instead, `ab%FF` looked printable and 50 `%E9` bytes 150 characters long.
struct ReceivedValue {
    /// The value as recorded: decoded text, or the percent-encoded text of bytes that are not UTF-8.
    let recorded: String
    /// The scalar values of the text, or the bytes.
    let units: [UInt32]
    /// True when ``units`` are bytes that are not UTF-8 text.
    let isBytes: Bool

    /// The value `recorded`; `keptEncoded` when the reader kept it percent-encoded because it is not UTF-8.
    init(_ recorded: String, keptEncoded: Bool) {
        self.recorded = recorded
        if keptEncoded, let bytes = recorded.percentDecodedBytes {
            units = bytes.map(UInt32.init)
            isBytes = true
        } else {
            units = recorded.unicodeScalars.map(\.value)
            isBytes = false
        }
    }

    /// Its length in characters, a byte counting as one when it is not UTF-8 text.
    var count: Int { units.count }

    /// "characters", or what the characters are when they are bytes.
    var unitName: String { isBytes ? "bytes (not UTF-8 text; each byte one character)" : "characters" }

    /// The first character outside printable ASCII (0x20–0x7E), named `U+E9` or `byte 0xFF`; nil when there is none.
    var firstNotPrintable: String? {
        guard let bad = units.first(where: { !(0x20...0x7E).contains($0) }) else { return nil }
        let hex = String(bad, radix: 16, uppercase: true)
        return isBytes ? "byte 0x\(hex)" : "U+\(hex)"
    }

    /// True when it holds a space.
    var containsSpace: Bool { units.contains(0x20) }
}
