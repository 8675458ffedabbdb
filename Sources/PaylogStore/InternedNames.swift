/// The event type names and actors a read loop has built already, found again by their bytes.
///
/// Nearly every record of a log repeats one of a handful of types and actors. Building each as a new string —
/// checking its UTF-8, and allocating it when it is 16 bytes or longer, as `CallbackReceived` is — was about a
/// sixth of a scan (`perf`, Docs/performance.md); handing back the string built for the same bytes costs two
/// word compares. Names up to 16 bytes are kept, the first ``capacity`` distinct ones; others are built each time.
struct InternedNames {
    /// A name of up to 16 bytes as its length and two words that, with the length, determine its bytes.
    private struct Key: Equatable {
        var count: Int
        var words: (UInt64, UInt64)

        /// Loads whole words where the bytes allow, overlapping (the first and the last eight of 8 to 16 bytes, the
        /// first and the last four of 4 to 7): no copy through memory, and no read outside `bytes`.
        @inline(__always)
        init(_ bytes: UnsafeRawBufferPointer) {
            count = bytes.count
            switch count {
            case 8...:
                words = (bytes.loadUnaligned(as: UInt64.self), bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            case 4..<8:
                let first = UInt64(bytes.loadUnaligned(as: UInt32.self))
                let last = UInt64(bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
                words = (first | last << 32, 0)
            default:
                var word: UInt64 = 0
                for index in 0..<count { word |= UInt64(bytes[index]) << UInt64(8 * index) }
                words = (word, 0)
            }
        }

        static func == (left: Key, right: Key) -> Bool {
            left.count == right.count && left.words.0 == right.words.0 && left.words.1 == right.words.1
        }
    }

    /// How many distinct names are kept.
    static let capacity = 16
    /// The longest name kept, in bytes.
    static let longestKept = 16

    private var keys: [Key] = []
    private var names: [String] = []

    /// No names yet; nothing is allocated until the first is kept.
    init() {}

    /// The string whose UTF-8 encoding is `bytes` — the one built before for the same bytes, when kept — or nil
    /// when they are not valid UTF-8.
    @inline(__always)
    mutating func name(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard bytes.count <= Self.longestKept else { return String(utf8Bytes: bytes) }
        let key = Key(bytes)
        for index in keys.indices where keys[index] == key { return names[index] }
        guard let name = String(utf8Bytes: bytes) else { return nil }
        if keys.count < Self.capacity {
            keys.append(key)
            names.append(name)
        }
        return name
    }
}
