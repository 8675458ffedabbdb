import PaylogDomain
import PaylogStore

extension PaymentEventKind {
    /// The kind of an event a rebuild folds, read from its type name's bytes in place; nil for a type paylog does
    /// not know.
    ///
    /// The six names differ in length, so the length picks the one candidate and one comparison confirms it.
    /// Searching `allCases` by ``typeName`` built an array and six strings per event: 3.4 % of a fold thread
    /// (`perf`, Docs/performance.md). `PaymentEventKindTests` holds this to ``init(typeName:)`` for every kind.
    init?(_ event: FoldEvent) {
        let kind: PaymentEventKind
        let name: StaticString
        switch event.typeByteCount {
        case 9: (kind, name) = (.requested, "Requested")
        case 11: (kind, name) = (.appSwitched, "AppSwitched")
        case 16: (kind, name) = (.callbackReceived, "CallbackReceived")
        case 7: (kind, name) = (.offline, "Offline")
        case 10: (kind, name) = (.reconciled, "Reconciled")
        case 6: (kind, name) = (.failed, "Failed")
        default: return nil
        }
        guard event.hasType(name) else { return nil }
        self = kind
    }
}
