import ArgumentParser
import PaylogStore

/// The `--at` option: when the observation was made (RFC 3339); now when omitted.
struct ObservedAt: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("When it was observed (RFC 3339); now when omitted.", valueName: "time"))
    var at: String?

    @Flag(help: "Print JSON.") var json = false

    func timestamp() throws -> Timestamp {
        guard let at else { return .now() }
        guard let time = Timestamp(rfc3339: at) else {
            throw ValidationError("--at \(at) is not an RFC 3339 time like 2026-11-22T09:15:02Z.")
        }
        return time
    }
}
