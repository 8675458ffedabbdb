/// A Square Point of Sale API version as the contract tables list them, including the legacy pre-1.0 shape.
enum SquareLevel: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// A request without `version`.
    case preV1
    /// API 1.0.
    case v1_0
    /// API 1.1.
    case v1_1
    /// API 1.2.
    case v1_2
    /// API 1.3.
    case v1_3

    /// The level a request's `version` claims: `.preV1` when absent, `nil` when the text is not a known version.
    init?(apiVersion: String?) {
        guard let apiVersion else {
            self = .preV1
            return
        }
        guard let level = Self.allCases.first(where: { $0.versionText == apiVersion }) else { return nil }
        self = level
    }

    /// The `version` text, `nil` for pre-1.0.
    var versionText: String? {
        switch self {
        case .preV1: return nil
        case .v1_0: return "1.0"
        case .v1_1: return "1.1"
        case .v1_2: return "1.2"
        case .v1_3: return "1.3"
        }
    }

    /// The version as written in messages: `API 1.2` or `pre-1.0 API`.
    var name: String { versionText.map { "API " + $0 } ?? "pre-1.0 API" }

    /// How a request of this level is introduced in messages.
    var requestLabel: String {
        versionText.map { "Square API \($0) request" } ?? "Square pre-1.0 request (no `version` key)"
    }

    /// The first Square app that understands the level, as the contract names it; `nil` for pre-1.0.
    var minimumApp: (name: String, version: String)? {
        switch self {
        case .preV1: return nil
        case .v1_0: return ("Register", "4.34")
        case .v1_1: return ("Register", "4.50")
        case .v1_2: return ("Register", "4.53")
        case .v1_3: return ("Point of Sale", "4.59")
        }
    }

    /// "API 1.3 (Point of Sale 4.59+)", for messages about where something starts.
    var nameWithApp: String {
        guard let app = minimumApp else { return name }
        return "\(name) (\(app.name) \(app.version)+)"
    }

    /// The tender types `options.supported_tender_types` may list at this level.
    var tenderTypes: Set<String> {
        switch self {
        case .preV1, .v1_0: return ["CREDIT_CARD"]
        case .v1_1: return ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD"]
        case .v1_2: return ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE"]
        case .v1_3: return ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE", "PAYPAY"]
        }
    }

    /// Orders levels chronologically.
    static func < (lhs: SquareLevel, rhs: SquareLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
