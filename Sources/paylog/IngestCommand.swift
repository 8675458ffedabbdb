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

    func run() async throws {
        let workflow = try storeOptions.workflow(actor: "ingest")
        defer { workflow.store.close() }
        let reader = try LineReader(path: file)
        let report = await workflow.ingest(lines: reader)
        try Output.report(report, json: json, summary: "\(report.lines) lines: \(report.accepted) accepted, \(report.rejected) rejected, \(report.eventsAppended) events appended", reader: reader)
    }
}
