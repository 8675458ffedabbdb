import ArgumentParser

/// `paylog switch ID`: records `AppSwitched`.
struct SwitchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switch", abstract: "Record that the shop's app switched to the provider's app.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The payment id.") var payment: String
    @Option(help: "A note to keep with the event.") var note: String = ""
    @OptionGroup var observed: ObservedAt

    func run() async throws {
        let workflow = try storeOptions.workflow()
        defer { workflow.store.close() }
        let outcome = try await workflow.record(.appSwitch(payment: payment, at: try observed.timestamp(), note: note))
        try Output.outcome(outcome, json: observed.json)
    }
}
