import ArgumentParser
import Foundation
import PaylogPresentation
import PaylogStore

/// `paylog backup`: a verified, consistent copy of the store in a new directory.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the whole store (log, indexes, views) to a new directory, compacted, and verify the copy.",
        discussion: """
            Safe while the server runs: the copy is one consistent snapshot. It is compacted unless --keep-layout \
            is given: free pages dropped and each database's pages in key order, so the copy is smaller and a view \
            rebuild from it is cheaper. The copy's hash chain is then verified and its last hash compared with the \
            store's. Exit status: 0 verified, 3 the copy does not verify, 1 other errors (nothing is left behind \
            in the destination when the copy itself fails).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Argument(help: ArgumentHelp("The directory to write the copy to; it must be new or empty.", valueName: "dir"))
    var destination: String
    @Flag(help: "Copy page for page, free pages included, instead of compacting.") var keepLayout = false
    @Flag(help: "Print a JSON object.") var json = false

    func run() throws {
        // A directory without a store is refused, not opened: that would create an empty store and back it up.
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        let report = try store.backup(to: destination, compact: !keepLayout)
        let copy = try StoreOptions.open(at: destination)
        defer { copy.close() }
        let chain = try copy.verifyChain()
        // The copy's last event must be the store's event at that position: same chain hash.
        let position = chain.lastPosition
        let matches = try position == 0 || copy.event(at: position)?.hash == store.event(at: position)?.hash
        let verified = chain.isIntact && matches
        if json {
            var object: [String: Any] = [
                "destination": report.destination, "compacted": report.compacted, "verified": verified,
                "chain_ok": chain.isIntact, "matches_store": matches, "events": chain.eventsChecked,
                "last_position": position, "source_bytes": report.sourceFileBytes, "copy_bytes": report.copyFileBytes,
            ]
            if let problem = chain.problem { object["problem"] = problem }
            print(try JSONText.encode(object))
        } else {
            let sizes = "data.mdb \(Self.megabytes(report.sourceFileBytes)) → \(Self.megabytes(report.copyFileBytes))"
            let how = report.compacted ? "compacted" : "page for page"
            if verified {
                print("backed up \(store.path) to \(destination) (\(how)): \(chain.eventsChecked) events up to "
                    + "position \(position), chain verified, last hash matches the store; \(sizes)")
            } else if !chain.isIntact {
                print("THE COPY DOES NOT VERIFY at position \(chain.firstBrokenPosition!): \(chain.problem ?? "")")
                // The copy is a snapshot of the store: a chain broken in it is, almost always, broken in the store.
                print("The copy holds the store's pages as they were: run `paylog verify` on the store itself; if it "
                    + "breaks at the same position, the store's log is damaged there, not the copy.")
            } else {
                print("THE COPY DOES NOT MATCH THE STORE: its event at position \(position) has another hash")
            }
        }
        if !verified { throw ExitCode(3) }
    }

    private static func megabytes(_ bytes: Int) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
