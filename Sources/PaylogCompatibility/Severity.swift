/// How serious a compatibility finding is.
///
/// The raw value is the stable name written to JSON and the docs; never rename a case.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable {
    /// A breach of a confirmed (**[C]**) part of the provider contract: the provider app would refuse or
    /// misread the request, or the callback cannot be what the contract says it is.
    case error
    /// A breach of an inferred (**[I]**) rule, or a deprecated or unknown value: probably a problem, not proven.
    case warning
    /// A notable fact that is legal: a legacy record, a field that only some platforms honour, personal data.
    case info
}
