import ArgumentParser
import PaylogPresentation
import PaylogStore

/// `paylog expire`: fails offline payments whose reconciliation window closed.
struct ExpireCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "expire",
        abstract: "Fail offline payments not reconciled within the provider's window (Square: 24 h).")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "Judge expiry as of this RFC 3339 time; now when omitted.") var now: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        var when = Timestamp.now()
        if let now {
            guard let parsed = Timestamp(rfc3339: now) else {
                if let advice = Timestamp.refusalAdvice(now) { throw ValidationError("--now \(now): \(advice).") }
                throw ValidationError("--now \(now) is not an RFC 3339 time like 2026-11-22T09:15:02Z.")
            }
            when = parsed
        }
        let workflow = try storeOptions.existingWorkflow(actor: "expire")
        defer { workflow.store.close() }
        let expired = try await workflow.expireOffline(now: when)
        if json {
            print(try JSONText.encode(["expired": expired, "as_of": when.rfc3339]))
        } else {
            print("\(expired.count) offline payment(s) expired as of \(when)\(expired.isEmpty ? "" : ": " + expired.joined(separator: ", "))")
        }
    }
}
