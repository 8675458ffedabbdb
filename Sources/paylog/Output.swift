import ArgumentParser
import Foundation
import PaylogDomain
import PaylogPresentation
import PaylogWorkflow

/// Renders payments and reports as readable tables or JSON.
enum Output {
    /// Lays out `rows` under `header` in columns; each cell passes through ``TerminalText/escaped(_:)`` first (cells
    /// hold wire values: transaction ids, error codes).
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let rows = rows.map { $0.map(TerminalText.escaped) }
        var widths = header.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, c in c.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
    }

    static func statusRow(_ p: Payment) -> [String] {
        var flags: [String] = []
        if p.hadLateCallback { flags.append("LATE") }
        if p.hadContradictingCallbacks { flags.append("CONTRADICT") }
        if p.hadAmountMismatch { flags.append("AMOUNT") }
        if p.hadMultipleCharges { flags.append("CHARGES") }
        return [
            p.id, p.status.rawValue, p.provider.rawValue, p.amount.map { "\($0.decimalString) \($0.currency.code)" } ?? "?",
            p.transactionID ?? "-", p.clientTransactionID ?? "-", p.errorCode ?? "-", String(p.version),
            flags.joined(separator: ","),
        ]
    }

    static let statusHeader = ["payment", "status", "provider", "amount", "transaction_id", "client_tx_id", "error_code", "v", "flags"]

    /// Prints an ingest report (as JSON, or a summary and one line per rejected line) and fails with exit
    /// status 2 when any line was rejected.
    /// Prints an ingest's report; exit status 2 when a line was rejected. When `reader` stopped at a read error,
    /// fails (exit 1) after the report, saying that the lines before it were recorded.
    /// `command` is what to run again (`ingest`, `reconcile`): the advice after a stop names it.
    static func report(
        _ report: IngestReport, json: Bool, summary: String, reader: LineReader? = nil, command: String = "ingest"
    ) throws {
        if json {
            print(try JSONText.encode(encodable: report))
        } else {
            print(summary)
            for error in report.errors { print("line \(error.line): \(TerminalText.escaped(error.message))") }
            if report.errorsOmitted > 0 { print("… and \(report.errorsOmitted) more rejected line(s), not listed") }
        }
        if let stopped = report.stoppedAtLine {
            throw CLIError(
                "Recording stopped at line \(stopped): the store failed to commit (\(report.storeError ?? "unknown cause")). "
                    + "The lines before it were recorded as reported; nothing from line \(stopped) on was, so the log "
                    + "keeps the file's order. Fix the cause (room on the disk, say), then \(command) the whole file again: "
                    + "recorded lines append nothing.")
        }
        if let readError = reader?.readError {
            throw CLIError(
                "Reading the input stopped after line \(report.lines) at an error: \(readError). The lines before it "
                    + "were recorded as reported; \(command) the whole input again once it reads (recorded lines append nothing).")
        }
        if report.rejected > 0 { throw ExitCode(2) }
    }

    /// Prints one recorded outcome.
    static func outcome(_ outcome: RecordOutcome, json: Bool) throws {
        if json {
            var object = PaymentJSON.object(outcome.payment)
            object["events_appended"] = outcome.eventsAppended
            object["already_recorded"] = outcome.wasAlreadyRecorded
            print(try JSONText.encode(object))
        } else {
            let what = outcome.eventsAppended == 0
                ? (outcome.wasAlreadyRecorded
                    ? "already recorded; nothing appended"
                    : "nothing appended (the payment's recorded state already holds it)")
                : "\(outcome.eventsAppended) event(s) appended"
            print("\(outcome.paymentID): \(what); status \(outcome.payment.status.rawValue), version \(outcome.payment.version)")
        }
    }
}
