import PaylogDomain

extension Provider {
    /// The provider's name as a support engineer knows it.
    var displayName: String {
        switch self {
        case .square: return "Square"
        case .sumup: return "SumUp"
        case .izettle: return "iZettle"
        }
    }
}
