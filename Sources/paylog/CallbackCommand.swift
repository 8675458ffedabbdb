import ArgumentParser
import PaylogDomain

/// `paylog callback [ID] --url URL`: records a callback.
struct CallbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "callback",
        abstract: "Record a callback URL exactly as received.",
        discussion: "Without a payment id the callback is routed by its paylog_payment marker, Square state, SumUp foreign-tx-id or iZettle reference.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The payment id, when known.") var payment: String?
    @Option(help: "The callback URL.") var url: String
    @Option(help: "square, sumup or izettle, when the URL does not show it.") var provider: String?
    @OptionGroup var observed: ObservedAt

    func run() async throws {
        var providerValue: Provider?
        if let provider {
            guard let value = Provider(rawValue: provider.lowercased()) else {
                throw ValidationError("--provider must be square, sumup or izettle.")
            }
            providerValue = value
        }
        let workflow = try storeOptions.workflow()
        defer { workflow.store.close() }
        let outcome = try await workflow.record(
            .callback(payment: payment, at: try observed.timestamp(), url: url, provider: providerValue))
        try Output.outcome(outcome, json: observed.json)
    }
}
