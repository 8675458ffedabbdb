import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// `paylog analytics`: counts, amounts, funnel and latency percentiles per day × provider × currency.
struct AnalyticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Per UTC day × provider × currency: counts, amounts, failure codes, funnel, latency percentiles.",
        discussion: "Formats: table (default), csv, jsonl — one row or object per cell, for analytics jobs. See Docs/analytics.md.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, csv, jsonl }

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Option(help: "table, csv or jsonl.") var format: Format = .table
    @Option(help: "First day (YYYY-MM-DD, UTC).") var from: String?
    @Option(help: "Last day (YYYY-MM-DD, UTC).") var to: String?

    func validate() throws {
        for (name, day) in [("--from", from), ("--to", to)] {
            // Days are compared as text, so anything but a real YYYY-MM-DD day would filter silently and wrongly.
            guard let day else { continue }
            guard day.utf8.count == 10, Timestamp(rfc3339: day + "T00:00:00Z") != nil else {
                throw ValidationError("\(name) \(day.debugDescription) is not a day: give YYYY-MM-DD (UTC), e.g. 2026-11-21.")
            }
        }
        if let from, let to, from > to {
            throw ValidationError("--from \(from) is after --to \(to): no day can match; swap them.")
        }
    }

    func run() throws {
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        let cells = try Analytics.cells(in: store, from: from, to: to)
        switch format {
        case .csv:
            print(Analytics.csv(cells), terminator: "")
        case .jsonl:
            for cell in cells { print(AnalyticsJSON.line(cell)) }
        case .table:
            let header = ["day", "provider", "cur", "requested", "switched", "called back", "succeeded", "completed", "offline",
                          "reconciled", "failed", "cb p50 ms", "cb p99 ms", "failure codes"]
            let rows = cells.map { cell -> [String] in
                let f = Dictionary(uniqueKeysWithValues: cell.fields)
                return [cell.key.day, cell.key.provider, cell.key.currency, f["requested"]!, f["switched"]!, f["called_back"]!,
                        f["succeeded"]!, f["completed"]!, f["offline"]!, f["reconciled"]!, f["failed"]!,
                        f["request_to_callback_ms_p50"]!, f["request_to_callback_ms_p99"]!, f["failure_codes"]!]
            }
            print(Output.table(header, rows))
        }
    }
}
