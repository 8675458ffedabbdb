import ArgumentParser
import PaylogStore

/// `paylog rebuild-views`: rebuilds every view blue/green from the log.
struct RebuildViewsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild-views",
        abstract: "Rebuild every view from the log, blue/green: the live view keeps serving until the new one has caught up.",
        discussion: "Views whose code version changed are rebuilt this way automatically when the store opens.")

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let store = try storeOptions.open()
        defer { store.close() }
        let bar = ProgressBar(label: "rebuild")
        try await store.rebuildProjections { position, head in bar.update(position, of: head) }
        bar.finish()
        print("views rebuilt up to position \(try store.lastPosition()); payments view generation \(store.viewGeneration(of: "payments") ?? 0)")
    }
}
