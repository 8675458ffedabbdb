extension String {
    /// The string whose UTF-8 encoding is `bytes`, or nil when they are not valid UTF-8.
    ///
    /// `String(validating:as:)` goes through generic code and metadata lookups that cost more than the rest of an
    /// envelope decode (`perf`, `paylog bench --scenario scan`); nearly every stored string is ASCII, which this
    /// checks eight bytes at a time before handing over to the standard library's own fast path.
    public init?(utf8Bytes bytes: UnsafeRawBufferPointer) {
        var index = 0
        let count = bytes.count
        var isASCII = true
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                isASCII = false
                break
            }
            index += 8
        }
        while isASCII && index < count {
            if bytes[index] >= 0x80 { isASCII = false }
            index += 1
        }
        if isASCII {
            self = String(decoding: bytes, as: UTF8.self)
        } else if let text = String(validating: bytes, as: UTF8.self) {
            self = text
        } else {
            return nil
        }
    }
}
