import Foundation
import PaylogDomain

@testable import PaylogProviders

/// Builders for realistic provider URLs, written independently of the code under test.
enum Fixtures {
    /// Percent-encoding as the Square doc advises (`URLQueryAllowedCharacterSet`): leaves `& + = / ? :` raw.
    static func queryAllowed(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)!
    }

    /// Percent-encoding like JavaScript's `encodeURIComponent`.
    static func uriComponent(_ text: String) -> String {
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    /// `square-commerce-v1://payment/create?data=` + the JSON encoded `encodeURIComponent`-style.
    static func squareLaunch(_ json: String) -> String {
        "square-commerce-v1://payment/create?data=" + uriComponent(json)
    }

    /// What Square opens: `<callback>?data=<json>` (or `&data=` when asked to join an existing query).
    static func squareCallback(
        _ callback: String, json: String, joiner: String = "?", encode: (String) -> String = uriComponent
    ) -> String {
        callback + joiner + "data=" + encode(json)
    }

    /// Appends query items the way SumUp and iZettle do: before any `#fragment`.
    static func appending(_ items: [(String, String)], to url: String) -> String {
        var components = URLComponents(string: url)!
        var query = components.percentEncodedQueryItems ?? []
        query += items.map { URLQueryItem(name: $0.0, value: uriComponent($0.1)) }
        components.percentEncodedQueryItems = query
        return components.string!
    }

    static let paymentID = try! PaymentID("pay_01J9ZX")
}
