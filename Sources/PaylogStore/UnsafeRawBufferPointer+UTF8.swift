extension UnsafeRawBufferPointer {
    /// True when every byte is below 0x80; checked eight bytes at a time (nearly every stored string is ASCII).
    @inline(__always)
    var isASCII: Bool {
        var index = 0
        let count = self.count
        while index + 8 <= count {
            if loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < count {
            if self[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// True when the bytes are valid UTF-8, without building a string for ASCII ones.
    var isValidUTF8: Bool {
        isASCII || String(validating: self, as: UTF8.self) != nil
    }
}
