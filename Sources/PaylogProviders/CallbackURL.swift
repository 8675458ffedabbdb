import Foundation
import PaylogDomain

/// Builds and matches callback URLs carrying our `paylog_*` markers.
enum CallbackURL {
    /// `base` with `paylog_payment=<id>` (and `paylog_outcome=<outcome>` when given) set in its query,
    /// replacing earlier markers and keeping every other item and the fragment.
    static func make(base: String, paymentID: PaymentID, outcome: String?) throws(ProviderError) -> String {
        guard var components = URLComponents(string: base, encodingInvalidCharacters: false),
            let scheme = components.scheme, !scheme.isEmpty
        else { throw .invalidCallbackBaseURL(base) }
        let markers = [CallbackMarkers.paymentID, CallbackMarkers.outcome]
        var items = (components.percentEncodedQueryItems ?? []).filter {
            !markers.contains($0.name.percentDecoded ?? $0.name)
        }
        items.append(URLQueryItem(name: CallbackMarkers.paymentID, value: paymentID.rawValue.percentEncodedStrictly))
        if let outcome { items.append(URLQueryItem(name: CallbackMarkers.outcome, value: outcome)) }
        components.percentEncodedQueryItems = items
        guard let url = components.string else { throw .invalidCallbackBaseURL(base) }
        return url
    }

    /// Whether `callback` was opened at `candidate`: same scheme, host and path, and every query item of
    /// `candidate` recurs in `callback` with the same value.
    static func matches(_ callback: ParsedURL, candidate: String) -> Bool {
        guard let target = try? ParsedURL(candidate) else { return false }
        guard callback.scheme == target.scheme,
            (callback.host ?? "").lowercased() == (target.host ?? "").lowercased(), callback.path == target.path
        else { return false }
        return target.items.allSatisfy { item in
            callback.items.contains { $0.name == item.name && ($0.value ?? "") == (item.value ?? "") }
        }
    }

    /// The status the hint implies for `callback`, if it decides one.
    static func status(from hint: CallbackHint?, for callback: ParsedURL) -> CallbackStatus? {
        switch hint {
        case nil: return nil
        case .openedSuccessURL: return .success
        case .openedFailureURL: return .failure
        case .launch(let request):
            let success = request.successCallbackURL.map { matches(callback, candidate: $0) } ?? false
            let failure = request.failureCallbackURL.map { matches(callback, candidate: $0) } ?? false
            switch (success, failure) {
            case (true, false): return .success
            case (false, true): return .failure
            default: return nil
            }
        }
    }
}
