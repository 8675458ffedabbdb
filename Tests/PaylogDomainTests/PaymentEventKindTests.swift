import PaylogDomain
import Testing

/// The stored type names of the six payment events, and the kinds read back from them.
@Suite("Payment event kinds")
struct PaymentEventKindTests {
    @Test("each kind reads back from its own type name, and only from it; the names are the log's")
    func typeNames() {
        let names = PaymentEventKind.allCases.map(\.typeName)
        #expect(names == ["Requested", "AppSwitched", "CallbackReceived", "Offline", "Reconciled", "Failed"])
        for kind in PaymentEventKind.allCases {
            #expect(PaymentEventKind(typeName: kind.typeName) == kind)
            #expect(PaymentEventKind(typeName: kind.typeName.lowercased()) == nil)
            #expect(PaymentEventKind(typeName: kind.typeName + " ") == nil)
        }
        #expect(PaymentEventKind(typeName: "") == nil)
        #expect(PaymentEventKind(typeName: "BenchEvent") == nil)
    }

    @Test("an event's kind and type name agree")
    func eventKinds() {
        let events: [PaymentEvent] = [
            .appSwitched(AppSwitched(note: "n")), .offline(Offline(clientTransactionID: "c", expiresAtMicroseconds: nil)),
            .failed(Failed(source: .expiry, errorCode: nil, reason: "r")),
        ]
        #expect(events.map(\.kind) == [.appSwitched, .offline, .failed])
        #expect(events.map(\.typeName) == events.map(\.kind.typeName))
    }
}
