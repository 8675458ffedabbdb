/// The request JSON our builder sends in Square's `data` item; `nil` members are omitted.
struct SquareRequestPayload: Encodable {
    /// `amount_money`.
    struct AmountMoney: Encodable {
        var amount: Int64
        var currencyCode: String

        enum CodingKeys: String, CodingKey {
            case amount
            case currencyCode = "currency_code"
        }
    }

    /// `options`.
    struct Options: Encodable {
        var supportedTenderTypes: [String]?
        var autoReturn: Bool?
        var skipReceipt: Bool?
        var clearDefaultFees: Bool?

        enum CodingKeys: String, CodingKey {
            case supportedTenderTypes = "supported_tender_types"
            case autoReturn = "auto_return"
            case skipReceipt = "skip_receipt"
            case clearDefaultFees = "clear_default_fees"
        }
    }

    var version: String?
    var clientID: String
    var amountMoney: AmountMoney
    var callbackURL: String
    var state: String?
    var notes: String?
    var locationID: String?
    var merchantID: String?
    var customerID: String?
    var options: Options?

    enum CodingKeys: String, CodingKey {
        case version
        case clientID = "client_id"
        case amountMoney = "amount_money"
        case callbackURL = "callback_url"
        case state, notes
        case locationID = "location_id"
        case merchantID = "merchant_id"
        case customerID = "customer_id"
        case options
    }
}
