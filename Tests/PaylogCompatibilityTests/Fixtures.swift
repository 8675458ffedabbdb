import Foundation
import PaylogDomain

/// Builders for realistic provider URLs, written independently of the adapters and the checker.
enum Fixtures {
    static let paymentID = "pay_01J9ZX"
    /// The shop's callback URL as paylog's builder leaves it (with the routing marker).
    static let squareCallbackBase = "myshop://paylog/callback?paylog_payment=pay_01J9ZX"
    static let successURL = "myshop://paylog/callback?paylog_payment=pay_01J9ZX&paylog_outcome=success"
    static let failureURL = "myshop://paylog/callback?paylog_payment=pay_01J9ZX&paylog_outcome=failure"

    /// Percent-encoding like JavaScript's `encodeURIComponent`.
    static func uriComponent(_ text: String) -> String {
        let allowed = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    // MARK: Square

    /// A clean Square request body for `version` (`nil` = pre-1.0): API 1.0+ carry `options`.
    static func squareBody(_ version: String?) -> [String: Any] {
        var body: [String: Any] = [
            "client_id": "sq0idp-7nTQ2Y",
            "amount_money": ["amount": 1250, "currency_code": "USD"],
            "callback_url": squareCallbackBase,
            "state": "ref-1",
        ]
        if let version {
            body["version"] = version
            body["options"] = ["supported_tender_types": ["CREDIT_CARD"], "auto_return": true]
        }
        return body
    }

    /// Sets (or with `nil` removes) the value at a dotted path such as `options.skip_receipt`.
    static func setting(_ changes: [String: Any?], in body: [String: Any]) -> [String: Any] {
        var body = body
        for (path, value) in changes.sorted(by: { $0.key < $1.key }) {
            set(path.split(separator: ".").map(String.init)[...], to: value, in: &body)
        }
        return body
    }

    private static func set(_ path: ArraySlice<String>, to value: Any?, in object: inout [String: Any]) {
        guard let key = path.first else { return }
        if path.count == 1 {
            object[key] = value
        } else {
            var inner = object[key] as? [String: Any] ?? [:]
            set(path.dropFirst(), to: value, in: &inner)
            object[key] = inner
        }
    }

    static func json(_ object: [String: Any]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }

    /// `square-commerce-v1://payment/create?data=<JSON>` for `version` with `changes` applied.
    static func squareLaunch(_ version: String? = "1.3", _ changes: [String: Any?] = [:]) -> String {
        "square-commerce-v1://payment/create?data=" + uriComponent(json(setting(changes, in: squareBody(version))))
    }

    /// A clean Square request whose `amount_money.amount` (1250) is written as `literal`, say `1250.0`, which no
    /// JSON encoder writes for a whole number.
    static func squareLaunch(_ version: String?, amountLiteral literal: String) -> String {
        let url = squareLaunch(version)
        precondition(url.contains("%22amount%22%3A1250%2C"), "the fixture's amount is no longer 1250")
        return url.replacingOccurrences(of: "%22amount%22%3A1250%2C", with: "%22amount%22%3A" + uriComponent(literal) + "%2C")
    }

    /// A clean Square request for `version` whose JSON starts with `members` (say `"state":"ref-0",`) before its
    /// own: a way to send a key twice, which no JSON encoder writes.
    static func squareLaunch(_ version: String?, prefixingJSON members: String) -> String {
        "square-commerce-v1://payment/create?data=" + uriComponent("{" + members + json(squareBody(version)).dropFirst())
    }

    /// What Square opens: the callback URL (which has its own query) with `&data=<JSON>` appended, or with
    /// `joiner: "?"` as naive string concatenation does.
    static func squareCallback(_ object: [String: Any], joiner: String = "&") -> String {
        squareCallbackBase + joiner + "data=" + uriComponent(json(object))
    }

    /// A clean online success.
    static var squareOK: [String: Any] {
        [
            "status": "ok", "transaction_id": "xR8pLq", "client_transaction_id": "6B1C-44A0", "state": "ref-1",
        ]
    }

    /// A clean error.
    static var squareError: [String: Any] { ["status": "error", "error_code": "payment_canceled", "state": "ref-1"] }

    // MARK: Query-item providers

    /// Applies `changes` to `items`: replaces the first item of that name, appends it, or with `nil` removes it.
    static func applying(_ changes: [(String, String?)], to items: [(String, String)]) -> [(String, String)] {
        var items = items
        for (name, value) in changes {
            if let value {
                if let index = items.firstIndex(where: { $0.0 == name }) {
                    items[index].1 = value
                } else {
                    items.append((name, value))
                }
            } else {
                items.removeAll { $0.0 == name }
            }
        }
        return items
    }

    static func query(_ items: [(String, String)]) -> String {
        items.map { uriComponent($0.0) + "=" + uriComponent($0.1) }.joined(separator: "&")
    }

    /// Appends query items the way SumUp and iZettle do: after the URL's own query, before any fragment.
    static func appending(_ items: [(String, String)], to url: String) -> String {
        guard !items.isEmpty else { return url }
        return url + (url.contains("?") ? "&" : "?") + query(items)
    }

    static let sumUpItems: [(String, String)] = [
        ("amount", "12.50"), ("currency", "EUR"), ("affiliate-key", "a1b2c3d4-sumup"), ("title", "Two coffees"),
        ("foreign-tx-id", "ref-1"), ("callbacksuccess", successURL), ("callbackfail", failureURL),
    ]

    /// `sumupmerchant://pay/1.0?…` with `changes` applied to a clean request.
    static func sumUpLaunch(_ changes: [(String, String?)] = []) -> String {
        "sumupmerchant://pay/1.0?" + query(applying(changes, to: sumUpItems))
    }

    /// A SumUp callback: the success (or failure) URL with `smp-*` items appended.
    static func sumUpCallback(success: Bool = true, _ items: [(String, String)]) -> String {
        appending(items, to: success ? successURL : failureURL)
    }

    static let sumUpSuccessItems: [(String, String)] = [
        ("smp-status", "success"), ("smp-tx-code", "TEENSK4W2K"), ("foreign-tx-id", "ref-1"),
    ]

    static let iZettleItems: [(String, String)] = [
        ("x-source", "paylog"), ("x-success", successURL), ("x-failure", failureURL), ("api-key", "izk-5f2e"),
        ("price", "12"), ("currency", "SEK"), ("title", "Two coffees"), ("reference", "ref-1"),
    ]

    /// `izettle://x-callback-url/payment/1.0?…` with `changes` applied to a clean request.
    static func iZettleLaunch(_ changes: [(String, String?)] = []) -> String {
        "izettle://x-callback-url/payment/1.0?" + query(applying(changes, to: iZettleItems))
    }

    /// A deprecated v3.0 charge.
    static func iZettleV3Launch(_ changes: [(String, String?)] = []) -> String {
        let items: [(String, String)] = [
            ("amount", "12.50"), ("currency", "SEK"), ("reference", "ref-1"), ("successURL", successURL),
            ("failureURL", failureURL),
        ]
        return "izettle://api/payment/charge?" + query(applying(changes, to: items))
    }

    /// An iZettle callback: the success (or failure) URL with `items` appended.
    static func iZettleCallback(success: Bool = true, _ items: [(String, String)]) -> String {
        appending(items, to: success ? successURL : failureURL)
    }
}
