import PaylogDomain
import PaylogStore

extension PaymentReading {
    /// Whether payment `id` waits for a callback from `provider` echoing `reference`: it was requested with `provider`
    /// and with `reference` (compared byte for byte), and no callback recorded for it echoes `reference` yet. A
    /// callback event that cannot be read counts as echoing it: a used reference must never pass for an unused one.
    ///
    /// Each reference is its own attempt: a payment retried after a failure callback waits for a callback echoing the
    /// retry's new reference, while the failed attempt's reference, already answered, waits for none.
    func awaitsCallback(echoing reference: String, from provider: Provider, payment id: String) throws -> Bool {
        guard let payment = try payment(id), payment.wasRequested(with: provider),
            payment.references.contains(where: { $0.utf8.elementsEqual(reference.utf8) })
        else { return false }
        for event in try eventsNewestFirst(of: id) where event.type == PaymentEventKind.callbackReceived.typeName {
            guard case .callbackReceived(let callback)? = try? EventCodec.decode(event) else { return false }
            if let echoed = callback.outcome.reference, echoed.utf8.elementsEqual(reference.utf8) { return false }
        }
        return true
    }
}
