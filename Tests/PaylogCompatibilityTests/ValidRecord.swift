import Testing

/// A named record that must yield no error or warning.
struct ValidRecord: Sendable, CustomTestStringConvertible {
    let name: String
    let subject: Subject
    var testDescription: String { name }
}
