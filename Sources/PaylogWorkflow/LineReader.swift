import Foundation

/// Reads a file (or standard input) line by line without loading it whole: the input of `paylog ingest`.
///
/// Lines come without their line feed (`\n`); anything else, a carriage return included, is left for the caller.
/// A UTF-8 byte order mark at the very start of the input is dropped.
/// A line that is not valid UTF-8 comes as its lossy decoding (each bad byte a U+FFFD) with
/// ``problemWithLastLine`` saying where it is bad: the caller must reject it, since recording the repaired text
/// would alter the evidence (and make two different lines look alike). A read error ends the lines, and
/// ``readError`` says what it was.
public struct LineReader: Sequence, IteratorProtocol, LineProblemReporting {
    /// The open file and `getline`'s buffer, reused from line to line and freed with the reader.
    private final class Handle {
        let file: UnsafeMutablePointer<FILE>
        let closes: Bool
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        var isOpen = true
        var problem: String?
        var readError: String?
        /// Whether the next line is the input's first (which may start with a byte order mark).
        var atStart = true

        init(file: UnsafeMutablePointer<FILE>, closes: Bool) {
            self.file = file
            self.closes = closes
        }

        func close() {
            guard isOpen else { return }
            isOpen = false
            if closes { fclose(file) }
        }

        deinit {
            close()
            free(buffer)
        }
    }

    private let handle: Handle

    /// Opens `path`; `-` reads standard input.
    public init(path: String) throws(WorkflowError) {
        if path == "-" {
            guard let input = fdopen(0, "r") else { throw .unreadable("cannot read standard input") }
            handle = Handle(file: input, closes: false)
        } else {
            guard let opened = fopen(path, "r") else {
                throw .unreadable("cannot open \(path): \(String(cString: strerror(errno)))")
            }
            var status = stat()
            if fstat(fileno(opened), &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
                fclose(opened)
                throw .unreadable("\(path) is a directory, not a file of lines")
            }
            handle = Handle(file: opened, closes: true)
        }
    }

    /// Why the line ``next()`` returned last is not the line as read (it is not valid UTF-8), or nil when it is.
    public var problemWithLastLine: String? { handle.problem }

    /// Why reading stopped before the end of the input (an I/O error), or nil when it reached the end.
    public var readError: String? { handle.readError }

    /// The next line without its line feed, or nil at the end (the file is then closed).
    public mutating func next() -> String? {
        guard handle.isOpen else { return nil }
        handle.problem = nil
        errno = 0
        var length = getline(&handle.buffer, &handle.capacity, handle.file)
        guard length >= 0, let buffer = handle.buffer else {
            if ferror(handle.file) != 0 { handle.readError = String(cString: strerror(errno == 0 ? EIO : errno)) }
            handle.close()
            return nil
        }
        // Without the line feed: a line ending in a visible character then skips the ingest's trimming (which
        // converts the whole line to UTF-16), and `import-log` gets the line as written.
        if length > 0 && buffer[length - 1] == 0x0A { length -= 1 }
        var start = buffer
        if handle.atStart {
            handle.atStart = false
            let mark = LineReader.byteOrderMarkLength(UnsafeRawBufferPointer(start: buffer, count: length))
            start += mark
            length -= mark
        }
        let bytes = UnsafeRawBufferPointer(start: start, count: length)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        handle.problem = LineReader.utf8Problem(in: bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How many bytes at the start of an input are a UTF-8 byte order mark (EF BB BF): 3, or 0 when it has none.
    /// Such a mark, as Windows tools write one, belongs to the input's encoding, not to its first line: every reader
    /// of JSON Lines input (`paylog ingest`, `paylog reconcile`, `paylog import-log`, the HTTP JSON Lines
    /// endpoints) skips it by this one rule.
    public static func byteOrderMarkLength(_ bytes: UnsafeRawBufferPointer) -> Int {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    /// Where `bytes`, which are not valid UTF-8, first go wrong: the byte and its 1-based column, as the reason a
    /// line is rejected.
    public static func utf8Problem(in bytes: UnsafeRawBufferPointer) -> String {
        // The longest valid prefix: the scalars parsed before the first bad sequence.
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var valid = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { valid += scalar.count }
        let bad = valid < bytes.count ? bytes[valid] : 0
        return "not valid UTF-8 (byte 0x\(String(bad, radix: 16, uppercase: true)) at column \(valid + 1)): "
            + "JSON Lines must be UTF-8, and paylog records text only as received, never repaired"
    }
}
