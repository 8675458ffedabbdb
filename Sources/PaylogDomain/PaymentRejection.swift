/// Why the state machine refused a command. Nothing is recorded for a rejected command.
public enum PaymentRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// The payment has no events yet, and the command needs an existing payment.
    case unknownPayment(String)
    /// The payment completed; it cannot be failed by an operator.
    case alreadySucceeded(payment: String, status: PaymentStatus)
    /// The callback belongs to another provider than the payment's request.
    case providerMismatch(payment: String, expected: Provider, got: Provider)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unknownPayment(let id) where id.isEmpty:
            return "The payment id is empty: give the payment's id (1–128 printable ASCII characters)."
        case .unknownPayment(let id):
            return "No payment \(id) is recorded. Record its request first (kind \"request\" / `paylog request`), or check the id."
        case .alreadySucceeded(let id, let status):
            return "Payment \(id) is \(status.rawValue); a succeeded payment cannot be failed. Refund it with the provider instead."
        case .providerMismatch(let id, let expected, let got):
            return "Payment \(id) was requested from \(expected.rawValue) but the callback is from \(got.rawValue). Check the routing of this callback."
        }
    }
}
