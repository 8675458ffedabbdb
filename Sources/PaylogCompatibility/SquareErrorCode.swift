/// One row of Square's callback `error_code` table (contract §1c).
struct SquareErrorCode: Sendable {
    /// The raw code.
    let code: String
    /// The first level that sends it.
    let since: SquareLevel
    /// The last level that sends it; `nil` while it is active.
    let through: SquareLevel?
    /// The code that replaces it after ``through``, for messages.
    let replacedBy: String?
    /// The level from which the code is deprecated, if it is.
    let deprecatedFrom: SquareLevel?
    /// Whether the code was removed outright (not tied to an API version).
    let removed: String?

    private init(
        _ code: String, since: SquareLevel = .preV1, through: SquareLevel? = nil, replacedBy: String? = nil,
        deprecatedFrom: SquareLevel? = nil, removed: String? = nil
    ) {
        self.code = code
        self.since = since
        self.through = through
        self.replacedBy = replacedBy
        self.deprecatedFrom = deprecatedFrom
        self.removed = removed
    }

    /// Whether the code exists at `level`.
    func exists(at level: SquareLevel) -> Bool {
        level >= since && through.map { level <= $0 } ?? true
    }

    /// The code called `code`, if the contract lists it.
    static func named(_ code: String) -> SquareErrorCode? { table.first { $0.code == code } }

    /// The table, in contract order.
    static let table: [SquareErrorCode] = [
        .init("payment_canceled"), .init("data_invalid"), .init("not_logged_in"), .init("user_not_active"),
        .init("currency_code_missing"), .init("unsupported_currency_code"), .init("currency_code_mismatch"),
        .init("amount_invalid_format"), .init("amount_too_small"), .init("amount_too_large"),
        .init("invalid_tender_type"), .init("unsupported_tender_type"), .init("could_not_perform"),
        .init("no_network_connection"),
        .init("user_id_mismatch", through: .v1_2, replacedBy: "location_id_mismatch"),
        .init("location_id_mismatch", since: .v1_3),
        .init("client_not_authorized_for_user", deprecatedFrom: .v1_2),
        .init("login_code_invalid", removed: "2016"),
        .init("unsupported_api_version", since: .v1_0), .init("invalid_version_number", since: .v1_0),
        .init("customer_management_not_supported", since: .v1_2), .init("invalid_customer_id", since: .v1_2),
    ]
}
