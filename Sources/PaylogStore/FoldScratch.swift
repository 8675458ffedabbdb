import ZstdKit

/// The buffer one fold thread decompresses payloads into (``FoldEvent/payload()``): allocated once and grown when
/// a payload is larger, so a rebuild does not allocate per event; and the dictionary its last event named, so
/// that the next one (nearly always of the same dictionary of the same store) is not looked up again.
///
/// Used by one thread at a time (its ``FoldPartition``), hence `@unchecked Sendable`.
final class FoldScratch: @unchecked Sendable {
    /// The bytes; replaced by a larger allocation when a payload needs it.
    var buffer: UnsafeMutableRawBufferPointer

    /// A scratch buffer of `capacity` bytes to start with.
    init(capacity: Int = 4_096) {
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    /// The dictionaries, number and dictionary ``dictionary(_:in:)`` last found (the dictionaries held, so that
    /// their identity is not that of a freed and reallocated object).
    private var last: (dictionaries: PayloadDictionaries, number: UInt32, dictionary: ZstdDictionary)?

    deinit { buffer.deallocate() }

    /// Dictionary `number` of `dictionaries`, nil when they hold none.
    func dictionary(_ number: UInt32, in dictionaries: PayloadDictionaries) -> ZstdDictionary? {
        if let last, last.number == number, last.dictionaries === dictionaries { return last.dictionary }
        guard let dictionary = dictionaries.dictionary(number) else { return nil }
        last = (dictionaries, number, dictionary)
        return dictionary
    }
}
