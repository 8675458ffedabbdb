import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogStore

/// `paylog verify`: recomputes the hash chain over the whole log.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Recompute the SHA-256 hash chain over every event; exit 3 when it is broken.",
        discussion: "Exit status: 0 intact, 3 broken (the first broken position is printed; or the chain head itself is "
            + "damaged), 1 other errors.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Flag(help: "Print a JSON object.") var json = false

    func run() throws {
        let store: EventStore
        do {
            store = try storeOptions.openExisting(readOnly: access.readOnly)
        } catch let damage as ChainDamageAtOpen {
            // A log cut short under a view this release would rebuild stops a read-write open only: read-only, the
            // whole chain is checked and reported as usual (an earlier break included).
            if damage.firstBrokenPosition != nil, !access.readOnly,
               let readOnly = try? storeOptions.openExisting(readOnly: true) {
                defer { readOnly.close() }
                try report(readOnly)
                return
            }
            // Damage to the chain that stops every open (a damaged head): reported as the broken chain it is.
            if json {
                var object: [String: Any] = ["chain_ok": false, "events_checked": 0, "problem": damage.problem]
                if let broken = damage.firstBrokenPosition { object["first_broken_position"] = broken }
                print(try JSONText.encode(object))
            } else {
                print(damage.verdict)
            }
            FileHandle.standardError.write(Data("Error: \(damage)\n".utf8))
            throw ExitCode(3)
        }
        defer { store.close() }
        try report(store)
    }

    /// Checks `store`'s chain and prints the verdict; exit 3 when it is broken.
    private func report(_ store: EventStore) throws {
        let report = try store.verifyChain()
        if json {
            var object: [String: Any] = [
                "chain_ok": report.isIntact, "events_checked": report.eventsChecked, "last_position": report.lastPosition,
            ]
            if let broken = report.firstBrokenPosition { object["first_broken_position"] = broken }
            if let problem = report.problem { object["problem"] = problem }
            if let hash = report.headHash { object["head_hash"] = hash }
            print(try JSONText.encode(object))
        } else if report.isIntact {
            print("chain intact: \(report.eventsChecked) events, head at position \(report.lastPosition)"
                + (report.headHash.map { ", head hash \($0)" } ?? ""))
        } else {
            print("CHAIN BROKEN at position \(report.firstBrokenPosition!): \(report.problem ?? "")")
            print("\(report.eventsChecked) events before it check out.")
        }
        if !report.isIntact { throw ExitCode(3) }
    }
}
