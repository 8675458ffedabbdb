import ArgumentParser
import Foundation
import PaylogCompatibility
import PaylogStore
import PaylogWorkflow

/// `paylog audit ID`: the payment's full timeline with evidence, readings and findings.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show a payment's full timeline: evidence as observed, how it reads, contract findings, state after each event.")

    @OptionGroup var storeOptions: StoreOptions
    @Argument(help: "The payment id.") var payment: String
    @Flag(help: "Hide personal data (SumUp receipt-email, receipt-mobilephone).") var hidePersonalData = false
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let store = try storeOptions.open()
        defer { store.close() }
        let entries: [AuditEntry]
        do { entries = try PaymentAudit.entries(of: payment, in: store, includePersonalData: !hidePersonalData) } catch {
            throw CLIError("\(error)")
        }
        if json {
            let objects: [[String: Any]] = entries.map { entry in
                var object: [String: Any] = [
                    "position": entry.event.position, "version": entry.event.version, "type": entry.event.type,
                    "recorded_at": entry.event.recordedAt.rfc3339, "actor": entry.event.actor, "hash": entry.event.hashHex,
                    "notes": entry.notes, "findings": entry.findings.map(ReplayOutput.findingObject),
                    "state": Output.statusObject(entry.state),
                ]
                if let observed = entry.event.observedAt { object["observed_at"] = observed.rfc3339 }
                if let evidence = entry.evidence { object["evidence"] = evidence }
                if let reading = entry.reading { object["reading"] = reading }
                return object
            }
            print(try Output.json(["payment": payment, "timeline": objects]))
            return
        }
        print("audit of payment \(payment): \(entries.count) event(s)")
        for entry in entries {
            print("")
            print("#\(entry.event.position) v\(entry.event.version) \(entry.event.type)  observed \(entry.event.observedAt?.rfc3339 ?? "-")  recorded \(entry.event.recordedAt.rfc3339)  by \(entry.event.actor)  hash \(entry.event.hashHex.prefix(16))…")
            if let evidence = entry.evidence { print("  evidence: \(evidence)") }
            if let reading = entry.reading, !reading.isEmpty {
                print("  reads as: " + reading.sorted(by: { $0.key < $1.key }).map { "\($0.key)=\($0.value)" }.joined(separator: "  "))
            }
            for note in entry.notes { print("  note: \(note)") }
            for finding in entry.findings { print("  \(finding.severity.rawValue.uppercased()) [\(finding.rule)] \(finding.message)") }
            print("  → status \(entry.state.status.rawValue)")
        }
    }
}
