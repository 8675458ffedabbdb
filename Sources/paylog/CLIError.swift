/// A command-line failure with a message for the person at the terminal (printed as `Error: …`, exit 1).
struct CLIError: Error, CustomStringConvertible {
    /// What went wrong and what to do.
    let description: String

    init(_ description: String) { self.description = description }
}
