import PaylogDomain

/// One entry of the published rule table: what a rule checks, how serious a breach is, and where the
/// contract says so.
public struct CompatibilityRule: Sendable, Hashable {
    /// The stable id carried by findings, e.g. `square.request.key-not-in-version`; never rename one.
    public var id: String
    /// The provider the rule applies to; `nil` for rules about the URL itself that apply to every provider.
    public var provider: Provider?
    /// The severity of every finding the rule produces.
    public var severity: Severity
    /// What the rule checks, in one sentence.
    public var summary: String
    /// `"[C]"` (confirmed) or `"[I]"` (inferred) followed by where in the provider contract the fact comes from.
    public var source: String
    /// Whether the rule rests on confirmed facts only or on an inferred one, as its ``source`` cites them; every
    /// finding of the rule carries it.
    public var basis: Basis

    /// Creates a rule entry; its ``basis`` is read from `source` (``Basis/init(source:)``).
    public init(id: String, provider: Provider?, severity: Severity, summary: String, source: String) {
        self.id = id
        self.provider = provider
        self.severity = severity
        self.summary = summary
        self.source = source
        self.basis = Basis(source: source)
    }
}
