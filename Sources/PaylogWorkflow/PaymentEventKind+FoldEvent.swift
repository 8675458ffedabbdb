import PaylogDomain
import PaylogStore

extension PaymentEventKind {
    /// The kind of an event a rebuild folds, read from its type name's bytes in place; nil for a type paylog does
    /// not know.
    init?(_ event: FoldEvent) {
        guard let kind = PaymentEventKind.allCases.first(where: { event.hasType($0.typeName) }) else { return nil }
        self = kind
    }
}
