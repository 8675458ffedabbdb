import Foundation
import PaylogDomain
import PaylogStore

/// ``PaymentReading`` from the store's committed state, one read transaction per read.
struct StoreReading: PaymentReading {
    let store: EventStore

    func payment(_ id: String) throws -> Payment? { try PaymentsProjection.payment(id, in: store) }
    func route(_ key: String) throws -> String? { try PaymentsProjection.route(key, in: store) }
    func event(id: UUID) throws -> RecordedEvent? { try store.event(id: id) }
    func eventsNewestFirst(of id: String) throws -> [RecordedEvent] { try store.readStream(id, direction: .backward) }
}
