extension String {
    /// The string whose UTF-8 encoding is `bytes`, or nil when they are not valid UTF-8.
    ///
    /// `String(validating:as:)` goes through generic code and metadata lookups that cost more than the rest of an
    /// envelope decode (`perf`, `paylog bench --scenario scan`); nearly every stored string is ASCII, which this
    /// checks eight bytes at a time before handing over to the standard library's own fast path.
    public init?(utf8Bytes bytes: UnsafeRawBufferPointer) {
        if bytes.isASCII {
            self = String(decoding: bytes, as: UTF8.self)
        } else if let text = String(validating: bytes, as: UTF8.self) {
            self = text
        } else {
            return nil
        }
    }
}
