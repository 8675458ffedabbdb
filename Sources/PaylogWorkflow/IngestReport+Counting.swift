extension IngestReport {
    /// Counts a recorded line.
    mutating func accept(_ outcome: RecordOutcome) {
        accepted += 1
        eventsAppended += outcome.eventsAppended
    }

    /// Counts a rejected line and why.
    mutating func reject(line: Int, _ message: String) {
        rejected += 1
        errors.append(LineError(line: line, message: message))
    }

    /// Counts line `number` and parses it; nil when it is blank (not counted) or unreadable (rejected).
    mutating func observation(_ raw: String, number: Int, defaultKind: String?) -> Observation? {
        let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.isEmpty { return nil }
        lines += 1
        do {
            return try Observation.parse(line, defaultKind: defaultKind)
        } catch {
            reject(line: number, error.description)
            return nil
        }
    }

    /// Counts the outcomes of a recorded batch: each line accepted, or rejected with its error.
    mutating func count(_ outcomes: [(number: Int, result: Result<RecordOutcome, WorkflowError>)]) {
        for (number, result) in outcomes {
            switch result {
            case .success(let outcome): accept(outcome)
            case .failure(let error): reject(line: number, error.description)
            }
        }
    }
}
