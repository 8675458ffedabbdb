import Foundation
import PaylogDomain
import PaylogStore

/// ``PaymentReading`` inside a write session: sees what the session's earlier appends did to the views.
///
/// It remembers each payment it decoded (in ``SessionPayments``), so routing a line and deciding it read the payment
/// from the view once (a callback naming no provider is read as its payment's provider, then decided against the same
/// payment). After appending, either make a new one, or update the payments it shares (how a batched ingest keeps
/// them across its lines): the view has moved on, the remembered payments have not.
struct SessionReading: PaymentReading {
    let session: WriteSession
    /// The payments read so far.
    let payments: SessionPayments

    /// Reads through `session`, remembering payments in `payments` (by default its own).
    init(session: WriteSession, payments: SessionPayments = SessionPayments()) {
        self.session = session
        self.payments = payments
    }

    func payment(_ id: String) throws -> Payment? {
        if let known = payments.remembered(id) { return known }
        let payment = try session.readViews { txn, databases in try PaymentsProjection.load(Array(id.utf8), txn, databases) }
        payments.remember(payment, for: id)
        return payment
    }

    func route(_ key: String) throws -> String? {
        let tagged = try session.taggedEvent(key)
        return try session.readViews { txn, databases in try PaymentsProjection.route(key, tagged: tagged, txn, databases) }
    }

    func event(id: UUID) throws -> RecordedEvent? { try session.event(id: id) }

    func eventsNewestFirst(of id: String) throws -> [RecordedEvent] { try session.readStream(id, direction: .backward) }
}
