import PaylogDomain
import PaylogProviders

/// What a callback check sees: the callback and, when it is known and of the same provider, the payment's
/// latest launch request.
struct CallbackContext: Sendable {
    /// The callback being judged.
    let callback: CallbackOutcome
    /// The payment's latest request as given by the caller, whatever its provider.
    let declaredRequest: LaunchRequest?

    /// The payment's latest request when it went to the callback's provider; `nil` otherwise, so that
    /// request-dependent rules are skipped rather than judged against another provider's contract.
    var request: LaunchRequest? {
        guard let declaredRequest, declaredRequest.provider == callback.provider else { return nil }
        return declaredRequest
    }

    /// The callback's observed fields.
    var fields: [String: String] { callback.fields }

    /// The Square API level the request claims; `nil` without a request or for an unknown version.
    var squareLevel: SquareLevel? {
        guard let request else { return nil }
        return SquareLevel(apiVersion: request.fields["version"])
    }

    /// The app version declared with the request, when it is readable.
    var appVersion: AppVersion? { request?.appVersion.flatMap(AppVersion.init) }
}
