/// A compressed payload's zstd frame, copied out of the log: its bytes in the same allocation as their object.
///
/// A scan builds one per event. `Data` took two allocations and a dynamic exclusivity check on every access to
/// Foundation's storage class; `[UInt8]` took one allocation but asked the runtime for its storage class's
/// metadata each time (its allocation path is not specialised for this module): together about a sixth of a
/// scan (`perf`, Docs/performance.md). A final class of this module has its metadata at hand.
///
/// `@unchecked Sendable`: the bytes are never changed after ``copying(_:)`` (`ManagedBuffer` itself is not
/// `Sendable`, since in general its elements may be mutated).
struct PayloadFrame: @unchecked Sendable {
    /// The object holding the byte count as its header and the bytes after it.
    private final class Storage: ManagedBuffer<Int, UInt8> {}

    private let storage: Storage

    /// A frame holding a copy of `bytes`.
    static func copying(_ bytes: UnsafeRawBufferPointer) -> PayloadFrame {
        let storage = unsafeDowncast(Storage.create(minimumCapacity: bytes.count) { _ in bytes.count }, to: Storage.self)
        if let source = bytes.baseAddress {
            storage.withUnsafeMutablePointerToElements { elements in
                UnsafeMutableRawPointer(elements).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        return PayloadFrame(storage: storage)
    }

    /// The number of bytes.
    ///
    /// Read through the header's pointer: `ManagedBuffer.header` is a class's stored `var`, so each read of it
    /// began and ended a dynamic exclusivity access — 2 % of a scan's samples, which asks every event's size.
    var count: Int { storage.withUnsafeMutablePointerToHeader { $0.pointee } }

    /// Calls `body` with the bytes, valid during the call.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { header, elements in
            try body(UnsafeRawBufferPointer(start: elements, count: header.pointee))
        }
    }

    /// True when both frames hold the same bytes.
    func hasSameBytes(as other: PayloadFrame) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { mine in other.withUnsafeBytes { theirs in mine.elementsEqual(theirs) } }
    }
}
