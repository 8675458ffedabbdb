import PaylogDomain

/// The payments a write session has read or written, decoded, by id (nil inside: no such payment), shared by the
/// ``SessionReading``s of one batch of ingested lines: a payment's request, app switch and callback usually fall in
/// one batch, and each line read the payment from the view and decoded it again.
///
/// Kept true by its users: after every append the payment appended to is remembered as the view now holds it
/// (``DecidedAppend/payment``, when the view took every event from it) or forgotten; and one is made per run of a
/// session's body (a session that runs again starts from the views as committed). Used on the writer thread only.
final class SessionPayments {
    private var payments: [String: Payment?] = [:]

    /// The payment `id` as remembered: `.some(nil)` when it is known not to exist, nil when not remembered.
    func remembered(_ id: String) -> Payment?? { payments[id] }

    /// Remembers `payment` (nil: no such payment) as the view holds payment `id`.
    func remember(_ payment: Payment?, for id: String) { payments[id] = .some(payment) }

    /// Forgets payment `id`: the next read goes to the view.
    func forget(_ id: String) { payments[id] = nil }
}
