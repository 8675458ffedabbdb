extension IngestReport {
    /// Counts a recorded line.
    mutating func accept(_ outcome: RecordOutcome) {
        accept(eventsAppended: outcome.eventsAppended)
    }

    /// Counts a recorded line that appended `events` events (0: already recorded, or nothing to record).
    mutating func accept(eventsAppended events: Int) {
        accepted += 1
        eventsAppended += events
    }

    /// Counts a rejected line and why; past ``IngestReport/maximumListedErrors`` the reason is only counted.
    ///
    /// A batch ingest rejects lines out of order (a line that cannot be parsed as it is read, one that cannot be
    /// routed when its batch is recorded, later), so reasons are kept up to twice the limit and then cut back to the
    /// lowest line numbers: the report lists the first ``IngestReport/maximumListedErrors`` rejected lines of the
    /// input once ``finishErrors()`` has run, whatever order they were found in.
    mutating func reject(line: Int, _ message: String) {
        rejected += 1
        errors.append(LineError(line: line, message: message))
        if errors.count >= 2 * IngestReport.maximumListedErrors { finishErrors() }
    }

    /// Puts the listed reasons in line order and keeps the first ``IngestReport/maximumListedErrors`` of them,
    /// counting the others in ``IngestReport/errorsOmitted``.
    mutating func finishErrors() {
        errors.sort { $0.line < $1.line }
        let limit = IngestReport.maximumListedErrors
        if errors.count > limit {
            errorsOmitted += errors.count - limit
            errors.removeSubrange(limit...)
        }
    }

    /// Counts line `number`, which could not be read as text (`problem` says why), as rejected.
    public mutating func reject(unreadableLine number: Int, _ problem: String) {
        lines += 1
        reject(line: number, problem)
    }

    /// Counts line `number` and parses it; nil when it is blank (not counted) or unreadable (rejected).
    mutating func observation(_ raw: String, number: Int, defaultKind: String?) -> Observation? {
        // Nearly every line begins and ends with a visible ASCII character (`{`, `}`) and needs no trimming;
        // Foundation's trimming converts the whole line to UTF-16 first, which was a fifth of `paylog ingest`
        // (`perf`, `paylog bench --scenario ingest`). Other lines are trimmed as before.
        let visible: ClosedRange<UInt8> = 0x21...0x7E
        let line: String
        if let first = raw.utf8.first, let last = raw.utf8.last, visible.contains(first), visible.contains(last) {
            line = raw
        } else {
            line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if line.isEmpty { return nil }
        lines += 1
        do {
            let observation = try Observation.parse(line, defaultKind: defaultKind)
            // A provider's report (`paylog reconcile`, `POST /v1/reconciliations`) holds report lines only: a line
            // of another kind there (a `fail`, a `request`) would change payments a report cannot speak for.
            if defaultKind == "reconcile", !observation.isReconcile {
                reject(line: number, "a report line must be a reconcile observation (no \"kind\", or \"reconcile\"), "
                    + "not \"\(observation.kindName)\": record other observations with paylog ingest")
                return nil
            }
            return observation
        } catch {
            reject(line: number, error.description)
            return nil
        }
    }

    /// Counts the outcomes of a recorded batch: each line accepted, or rejected with its error.
    mutating func count(_ batch: RecordedBatch) {
        if let failure = batch.failure, stoppedAtLine == nil {
            stoppedAtLine = failure.line
            storeError = failure.error.description
        }
        count(batch.results)
    }

    /// Counts each line's outcome.
    mutating func count(_ outcomes: [(number: Int, result: Result<AppendedEvents?, WorkflowError>)]) {
        for (number, result) in outcomes {
            switch result {
            case .success(let events): accept(eventsAppended: events?.versions.count ?? 0)
            case .failure(let error): reject(line: number, error.description)
            }
        }
    }
}
