/// A set of providers, one bit each: which providers a payment was requested with (``Payment/requestedProviders``).
/// A value, not an array, so that keeping it costs a payment no allocation and its row one byte.
public struct ProviderSet: Sendable, Hashable, Codable {
    /// One bit per provider, in ``Provider/allCases`` order.
    public private(set) var rawValue: UInt8

    /// The set whose bits are `rawValue`; nil when a bit names no provider.
    public init?(rawValue: UInt8) {
        guard rawValue & ~ProviderSet.allBits == 0 else { return nil }
        self.rawValue = rawValue
    }

    /// The set of `providers`.
    public init(_ providers: [Provider] = []) {
        rawValue = 0
        for provider in providers { insert(provider) }
    }

    /// True when `provider` is in the set.
    public func contains(_ provider: Provider) -> Bool { rawValue & ProviderSet.bit(provider) != 0 }

    /// Adds `provider`.
    public mutating func insert(_ provider: Provider) { rawValue |= ProviderSet.bit(provider) }

    /// True when no provider is in the set.
    public var isEmpty: Bool { rawValue == 0 }

    private static func bit(_ provider: Provider) -> UInt8 {
        1 << UInt8(Provider.allCases.firstIndex(of: provider)!)
    }

    private static let allBits: UInt8 = (1 << UInt8(Provider.allCases.count)) - 1
}
