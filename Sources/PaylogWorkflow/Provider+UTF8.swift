import PaylogDomain

extension Provider {
    /// Each provider with its raw value's UTF-8 bytes, for ``init(utf8:)``.
    private static let names: [(provider: Provider, bytes: [UInt8])] = Provider.allCases.map { ($0, Array($0.rawValue.utf8)) }

    /// The provider whose raw value's UTF-8 is `bytes`; nil for any other bytes. Compares bytes where they lie:
    /// a decoder that reads a provider per event needs neither a string nor `init(rawValue:)`'s string switch.
    init?(utf8 bytes: UnsafeRawBufferPointer) {
        for (provider, name) in Self.names where name.count == bytes.count {
            if name.withUnsafeBytes({ $0.elementsEqual(bytes) }) {
                self = provider
                return
            }
        }
        return nil
    }
}
