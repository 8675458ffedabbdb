import PaylogCompatibility
import PaylogDomain
import PaylogProviders
import PaylogStore

/// Judges a payment's recorded evidence, event by event, with the compatibility checker: each `Requested`
/// launch URL against the version it claims, each `CallbackReceived` URL against the contract and the payment's
/// latest request. The raw evidence is re-read with today's adapters; the log itself is never changed.
public struct EvidenceJudge: Sendable {
    private var latestRequest: [String: LaunchRequest] = [:]

    /// A judge with no history.
    public init() {}

    /// The findings for one event (in log order per payment), and the reading of its evidence when it has any.
    public mutating func judge(_ event: RecordedEvent, decoded: PaymentEvent) -> (reading: [String: String]?, findings: [Finding]) {
        switch decoded {
        case .requested(let requested):
            do {
                let request = try Providers.parseLaunch(requested.launchURL, appVersion: requested.appVersion)
                latestRequest[event.streamID] = request
                return (request.fields, CompatibilityChecker.check(request: request, payment: event.streamID, position: event.position))
            } catch {
                return (nil, [Finding(
                    payment: event.streamID, position: event.position, severity: .error, rule: "evidence.request-unreadable",
                    message: "The recorded launch URL can no longer be read: \(error)")])
            }
        case .callbackReceived(let received):
            let request = latestRequest[event.streamID]
            do {
                let outcome = try Providers.parseCallback(received.callbackURL, provider: received.outcome.provider)
                return (outcome.fields, CompatibilityChecker.check(
                    callback: outcome, request: request, payment: event.streamID, position: event.position))
            } catch {
                return (nil, [Finding(
                    payment: event.streamID, position: event.position, severity: .error, rule: "evidence.callback-unreadable",
                    message: "The recorded callback URL can no longer be read: \(error)")])
            }
        case .appSwitched, .offline, .reconciled, .failed:
            return (nil, [])
        }
    }
}
