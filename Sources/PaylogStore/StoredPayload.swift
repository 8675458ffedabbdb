import Foundation
import ZstdKit

/// An event's payload as the store keeps it: the caller's bytes, or a zstd frame of them that is decompressed
/// only when the payload is asked for (a scan of envelopes never pays for it).
///
/// Two stored payloads are equal when they hold the same payload bytes, however each is stored.
public struct StoredPayload: Sendable, Hashable {
    private enum Form: Sendable {
        case plain(Data)
        case zstd(frame: PayloadFrame, dictionary: ZstdDictionary)
    }

    private let form: Form

    /// A payload stored as given.
    public init(_ bytes: Data) { form = .plain(bytes) }

    /// A payload stored as `frame` (copied), compressed with `dictionary`.
    init(frame: UnsafeRawBufferPointer, dictionary: ZstdDictionary) {
        form = .zstd(frame: PayloadFrame.copying(frame), dictionary: dictionary)
    }

    /// A payload stored as `frame`, compressed with `dictionary`, copied in one allocation with the record's tag
    /// fields after it (`tags`); returns it and the tags read from that copy.
    static func framed(
        _ frame: UnsafeRawBufferPointer, dictionary: ZstdDictionary, tags: UnsafeRawBufferPointer
    ) -> (StoredPayload, StoredTags) {
        let copy = PayloadFrame.copying(frame, tail: tags)
        return (StoredPayload(form: .zstd(frame: copy, dictionary: dictionary)), StoredTags(fieldsAfter: copy))
    }

    private init(form: Form) { self.form = form }

    /// True when the payload is stored compressed.
    public var isCompressed: Bool {
        if case .zstd = form { return true }
        return false
    }

    /// The bytes the payload takes in its record (the frame's, when compressed).
    public var storedByteCount: Int {
        switch form {
        case .plain(let bytes): return bytes.count
        case .zstd(let frame, _): return frame.count
        }
    }

    /// The payload's size in bytes, read from the frame's header when compressed (no decompression); 0 when a
    /// damaged header declares none (reading the payload then fails with the reason).
    public var byteCount: Int {
        switch form {
        case .plain(let bytes): return bytes.count
        case .zstd(let frame, _): return frame.withUnsafeBytes { ZstdDictionary.contentSize(of: $0) } ?? 0
        }
    }

    /// The payload bytes, decompressed when stored compressed.
    /// - Throws: ``ZstdKit/ZstdError/damagedFrame(reason:)`` when the frame does not decompress.
    public func bytes() throws(ZstdError) -> Data {
        switch form {
        case .plain(let bytes): return bytes
        case .zstd(let frame, let dictionary):
            let result = frame.withUnsafeBytes { raw in Result { () throws(ZstdError) in try dictionary.decompress(raw) } }
            return try result.get()
        }
    }

    /// Compares payload bytes; a payload whose frame does not decompress equals only a payload stored the same way.
    public static func == (left: StoredPayload, right: StoredPayload) -> Bool {
        switch (left.form, right.form) {
        case (.plain(let a), .plain(let b)): return a == b
        case (.zstd(let a, let first), .zstd(let b, let second)) where first === second && a.hasSameBytes(as: b): return true
        default:
            guard let a = try? left.bytes(), let b = try? right.bytes() else { return false }
            return a == b
        }
    }

    /// Hashes the payload bytes (the frame's, when it does not decompress).
    public func hash(into hasher: inout Hasher) {
        if let bytes = try? bytes() {
            hasher.combine(bytes)
        } else if case .zstd(let frame, _) = form {
            frame.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
