/// One row of the Square request-key table (contract §1a): the levels a key exists in and where it is required.
struct SquareRequestKey: Sendable {
    /// The flattened key, e.g. `amount_money.amount`; `options` stands for the whole object.
    let key: String
    /// The first level that has the key.
    let from: SquareLevel
    /// The last level that has the key.
    let through: SquareLevel
    /// The first level that requires it; `nil` when it is optional everywhere.
    let requiredFrom: SquareLevel?
    /// What the contract adds about the key, for messages.
    let note: String?

    /// Whether `fields` carries the key (for `options`, the object itself or any member of it); a key sent as JSON
    /// `null` is not in `fields`, so it is missing.
    func isPresent(in fields: [String: String]) -> Bool {
        if fields[key] != nil { return true }
        return fields.keys.contains { $0.hasPrefix(key + ".") }
    }

    /// The table rows, in contract order. `options.skip_receipt`, `options.disable_cnp` and `sdk_version` have
    /// rules of their own.
    static let table: [SquareRequestKey] = [
        .init(key: "client_id", from: .preV1, through: .v1_3, requiredFrom: .preV1, note: "the application id"),
        .init(
            key: "amount_money.amount", from: .preV1, through: .v1_3, requiredFrom: .preV1,
            note: "an integer in the currency's smallest unit"),
        .init(
            key: "amount_money.currency_code", from: .preV1, through: .v1_3, requiredFrom: .preV1,
            note: "an ISO 4217 code"),
        .init(
            key: "callback_url", from: .preV1, through: .v1_3, requiredFrom: .preV1,
            note: "the URL Square opens with the result"),
        .init(key: "state", from: .preV1, through: .v1_3, requiredFrom: nil, note: nil),
        .init(
            key: "merchant_id", from: .preV1, through: .v1_2, requiredFrom: nil,
            note: "API 1.3 renamed it location_id"),
        .init(
            key: "location_id", from: .v1_3, through: .v1_3, requiredFrom: nil,
            note: "it replaced merchant_id and must match the logged-in location"),
        .init(key: "notes", from: .preV1, through: .v1_3, requiredFrom: nil, note: nil),
        .init(
            key: "customer_id", from: .v1_2, through: .v1_3, requiredFrom: nil,
            note: "it needs a network connection at payment time"),
        .init(key: "options", from: .preV1, through: .v1_3, requiredFrom: .v1_0, note: nil),
        .init(key: "options.supported_tender_types", from: .preV1, through: .v1_3, requiredFrom: nil, note: nil),
        .init(key: "options.clear_default_fees", from: .preV1, through: .v1_3, requiredFrom: nil, note: nil),
        .init(key: "options.auto_return", from: .preV1, through: .v1_3, requiredFrom: nil, note: nil),
    ]

    /// Every key the contract documents in a request, in any version.
    static let documented: Set<String> = Set(table.map(\.key)).union([
        "version", "amount_money", "options.skip_receipt", "options.disable_cnp", "sdk_version",
    ])
}
