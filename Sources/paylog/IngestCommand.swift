import ArgumentParser
import PaylogWorkflow

/// `paylog ingest FILE|-`: records JSON Lines observations.
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Record JSON Lines observations (request, app_switch, callback, reconcile, fail).",
        discussion: """
            Bad lines are reported with their line number and reason; every good line is still recorded. \
            Ingesting the same file twice appends nothing the second time. Exit status 0 only when no line was rejected.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The file to read, or - for standard input.") var file: String
    @Flag(help: "Print the report as JSON.") var json = false
    @Option(
        help: ArgumentHelp(
            "Record at most this many lines per write transaction (1–65536). Smaller batches make lines "
                + "durable sooner (1: each line as it is read, for a live pipe) and hold the store's writer lock "
                + "shorter beside a running `paylog serve`, at a cost in lines per second.",
            valueName: "N"))
    var batchLines: Int = PaymentWorkflow.defaultIngestBatchSize

    /// The most `--batch-lines` takes: a batch's prepared lines are held in memory until it is recorded.
    static let maximumBatchLines = 65_536

    func validate() throws {
        guard (1...Self.maximumBatchLines).contains(batchLines) else {
            throw ValidationError(
                "--batch-lines must be between 1 and \(Self.maximumBatchLines) lines; got \(batchLines).")
        }
    }

    func run() async throws {
        let workflow = try storeOptions.workflow(actor: "ingest")
        defer { workflow.store.close() }
        let reader = try LineReader(path: file)
        let report = await workflow.ingest(lines: reader, batchSize: batchLines)
        try Output.report(report, json: json, summary: "\(report.lines) lines: \(report.accepted) accepted, \(report.rejected) rejected, \(report.eventsAppended) events appended", reader: reader)
    }
}
