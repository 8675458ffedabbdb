import Foundation
import PaylogDomain

extension Array where Element == URLQueryItem {
    /// The value of the first item called `name`; an item without `=` has the empty value.
    func first(named name: String) -> String? {
        guard let item = first(where: { $0.name == name }) else { return nil }
        return item.value ?? ""
    }

    /// Every item as `name → value` (first occurrence wins, repeats are noted), names optionally prefixed.
    func fields(prefix: String = "", notes: inout [ParseNote]) -> [String: String] {
        var fields = [String: String](minimumCapacity: count)
        for item in self {
            let key = prefix + item.name
            if fields[key] == nil {
                fields[key] = item.value ?? ""
            } else {
                notes.append(.duplicateQueryItem(item.name))
            }
        }
        return fields
    }

    /// The routing hint: a valid `paylog_payment` item, else the reference echo.
    func routingHint(reference: String?, notes: inout [ParseNote]) -> RoutingHint? {
        if let text = first(named: CallbackMarkers.paymentID) {
            if let id = try? PaymentID(text) { return .paymentID(id) }
            notes.append(.invalidRoutingPaymentID(text))
        }
        return reference.map(RoutingHint.reference)
    }

    /// The status our `paylog_outcome` marker states, if any.
    var outcomeMarker: CallbackStatus? {
        switch first(named: CallbackMarkers.outcome) {
        case CallbackMarkers.success: return .success
        case CallbackMarkers.failure: return .failure
        default: return nil
        }
    }
}
