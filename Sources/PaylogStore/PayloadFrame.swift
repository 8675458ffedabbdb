/// A compressed payload's zstd frame, copied out of the log: its bytes in the same allocation as their object,
/// followed by the record's tag fields when it has them (``StoredTags``), so that the tags cost a scan no
/// allocation of their own.
///
/// A scan builds one per event. `Data` took two allocations and a dynamic exclusivity check on every access to
/// Foundation's storage class; `[UInt8]` took one allocation but asked the runtime for its storage class's
/// metadata each time (its allocation path is not specialised for this module): together about a sixth of a
/// scan (`perf`, Docs/performance.md). A final class of this module has its metadata at hand.
///
/// `@unchecked Sendable`: the bytes are never changed after ``copying(_:)`` (`ManagedBuffer` itself is not
/// `Sendable`, since in general its elements may be mutated).
struct PayloadFrame: @unchecked Sendable {
    /// The byte counts of the frame and of the tail after it.
    private struct Counts {
        var frame: Int
        var tail: Int
    }

    /// The object holding the byte counts as its header and the bytes after it.
    private final class Storage: ManagedBuffer<Counts, UInt8> {}

    private let storage: Storage

    /// A frame holding a copy of `bytes`, and after them a copy of `tail` (the record's tag fields, or nothing).
    static func copying(_ bytes: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) -> PayloadFrame {
        let storage = unsafeDowncast(
            Storage.create(minimumCapacity: bytes.count + tail.count) { _ in Counts(frame: bytes.count, tail: tail.count) },
            to: Storage.self)
        storage.withUnsafeMutablePointerToElements { elements in
            if let source = bytes.baseAddress {
                UnsafeMutableRawPointer(elements).copyMemory(from: source, byteCount: bytes.count)
            }
            if let source = tail.baseAddress {
                UnsafeMutableRawPointer(elements + bytes.count).copyMemory(from: source, byteCount: tail.count)
            }
        }
        return PayloadFrame(storage: storage)
    }

    /// The number of the frame's bytes.
    ///
    /// Read through the header's pointer: `ManagedBuffer.header` is a class's stored `var`, so each read of it
    /// began and ended a dynamic exclusivity access — 2 % of a scan's samples, which asks every event's size.
    var count: Int { storage.withUnsafeMutablePointerToHeader { $0.pointee.frame } }

    /// Calls `body` with the frame's bytes, valid during the call.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { header, elements in
            try body(UnsafeRawBufferPointer(start: elements, count: header.pointee.frame))
        }
    }

    /// Calls `body` with the bytes copied after the frame, valid during the call.
    func withUnsafeTail<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { header, elements in
            try body(UnsafeRawBufferPointer(start: elements + header.pointee.frame, count: header.pointee.tail))
        }
    }

    /// True when both frames hold the same bytes.
    func hasSameBytes(as other: PayloadFrame) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { mine in other.withUnsafeBytes { theirs in mine.elementsEqual(theirs) } }
    }
}
