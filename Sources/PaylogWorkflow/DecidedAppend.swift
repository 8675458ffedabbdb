import PaylogDomain
import PaylogStore

/// What the workflow worked out before an append inside a write session: the events it decided, and the payment
/// they apply to as the status view holds it. Handed to ``PaymentsProjection`` with the append
/// (``PaylogStore/WriteSession/append(_:to:expecting:decided:)``), it spares the view decoding each payload and
/// reading the payment back: the writer thread of `paylog ingest` decoded the payment and the payload again for
/// every event it had just decided and encoded.
///
/// Used by one append at a time on the writer thread (the projection takes its events in order and keeps the
/// evolving payment here), hence `@unchecked Sendable`.
final class DecidedAppend: @unchecked Sendable {
    /// The decided events, in append order.
    let events: [PaymentEvent]
    /// The payment as the view holds it before the next event; nil before the stream's first event.
    var payment: Payment?
    /// The version the next event must have.
    private var nextVersion: UInt64
    private var index = 0

    /// The append of `events` to a payment that is `current` in the status view (nil: a new payment).
    init(events: [PaymentEvent], current: Payment?) {
        self.events = events
        payment = current
        nextVersion = (current?.version ?? 0) + 1
    }

    /// Whether the view took every event of the append from here, so that ``payment`` is what it now holds.
    var tookEveryEvent: Bool { index == events.count }

    /// The decided form of `event`, when it is the next event of this append (same version, same type); nil
    /// otherwise, and the view then decodes it as usual.
    func take(_ event: RecordedEvent) -> PaymentEvent? {
        guard index < events.count, event.version == nextVersion, events[index].typeName == event.type else { return nil }
        defer {
            index += 1
            nextVersion += 1
        }
        return events[index]
    }
}
