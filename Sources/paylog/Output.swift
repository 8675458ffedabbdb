import ArgumentParser
import Foundation
import PaylogDomain
import PaylogWorkflow

/// Renders payments and reports as readable tables or JSON.
enum Output {
    static func json(_ object: Any) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    static func json<T: Encodable>(encodable value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The fields `paylog status` shows, as a JSON object.
    static func statusObject(_ p: Payment) -> [String: Any] {
        var flags: [String] = []
        if p.hadLateCallback { flags.append("late_callback") }
        if p.hadContradictingCallbacks { flags.append("contradicting_callbacks") }
        if p.hadAmountMismatch { flags.append("amount_mismatch") }
        if p.hadRequestAfterSuccess { flags.append("request_after_success") }
        let null = NSNull()
        return [
            "payment": p.id, "status": p.status.rawValue, "provider": p.provider.rawValue,
            "amount_minor": p.amount.map { $0.minorUnits as Any } ?? null,
            "currency": p.amount.map { $0.currency.code as Any } ?? null,
            "transaction_id": p.transactionID ?? null, "client_transaction_id": p.clientTransactionID ?? null,
            "error_code": p.errorCode ?? null, "version": p.version, "callbacks": p.callbackURLs.count,
            "api_version": p.apiVersion ?? null, "app_version": p.appVersion ?? null, "flags": flags,
        ]
    }

    /// A fixed-width table.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
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
        return [
            p.id, p.status.rawValue, p.provider.rawValue, p.amount.map { "\($0.decimalString) \($0.currency.code)" } ?? "?",
            p.transactionID ?? "-", p.clientTransactionID ?? "-", p.errorCode ?? "-", String(p.version),
            flags.joined(separator: ","),
        ]
    }

    static let statusHeader = ["payment", "status", "provider", "amount", "transaction_id", "client_tx_id", "error_code", "v", "flags"]

    /// Prints an ingest report (as JSON, or a summary and one line per rejected line) and fails with exit
    /// status 2 when any line was rejected.
    static func report(_ report: IngestReport, json: Bool, summary: String) throws {
        if json {
            print(try Output.json(encodable: report))
        } else {
            print(summary)
            for error in report.errors { print("line \(error.line): \(error.message)") }
        }
        if report.rejected > 0 { throw ExitCode(2) }
    }

    /// Prints one recorded outcome.
    static func outcome(_ outcome: RecordOutcome, json: Bool) throws {
        if json {
            var object = statusObject(outcome.payment)
            object["events_appended"] = outcome.eventsAppended
            object["already_recorded"] = outcome.wasAlreadyRecorded
            print(try Output.json(object))
        } else {
            let what = outcome.eventsAppended == 0
                ? (outcome.wasAlreadyRecorded ? "already recorded; nothing appended" : "nothing to record (a duplicate)")
                : "\(outcome.eventsAppended) event(s) appended"
            print("\(outcome.paymentID): \(what); status \(outcome.payment.status.rawValue), version \(outcome.payment.version)")
        }
    }
}
