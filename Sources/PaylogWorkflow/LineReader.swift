import Foundation

/// Reads a file (or standard input) line by line without loading it whole: the input of `paylog ingest`.
///
/// Lines come without their line feed (`\n`); anything else, a carriage return included, is left for the caller.
public struct LineReader: Sequence, IteratorProtocol {
    /// The open file and `getline`'s buffer, reused from line to line and freed with the reader.
    private final class Handle {
        let file: UnsafeMutablePointer<FILE>
        let closes: Bool
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        var isOpen = true

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
            handle = Handle(file: opened, closes: true)
        }
    }

    /// The next line without its line feed, or nil at the end (the file is then closed).
    public mutating func next() -> String? {
        guard handle.isOpen else { return nil }
        var length = getline(&handle.buffer, &handle.capacity, handle.file)
        guard length >= 0, let buffer = handle.buffer else {
            handle.close()
            return nil
        }
        // Without the line feed: a line ending in a visible character then skips the ingest's trimming (which
        // converts the whole line to UTF-16), and `import-log` gets the line as written.
        if length > 0 && buffer[length - 1] == 0x0A { length -= 1 }
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
    }
}
