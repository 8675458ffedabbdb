import Testing

/// A rule id with a record that makes it fire and a close variant that does not.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let fires: Subject
    let quiet: Subject

    init(_ rule: String, fires: Subject, quiet: Subject) {
        self.rule = rule
        self.fires = fires
        self.quiet = quiet
    }

    var testDescription: String { rule }
}
