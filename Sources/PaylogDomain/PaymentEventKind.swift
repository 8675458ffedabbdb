/// The six kinds of payment event, without their fields: what a stored event's type name says it is.
public enum PaymentEventKind: Sendable, Hashable, CaseIterable {
    /// ``Requested``.
    case requested
    /// ``AppSwitched``.
    case appSwitched
    /// ``CallbackReceived``.
    case callbackReceived
    /// ``Offline``.
    case offline
    /// ``Reconciled``.
    case reconciled
    /// ``Failed``.
    case failed

    /// The type name events of this kind are stored under (`Requested`, `AppSwitched`, …).
    public var typeName: String {
        switch self {
        case .requested: return "Requested"
        case .appSwitched: return "AppSwitched"
        case .callbackReceived: return "CallbackReceived"
        case .offline: return "Offline"
        case .reconciled: return "Reconciled"
        case .failed: return "Failed"
        }
    }

    /// The kind stored under `typeName`; nil for a type paylog does not know.
    public init?(typeName: String) {
        guard let kind = PaymentEventKind.allCases.first(where: { $0.typeName == typeName }) else { return nil }
        self = kind
    }
}
