import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// `paylog replay`: rebuilds the views from the log and checks them, or replays one payment.
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay one payment event by event (--payment), or rebuild and check every view.",
        discussion: """
            Without --payment: rebuilds every view from the log into scratch space, compares it with the live \
            views, judges every recorded request and callback against its provider's contract, and verifies \
            the hash chain. Exit status: 0 all good (warnings allowed), 3 chain broken, 4 projection drift, \
            5 error-severity findings, 1 could not run; the most serious wins.

            With --payment ID: the payment event by event with its state after each, optionally only up to \
            --at VERSION (its first N events) or --at TIME (RFC 3339, by observed-at).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Option(help: "Replay only this payment.") var payment: String?
    @Option(parsing: .unconditional, help: "With --payment: stop after this version, or at this RFC 3339 time.")
    var at: String?
    @Flag(help: "Print JSON.") var json = false

    func run() async throws {
        if payment == nil && access.readOnly {
            throw ValidationError(
                "--read-only replays one payment (--payment ID): rebuilding every view writes scratch views into the "
                    + "store. Copy the store to writable storage and replay the copy.")
        }
        let store: EventStore
        do {
            store = try storeOptions.openExisting(readOnly: access.readOnly)
        } catch let damage as ChainDamageAtOpen where payment == nil {
            // Nothing can be replayed, and the reason is the chain's damage: reported as a broken chain (exit 3).
            if json {
                var object: [String: Any] = [
                    "chain_ok": false, "chain_problem": damage.problem, "replayed": false, "exit_status": 3,
                ]
                if let broken = damage.firstBrokenPosition { object["chain_first_broken_position"] = broken }
                print(try JSONText.encode(object))
            } else {
                print("hash chain: BROKEN\(damage.firstBrokenPosition.map { " at position \($0)" } ?? ""): \(damage.problem)")
                print("nothing replayed: the store cannot be opened")
            }
            FileHandle.standardError.write(Data("Error: \(damage)\n".utf8))
            throw ExitCode(3)
        }
        defer { store.close() }
        guard let payment else {
            if at != nil { throw ValidationError("--at needs --payment.") }
            let bar = ProgressBar(label: "replay")
            let report = try LogReplay.run(store) { done, total in bar.update(done, of: total) }
            bar.finish()
            try ReplayOutput.print(report, json: json)
            if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
            return
        }
        var cutoff = HistoryCutoff.all
        if let at {
            guard let parsed = HistoryCutoff(argument: at) else {
                if let advice = Timestamp.refusalAdvice(at) { throw ValidationError("--at \(at): \(advice).") }
                throw ValidationError(
                    "--at must be a version number (a whole number from 0 to \(UInt64.max)) or an RFC 3339 time like 2026-11-21T09:40:30Z (got \(at)).")
            }
            cutoff = parsed
        }
        let steps: [HistoryStep]
        let notes: [UInt64: [String]]
        do {
            steps = try PaymentHistory.steps(of: payment, in: store, upTo: cutoff)
            notes = try PaymentAudit.notesByPosition(of: payment, in: store)
        } catch {
            throw storeOptions.historyError(error, payment: payment)
        }
        var missingVersion: UInt64?
        if case .version(let asked) = cutoff, let last = steps.last?.event.version, last < asked { missingVersion = asked }
        try ReplayPaymentOutput.print(
            steps, payment: payment, cutoff: at, missingVersion: missingVersion, notes: notes, json: json)
    }
}
