import Foundation

/// Reads a file (or standard input) line by line without loading it whole: the input of `paylog ingest`.
public struct LineReader: Sequence, IteratorProtocol {
    private let file: UnsafeMutablePointer<FILE>
    private let closes: Bool

    /// Opens `path`; `-` reads standard input.
    public init(path: String) throws(WorkflowError) {
        if path == "-" {
            guard let input = fdopen(0, "r") else { throw .unreadable("cannot read standard input") }
            file = input
            closes = false
        } else {
            guard let opened = fopen(path, "r") else {
                throw .unreadable("cannot open \(path): \(String(cString: strerror(errno)))")
            }
            file = opened
            closes = true
        }
    }

    /// The next line without its newline, or nil at the end (the file is then closed).
    public mutating func next() -> String? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        let length = getline(&buffer, &capacity, file)
        guard length >= 0, let buffer else {
            if closes { fclose(file) }
            return nil
        }
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: length), as: UTF8.self)
    }
}
