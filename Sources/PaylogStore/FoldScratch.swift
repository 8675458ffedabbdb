import ZstdKit

/// The buffer one fold thread decompresses payloads into (``FoldEvent/payload()``): allocated once and grown when
/// a payload is larger, so a rebuild does not allocate per event; and the dictionary its last event named, so
/// that the next one (nearly always of the same dictionary of the same store) is not looked up again.
///
/// Used by one thread at a time (its ``FoldPartition``), hence `@unchecked Sendable`; for the same reason its
/// properties are `@exclusivity(unchecked)`: no access to one can overlap another, and the dynamic checks Swift
/// makes of a class's properties (`swift_beginAccess`, a thread-local lookup each) were about 4 % of a replay.
final class FoldScratch: @unchecked Sendable {
    /// The bytes; replaced by a larger allocation when a payload needs it.
    @exclusivity(unchecked) var buffer: UnsafeMutableRawBufferPointer

    /// A scratch buffer of `capacity` bytes to start with.
    init(capacity: Int = 4_096) {
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    /// The dictionaries ``dictionary(_:in:)`` last looked in, held so that their identity is never that of a freed
    /// and reallocated object, and which keep the dictionary found alive.
    @exclusivity(unchecked) private var lastDictionaries: PayloadDictionaries?
    /// The number and the dictionary ``dictionary(_:in:)`` last found, in `lastDictionaries`.
    @exclusivity(unchecked) private var last: (number: UInt32, dictionary: Unmanaged<ZstdDictionary>)?

    deinit { buffer.deallocate() }

    /// Dictionary `number` of `dictionaries`, nil when they hold none; valid while `dictionaries` lives.
    ///
    /// Unmanaged, and compared by identity without a reference: both fold threads use the same dictionaries, and
    /// retaining a shared object per event made its reference count a cache line the two cores took from each
    /// other (`swift_retain` 10.6 % of a fold thread, `perf`, Docs/performance.md).
    func dictionary(_ number: UInt32, in dictionaries: PayloadDictionaries) -> Unmanaged<ZstdDictionary>? {
        if let last, last.number == number, lastDictionaries.map({ $0 === dictionaries }) == true { return last.dictionary }
        guard let dictionary = dictionaries.dictionary(number) else { return nil }
        lastDictionaries = dictionaries
        last = (number, Unmanaged.passUnretained(dictionary))
        return last?.dictionary
    }
}
