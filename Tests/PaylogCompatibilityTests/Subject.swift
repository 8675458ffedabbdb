import PaylogCompatibility
import PaylogDomain
import PaylogProviders
import Testing

/// A recorded request or callback, as URLs, judged through the real adapters.
enum Subject: Sendable, CustomTestStringConvertible {
    /// A launch URL and the app version declared with it.
    case request(String, app: String? = nil)
    /// A callback URL, its provider (`nil` = detect), and the payment's latest launch URL and app version.
    case callback(String, provider: Provider?, request: String? = nil, app: String? = nil)

    var testDescription: String {
        switch self {
        case .request(let url, let app): return "request \(url) app \(app ?? "-")"
        case .callback(let url, _, let request, let app):
            return "callback \(url) for \(request ?? "no request") app \(app ?? "-")"
        }
    }

    /// Parses the URLs with `Providers` and runs the checker.
    func findings(position: UInt64 = 7) throws -> [Finding] {
        switch self {
        case .request(let url, let app):
            let request = try Providers.parseLaunch(url, appVersion: app)
            return CompatibilityChecker.check(request: request, payment: Fixtures.paymentID, position: position)
        case .callback(let url, let provider, let requestURL, let app):
            let request = try requestURL.map { try Providers.parseLaunch($0, appVersion: app) }
            let callback = try Providers.parseCallback(url, provider: provider)
            return CompatibilityChecker.check(
                callback: callback, request: request, payment: Fixtures.paymentID, position: position)
        }
    }
}
