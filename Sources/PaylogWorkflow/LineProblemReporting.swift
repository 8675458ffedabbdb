/// A sequence of input lines that says when the line it gave last is not the line as read (it was not valid UTF-8,
/// and came repaired). A batch ingest rejects such a line instead of recording the repaired text: see
/// ``LineReader`` (a file or standard input) and ``BufferLines`` (an HTTP body).
public protocol LineProblemReporting {
    /// Why the line the sequence gave last is not the line as read, or nil when it is.
    var problemWithLastLine: String? { get }
}
