import Foundation
import PaylogDomain
import PaylogStore

/// ``PaymentReading`` inside a write session: sees what the session's earlier appends did to the views.
struct SessionReading: PaymentReading {
    let session: WriteSession

    func payment(_ id: String) throws -> Payment? {
        try session.readViews { txn, databases in try PaymentsProjection.load(Array(id.utf8), txn, databases) }
    }

    func route(_ key: String) throws -> String? {
        try session.readViews { txn, databases in try PaymentsProjection.route(key, txn, databases) }
    }

    func event(id: UUID) throws -> RecordedEvent? { try session.event(id: id) }
}
