import Foundation
import PaylogDomain
import PaylogProviders
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
    /// Payment `id`'s events, newest first.
    func eventsNewestFirst(of id: String) throws -> [RecordedEvent]
}

extension PaymentReading {
    /// The launch requests payment `id` recorded, newest first, read again from their launch URLs (those that can
    /// no longer be read are left out): what a callback that does not say its outcome is matched against.
    func launchRequests(of id: String) -> [LaunchRequest] {
        guard let events = try? eventsNewestFirst(of: id) else { return [] }
        return events.compactMap { event in
            guard event.type == PaymentEventKind.requested.typeName,
                case .requested(let requested)? = try? EventCodec.decode(event)
            else { return nil }
            return try? Providers.parseLaunch(requested.launchURL, appVersion: requested.appVersion)
        }
    }
}
