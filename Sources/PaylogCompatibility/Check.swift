import PaylogDomain

/// A rule together with its evaluator: each evaluator returns one message per breach it sees.
///
/// A check judges requests, callbacks or both; it runs only when its rule's provider is `nil` or matches the
/// record's provider, so evaluators never test the provider themselves.
struct Check: Sendable {
    /// The published rule.
    let rule: CompatibilityRule
    /// Judges a launch request; `nil` when the rule is about callbacks only.
    let request: (@Sendable (LaunchRequest) -> [String])?
    /// Judges a callback; `nil` when the rule is about requests only.
    let callback: (@Sendable (CallbackContext) -> [String])?

    /// Whether the check runs for a record of `provider`.
    func applies(to provider: Provider) -> Bool { rule.provider.map { $0 == provider } ?? true }

    /// A check on launch requests.
    static func request(
        _ id: String, _ provider: Provider?, _ severity: Severity, _ summary: String, source: String,
        _ evaluate: @escaping @Sendable (LaunchRequest) -> [String]
    ) -> Check {
        Check(
            rule: CompatibilityRule(id: id, provider: provider, severity: severity, summary: summary, source: source),
            request: evaluate, callback: nil)
    }

    /// A check on callbacks.
    static func callback(
        _ id: String, _ provider: Provider?, _ severity: Severity, _ summary: String, source: String,
        _ evaluate: @escaping @Sendable (CallbackContext) -> [String]
    ) -> Check {
        Check(
            rule: CompatibilityRule(id: id, provider: provider, severity: severity, summary: summary, source: source),
            request: nil, callback: evaluate)
    }

    /// A check on the parse notes of requests and callbacks alike: `message` turns a matching note into a
    /// message and returns `nil` for the others.
    static func parseNote(
        _ id: String, _ provider: Provider?, _ severity: Severity, _ summary: String, source: String,
        _ message: @escaping @Sendable (ParseNote) -> String?
    ) -> Check {
        Check(
            rule: CompatibilityRule(id: id, provider: provider, severity: severity, summary: summary, source: source),
            request: { $0.parseNotes.compactMap(message).uniqued() },
            callback: { $0.callback.parseNotes.compactMap(message).uniqued() })
    }
}
