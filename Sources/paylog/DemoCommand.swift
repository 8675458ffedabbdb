import ArgumentParser
import Foundation
import PaylogStore

/// `paylog demo`: the README's main job. Records a few events on the default store and reads them back.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Record sample events on the store, read them back and verify the chain.")

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let store = try storeOptions.open()
        defer { store.close() }
        let stream = "demo-\(UUID().uuidString.prefix(8).lowercased())"
        let types = ["Requested", "AppSwitched", "CallbackReceived"]
        for type in types {
            let payload = Data("{\"note\":\"smoke event \(type)\"}".utf8)
            let result = try await store.append(
                [NewEvent(type: type, payload: payload, observedAt: .now(), actor: "demo")], to: stream)
            print("appended \(type) to \(stream) at position \(result.positions.lowerBound), version \(result.versions.lowerBound)")
        }
        for event in try store.readStream(stream) { print(EventFormatting.line(event)) }
        let report = try store.verifyChain()
        print("chain \(report.isIntact ? "intact" : "BROKEN"): \(report.eventsChecked) events in \(store.path)")
    }
}
