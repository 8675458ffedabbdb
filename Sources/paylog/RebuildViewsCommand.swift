import ArgumentParser
import Foundation
import PaylogStore

/// `paylog rebuild-views`: rebuilds every view blue/green from the log.
struct RebuildViewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild-views",
        abstract: "Rebuild every view from the log, blue/green: the live view keeps serving until the new one has caught up.",
        discussion: """
            Views whose code version changed are rebuilt this way automatically when the store opens. The status \
            view is built by folding each payment in memory during one read of the log (two threads taking ranges \
            of it in turn), then caught up with what was appended meanwhile. The rebuild needs the store to itself: \
            it is refused while another process has the store open (stop `paylog serve` first), and other \
            processes opening the store wait for it (up to 10 s). The log's chain is verified first: views are not \
            rebuilt from a broken one (exit 3).
            """)

    @OptionGroup var storeOptions: StoreOptions

    @Option(
        name: .customLong("mapped-limit"),
        help: ArgumentHelp(
            "Keep the log's memory-mapped pages in this process under this many MiB (default 96).",
            valueName: "MiB"))
    var mappedLimit: Int?

    func validate() throws {
        if let mappedLimit, mappedLimit < 16 { throw ValidationError("--mapped-limit must be at least 16 MiB; got \(mappedLimit).") }
    }

    func run() async throws {
        // A damaged live view must not stop the one command that replaces it.
        let store: EventStore
        do {
            store = try storeOptions.openExisting(forRebuild: true)
        } catch let damage as ChainDamageAtOpen {
            // The chain's damage stopped the open: nothing rebuilt, exit 3 as for a chain broken below.
            FileHandle.standardError.write(Data("Error: \(damage)\n".utf8))
            throw ExitCode(3)
        }
        defer { store.close() }
        // Views rebuilt from a damaged log would present the damage as the payments' state (a deleted head empties
        // them): the chain is checked first, and a broken one is reported as `paylog verify` reports it.
        let chain = try store.verifyChain()
        guard chain.isIntact else {
            FileHandle.standardError.write(Data((
                "Error: the log's chain is broken at position \(chain.firstBrokenPosition!): \(chain.problem ?? ""). The views "
                    + "were not rebuilt: rebuilt from this log they would show its damage as the payments' state. Keep a "
                    + "copy of the store directory and restore from a backup or an export that verifies.\n").utf8))
            throw ExitCode(3)
        }
        let bar = ProgressBar(label: "rebuild")
        let limit = mappedLimit.map { $0 << 20 } ?? EventStore.defaultRebuildMappedLimit
        let timings = try await store.rebuildProjections(mappedMemoryLimit: limit) { position, head in
            bar.update(position, of: head)
        }
        bar.finish()
        print("views rebuilt up to position \(try store.lastPosition()); payments view generation \(store.viewGeneration(of: "payments") ?? 0)")
        print(RebuildViewsCommand.describe(timings))
    }

    /// The phases' times as one line: `took 2.41 s: stream ends 0.05 s, fold 1.83 s, write 0.49 s, catch-up 0.01 s`.
    static func describe(_ timings: RebuildTimings) -> String {
        func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }
        return "took \(seconds(timings.total)): stream ends \(seconds(timings.streamEnds)), "
            + "fold \(seconds(timings.fold)), write \(seconds(timings.write)), catch-up \(seconds(timings.catchUp))"
    }
}
