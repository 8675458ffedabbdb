import ArgumentParser
import Foundation
import PaylogCompatibility
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// `paylog audit ID`: the payment's full timeline with evidence, readings and findings.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show a payment's full timeline: evidence as observed, how it reads, contract findings, state after each event.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Argument(help: "The payment id.") var payment: String
    @Flag(help: "Hide personal data (SumUp receipt-email, receipt-mobilephone).") var hidePersonalData = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        let entries: [AuditEntry]
        do { entries = try PaymentAudit.entries(of: payment, in: store, includePersonalData: !hidePersonalData) } catch {
            throw storeOptions.historyError(error, payment: payment)
        }
        if json {
            print(try JSONText.encode(AuditJSON.object(payment: payment, entries: entries)))
            return
        }
        print("audit of payment \(payment): \(entries.count) event(s)")
        for entry in entries {
            print("")
            print("#\(entry.event.position) v\(entry.event.version) \(entry.event.type)  observed \(entry.event.observedAt?.rfc3339 ?? "-")  recorded \(entry.event.recordedAt.rfc3339)  by \(TerminalText.escaped(entry.event.actor))  hash \(entry.event.hashHex.prefix(16))…")
            // Wire values pass through TerminalText: printed raw, an ESC or CR in one would rewrite the line.
            if let evidence = entry.evidence { print("  evidence: \(TerminalText.escaped(evidence))") }
            if let reading = entry.reading, !reading.isEmpty {
                let pairs = reading.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\($0.value)" }
                print("  reads as: " + TerminalText.escaped(pairs.joined(separator: "  ")))
            }
            for note in entry.notes { print("  note: \(TerminalText.escaped(note))") }
            for finding in entry.findings {
                print("  \(finding.severity.rawValue.uppercased()) \(finding.basis.mark) [\(finding.rule)] \(TerminalText.escaped(finding.message))")
            }
            print("  → status \(entry.state.status.rawValue)")
        }
    }
}
