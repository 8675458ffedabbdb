import ArgumentParser
import PaylogWorkflow

/// `paylog reconcile FILE`: matches provider report lines to payments.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Match a provider transaction report (JSON Lines) to payments and record Reconciled.",
        discussion: """
            One line per transaction: {"at":…,"provider":…,"transaction_id":…,"client_transaction_id"|"foreign_tx_id"|"transaction_code"|"reference":…,"amount_minor":…,"currency":…}. \
            Square lines match by client_transaction_id, SumUp by foreign_tx_id or transaction_code, iZettle by reference.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The report file, or - for standard input.") var file: String
    @Flag(help: "Print the report as JSON.") var json = false

    func run() async throws {
        let workflow = try storeOptions.existingWorkflow(actor: "reconcile")
        defer { workflow.store.close() }
        let reader = try LineReader(path: file)
        let report = await workflow.ingest(lines: reader, defaultKind: "reconcile")
        let summary = "\(report.lines) report lines: \(report.accepted) matched, \(report.rejected) unmatched, "
            + "\(report.eventsAppended) events appended"
        try Output.report(report, json: json, summary: summary, reader: reader, command: "reconcile")
    }
}
