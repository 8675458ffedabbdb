import PaylogCompatibility
import Testing

@Suite("Valid records")
struct ValidRecordTests {
    @Test("a fully valid request or callback yields no error or warning", arguments: ValidRecords.all)
    func clean(_ record: ValidRecord) throws {
        let findings = try record.subject.findings()
        let problems = findings.filter { $0.severity != .info }
        #expect(problems.isEmpty, "\(problems.map { "\($0.rule): \($0.message)" })")
    }
}
