import Foundation
import PaylogDomain
import PaylogStore

/// Where the workflow reads the status view and the log while it routes and decides an observation: the store
/// itself (each read its own snapshot) or a ``PaylogStore/WriteSession`` (the state its own batch has written so far).
protocol PaymentReading {
    /// The payment `id` as the status view holds it.
    func payment(_ id: String) throws -> Payment?
    /// The payment a routing key points at.
    func route(_ key: String) throws -> String?
    /// The event with id `id`, or nil.
    func event(id: UUID) throws -> RecordedEvent?
}
