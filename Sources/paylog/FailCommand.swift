import ArgumentParser

/// `paylog fail ID --reason R`: records that we gave up on a payment.
struct FailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fail", abstract: "Record Failed for a payment we gave up on (e.g. a timeout).")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The payment id.") var payment: String
    @Option(help: "Why, in words a support engineer will read later.") var reason: String
    @OptionGroup var observed: ObservedAt

    /// An empty reason is refused as `ingest` refuses it (`"reason" is required`): the reason is what a support
    /// engineer reads later.
    func validate() throws {
        if reason.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--reason must say why the payment failed (it is empty).")
        }
    }

    func run() async throws {
        let workflow = try storeOptions.workflow()
        defer { workflow.store.close() }
        let outcome = try await workflow.record(.fail(payment: payment, at: try observed.timestamp(), reason: reason))
        try Output.outcome(outcome, json: observed.json)
    }
}
