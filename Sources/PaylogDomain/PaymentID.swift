/// The identifier paylog gives a payment: 1–128 printable ASCII characters (`!`…`~`), no spaces, and not `.` or `..`
/// (a URL path cannot name them: clients resolve such a segment away, even percent-encoded).
///
/// It is embedded into callback URLs (`paylog_payment=<id>`) so that a callback routes back to its payment.
public struct PaymentID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The longest identifier accepted.
    public static let maximumLength = 128

    /// The identifier text.
    public let rawValue: String

    /// Creates an identifier after validating it.
    ///
    /// - Throws: ``DomainError/invalidPaymentID(_:reason:)`` when `rawValue` is empty, longer than
    ///   ``maximumLength``, contains a character outside `0x21`…`0x7E`, or is `.` or `..`.
    public init(_ rawValue: String) throws(DomainError) {
        let scalars = rawValue.unicodeScalars
        guard !scalars.isEmpty else { throw .invalidPaymentID(rawValue, reason: "it is empty") }
        guard scalars.count <= Self.maximumLength else {
            throw .invalidPaymentID(rawValue, reason: "it has \(scalars.count) characters")
        }
        if let bad = scalars.first(where: { $0.value < 0x21 || $0.value > 0x7E }) {
            let hex = String(bad.value, radix: 16, uppercase: true)
            throw .invalidPaymentID(rawValue, reason: "it contains U+\(hex)")
        }
        if rawValue == "." || rawValue == ".." {
            throw .invalidPaymentID(rawValue, reason: "a URL path cannot name it (clients resolve `.` and `..` away)")
        }
        self.rawValue = rawValue
    }

    /// The identifier text.
    public var description: String { rawValue }

    /// Orders identifiers by their text.
    public static func < (lhs: PaymentID, rhs: PaymentID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes an identifier from a single string, validating it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the identifier as a single string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
