/// The lines of JSON Lines input already in memory (an HTTP body), read by the rules of ``LineReader``: lines come
/// without their line feed, a UTF-8 byte order mark opening the input is dropped, a final line feed ends the last
/// line rather than opening an empty one, and a line that is not valid UTF-8 comes as its lossy decoding with
/// ``problemWithLastLine`` saying where it is bad (the caller must reject it, never record it repaired).
///
/// Lines are made one at a time as the sequence is read, so a large body is never held twice as strings. Like
/// ``LineReader``, it is read once: its copies share one position, so a second `for` loop over it gets no lines.
public struct BufferLines: Sequence, IteratorProtocol, LineProblemReporting {
    /// The bytes and where reading stands, shared by the copies a `for` loop makes of the sequence (so that
    /// ``problemWithLastLine`` speaks of the line the loop was given last).
    private final class Cursor {
        let bytes: [UInt8]
        var offset = 0
        var problem: String?

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }
    }

    private let cursor: Cursor

    /// The lines of `bytes`.
    public init(_ bytes: [UInt8]) {
        cursor = Cursor(bytes: bytes)
    }

    /// Why the line ``next()`` returned last is not the line as read (it is not valid UTF-8), or nil when it is.
    public var problemWithLastLine: String? { cursor.problem }

    /// The next line without its line feed, or nil at the end.
    public mutating func next() -> String? {
        let cursor = self.cursor
        cursor.problem = nil
        let count = cursor.bytes.count
        guard cursor.offset < count else { return nil }
        return cursor.bytes.withUnsafeBytes { all -> String in
            var start = cursor.offset
            var end = start
            while end < count && all[end] != 0x0A { end += 1 }
            cursor.offset = end + 1
            // The input's first line loses a byte order mark (as LineReader's does: a body of only the mark is one
            // blank line).
            if start == 0 { start = LineReader.byteOrderMarkLength(UnsafeRawBufferPointer(rebasing: all[0..<end])) }
            let line = UnsafeRawBufferPointer(rebasing: all[start..<end])
            if let text = String(validating: line, as: UTF8.self) { return text }
            cursor.problem = LineReader.utf8Problem(in: line)
            return String(decoding: line, as: UTF8.self)
        }
    }
}
