/// The Square Point of Sale API versions sent in the request JSON's `version` key.
///
/// A request without `version` is a legacy pre-1.0 request; no version after 1.3 is known.
public enum SquareAPIVersion: String, Sendable, Hashable, Comparable, CaseIterable {
    /// API 1.0 (Register 4.34).
    case v1_0 = "1.0"
    /// API 1.1 (Register 4.50): adds CASH, OTHER and SQUARE_GIFT_CARD tenders.
    case v1_1 = "1.1"
    /// API 1.2 (Register 4.53): adds CARD_ON_FILE and `customer_id`.
    case v1_2 = "1.2"
    /// API 1.3 (Point of Sale 4.59): renames `merchant_id` to `location_id`; PAYPAY arrived within it.
    case v1_3 = "1.3"

    /// The tender types a pre-1.0 request may list.
    public static let preV1TenderTypes: Set<String> = ["CREDIT_CARD"]

    /// The tender types allowed in `options.supported_tender_types`.
    public var allowedTenderTypes: Set<String> {
        switch self {
        case .v1_0: return Self.preV1TenderTypes
        case .v1_1: return ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD"]
        case .v1_2: return ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE"]
        case .v1_3: return ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE", "PAYPAY"]
        }
    }

    /// The first Square app version that understands this API version.
    public var minimumAppVersion: String {
        switch self {
        case .v1_0: return "4.34"
        case .v1_1: return "4.50"
        case .v1_2: return "4.53"
        case .v1_3: return "4.59"
        }
    }

    /// Orders versions chronologically.
    public static func < (lhs: SquareAPIVersion, rhs: SquareAPIVersion) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
