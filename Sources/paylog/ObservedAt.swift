import ArgumentParser
import PaylogStore

/// The `--at` option: when the observation was made (RFC 3339); now when omitted.
struct ObservedAt: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("When it was observed (RFC 3339); now when omitted.", valueName: "time"))
    var at: String?

    @Flag(help: "Print JSON.") var json = false

    /// Refuses a malformed `--at` while the arguments are parsed (exit 64 with the command's usage line), before
    /// any command opens, or creates, a store: `request` once reported it as a run-time failure (exit 1).
    func validate() throws { _ = try timestamp() }

    /// The `--at` time, or now when it was omitted.
    func timestamp() throws -> Timestamp {
        guard let at else { return .now() }
        guard let time = Timestamp(rfc3339: at) else {
            if let advice = Timestamp.refusalAdvice(at) { throw ValidationError("--at \(at) cannot be recorded: \(advice).") }
            throw ValidationError("--at \(at) is not an RFC 3339 time like 2026-11-22T09:15:02Z.")
        }
        return time
    }
}
