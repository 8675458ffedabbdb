import Foundation
import PaylogDomain

extension SquareAdapter {
    /// Builds `square-commerce-v1://payment/create?data=<JSON>` with `state` = the spec's reference and
    /// `callback_url` = the base URL carrying `paylog_payment`.
    ///
    /// The JSON has sorted keys and unescaped slashes, and is percent-encoded strictly (only RFC 3986
    /// unreserved characters stay literal). Refuses: an unknown API version; `location_id` before 1.3;
    /// `merchant_id` in 1.3; `customer_id` before 1.2; an empty or version-disallowed tender list; an app
    /// older than the API version's minimum; a missing `client_id`; a non-positive amount.
    public func buildLaunchURL(for spec: LaunchSpec) throws(ProviderError) -> String {
        try spec.validateCommon(for: provider)
        guard !spec.clientID.isEmpty else { throw .missingField("client_id", provider: provider) }

        let version: SquareAPIVersion?
        if let text = spec.squareAPIVersion {
            guard let known = SquareAPIVersion(rawValue: text) else { throw .unknownSquareAPIVersion(text) }
            version = known
            if let app = spec.appVersion, let declared = AppVersion(app), let minimum = AppVersion(known.minimumAppVersion),
                declared < minimum
            {
                throw .apiVersionRequiresNewerApp(version: text, minimum: known.minimumAppVersion, declared: app)
            }
        } else {
            version = nil
        }
        func atLeast(_ minimum: SquareAPIVersion) -> Bool { version.map { $0 >= minimum } ?? false }

        if spec.locationID != nil, !atLeast(.v1_3) {
            throw .fieldNotInAPIVersion("location_id", version: spec.squareAPIVersion, availableIn: "1.3")
        }
        if spec.merchantID != nil, atLeast(.v1_3) {
            throw .fieldNotInAPIVersion(
                "merchant_id", version: spec.squareAPIVersion,
                availableIn: "pre-1.0 to 1.2 (1.3 renamed it location_id)")
        }
        if spec.customerID != nil, !atLeast(.v1_2) {
            throw .fieldNotInAPIVersion("customer_id", version: spec.squareAPIVersion, availableIn: "1.2 and 1.3")
        }
        let allowed = version?.allowedTenderTypes ?? SquareAPIVersion.preV1TenderTypes
        if let tenders = spec.tenderTypes {
            guard !tenders.isEmpty else { throw .missingField("options.supported_tender_types", provider: provider) }
            if let bad = tenders.first(where: { !allowed.contains($0) }) {
                throw .tenderTypeNotAllowed(bad, version: spec.squareAPIVersion)
            }
        }

        let hasOptions =
            spec.tenderTypes != nil || spec.autoReturn != nil || spec.skipReceipt != nil
            || spec.clearDefaultFees != nil
        let options: SquareRequestPayload.Options?
        if version != nil || hasOptions {
            options = SquareRequestPayload.Options(
                supportedTenderTypes: spec.tenderTypes ?? (version != nil ? ["CREDIT_CARD"] : nil),
                autoReturn: spec.autoReturn,
                skipReceipt: spec.skipReceipt,
                clearDefaultFees: spec.clearDefaultFees
            )
        } else {
            options = nil
        }
        let payload = SquareRequestPayload(
            version: spec.squareAPIVersion,
            clientID: spec.clientID,
            amountMoney: .init(amount: spec.amount.minorUnits, currencyCode: spec.amount.currency.code),
            callbackURL: try CallbackURL.make(base: spec.callbackBaseURL, paymentID: spec.paymentID, outcome: nil),
            state: spec.reference,
            notes: spec.notes,
            locationID: spec.locationID,
            merchantID: spec.merchantID,
            customerID: spec.customerID,
            options: options
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json: Data
        do {
            json = try encoder.encode(payload)
        } catch {
            preconditionFailure("a payload of strings, integers and booleans always encodes: \(error)")
        }
        var components = URLComponents()
        components.scheme = launchScheme
        components.host = "payment"
        components.path = "/create"
        components.percentEncodedQueryItems = [
            URLQueryItem(name: "data", value: String(decoding: json, as: UTF8.self).percentEncodedStrictly)
        ]
        guard let url = components.string else {
            preconditionFailure("a URL from a fixed scheme, host, path and strictly encoded query is valid")
        }
        return url
    }
}
