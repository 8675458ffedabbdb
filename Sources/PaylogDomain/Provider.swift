/// A card-payment provider reached through an app switch.
///
/// The raw value is the stable name stored in the log; never rename a case.
public enum Provider: String, Sendable, Hashable, Codable, CaseIterable {
    /// Square Point of Sale (formerly Register), `square-commerce-v1://`.
    case square
    /// SumUp merchant app, `sumupmerchant://`.
    case sumup
    /// iZettle (now Zettle by PayPal), `izettle://`.
    case izettle
}
