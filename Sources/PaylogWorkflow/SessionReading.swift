import Foundation
import PaylogDomain
import PaylogStore

/// ``PaymentReading`` inside a write session: sees what the session's earlier appends did to the views.
///
/// It remembers each payment it decoded, so routing a line and deciding it read the payment from the view once
/// (a callback naming no provider is read as its payment's provider, then decided against the same payment). Make
/// a new one after appending: the view has moved on, the remembered payments have not.
struct SessionReading: PaymentReading {
    /// The payments read so far, by id (nil inside: no such payment).
    private final class Remembered {
        var payments: [String: Payment?] = [:]
    }

    let session: WriteSession
    private let remembered = Remembered()

    /// Reads through `session`.
    init(session: WriteSession) { self.session = session }

    func payment(_ id: String) throws -> Payment? {
        if let known = remembered.payments[id] { return known }
        let payment = try session.readViews { txn, databases in try PaymentsProjection.load(Array(id.utf8), txn, databases) }
        remembered.payments[id] = .some(payment)
        return payment
    }

    func route(_ key: String) throws -> String? {
        try session.readViews { txn, databases in try PaymentsProjection.route(key, txn, databases) }
    }

    func event(id: UUID) throws -> RecordedEvent? { try session.event(id: id) }
}
