import Dispatch
import Foundation
import Hummingbird
import PaylogDomain
import PaylogPresentation
import PaylogProviders
import PaylogStore
import PaylogWorkflow

extension PaylogService {
    /// `POST /v1/payments`: build a launch URL and record `Requested`, or record an observed launch URL.
    func createPayment(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        try await post(request, context) { bytes, retryKey in
            let buildFields: Set<String> = [
                "provider", "amount", "currency", "callback_url", "client_id", "reference", "api_version", "title",
                "notes", "location_id", "skip_screen_success",
            ]
            let json = try JSONBody(bytes, allowed: buildFields.union(["payment", "url", "app_version", "at"]))
            let paymentID = try json.required("payment")
            do { _ = try PaymentID(paymentID) } catch { throw ServiceError.invalidField("payment", "is not a valid payment id: \(error)") }
            let at = try json.observedAt()
            if let url = try json.string("url") {
                // Any build field present, of whatever type: its type is not the problem, its presence is.
                if let extra = buildFields.sorted().first(where: { json.has($0) }) {
                    throw ServiceError.invalidField(extra, "cannot be combined with \"url\": send either an observed launch URL or the fields to build one")
                }
                let outcome = try await recordObservation(
                    .request(payment: paymentID, at: at, url: url, appVersion: try json.string("app_version")), endpoint: "payments",
                    retryKey: json.retryKey(retryKey))
                return try outcomeAnswer(outcome, created: true)
            }
            let spec = try launchSpec(json, paymentID: paymentID)
            let start = DispatchTime.now().uptimeNanoseconds
            let launch: LaunchOutcome
            do {
                launch = try await workflow.requestLaunch(spec, observedAt: at, retryKey: json.retryKey(retryKey))
            } catch let error as WorkflowError {
                throw failure(error)
            }
            metrics.append(endpoint: "payments", nanoseconds: DispatchTime.now().uptimeNanoseconds - start, events: launch.outcome.eventsAppended)
            countFindings(launch.outcome)
            var object = outcomeObject(launch.outcome)
            object["launch_url"] = launch.launchURL
            object["reference"] = launch.reference ?? NSNull()
            return try Answer(
                launch.outcome.eventsAppended > 0 ? .created : .ok, object, headers: ["Location": Self.paymentPath(paymentID)])
        }
    }

    /// `POST /v1/payments/{id}/app-switch`.
    func appSwitch(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        try await post(request, context) { bytes, retryKey in
            let paymentID = try PaylogService.paymentParameter(context)
            let json = try JSONBody(bytes.isEmpty ? Array("{}".utf8) : bytes, allowed: ["at", "note"])
            let outcome = try await recordObservation(
                .appSwitch(payment: paymentID, at: try json.observedAt(), note: try json.string("note") ?? ""), endpoint: "app-switch",
                retryKey: json.retryKey(retryKey))
            return try outcomeAnswer(outcome)
        }
    }

    /// `POST /v1/payments/{id}/callbacks`: a callback URL exactly as received.
    func callback(_ request: Request, _ context: PaylogRequestContext) async throws -> Response {
        try await post(request, context) { bytes, retryKey in
            let paymentID = try PaylogService.paymentParameter(context)
            let json = try JSONBody(bytes, allowed: ["url", "provider", "at"])
            var provider: Provider?
            if let name = try json.string("provider") {
                guard let value = Provider(rawValue: name.lowercased()) else {
                    throw ServiceError.invalidField("provider", "must be square, sumup or izettle")
                }
                provider = value
            }
            let outcome = try await recordObservation(
                .callback(payment: paymentID, at: try json.observedAt(), url: try json.required("url"), provider: provider),
                endpoint: "callbacks", retryKey: json.retryKey(retryKey))
            return try outcomeAnswer(outcome)
        }
    }

    /// The most lines of a JSON Lines body recorded in one write session (one durable commit): enough that a body is
    /// recorded at tens of thousands of lines a second, few enough that an append from another request waits about
    /// 10–20 ms at most behind one body being recorded (a body has one batch waiting at the writer at a time; several
    /// bodies at once, one each).
    static let observationBatchLines = 1_024

    /// The most lines a JSON Lines body may have to be recorded line by line, each line an append of its own that
    /// shares its group commit with other requests' appends. A till sending its observations as they happen sends
    /// bodies of a line or a few; recorded as a batch, each such body would take a commit of its own, and 64 tills
    /// at once 64 `fsync`s where group commit needs one or two. A longer body is recorded in batches. Measured
    /// (performance.md, *HTTP JSON Lines bodies*): with 64 clients at once, line by line records 1.6 times the lines a
    /// second of batches at 8 lines a body, as many at 16, fewer at 32; with 4 clients, batches record more from 2
    /// lines on (2.4 times at 8). So short bodies from many tills share commits, and anything longer is batched.
    static let lineByLineBodyLines = 8

    /// `POST /v1/observations` and `POST /v1/reconciliations`: JSON Lines with the same rules and report as
    /// `paylog ingest --json` / `paylog reconcile --json`. A body of up to ``lineByLineBodyLines`` lines is recorded
    /// line by line through group commit, a longer one as `paylog ingest` records a file: in batches of up to
    /// ``observationBatchLines`` lines, one durable commit each. The body (up to `max_stream_bytes`, without needing
    /// a `Content-Length`) is read whole before the first line is recorded: the log cannot take an event back, so
    /// a body refused for its size (413) or its slowness (408) must record nothing.
    func observations(_ request: Request, _ context: PaylogRequestContext, defaultKind: String?) async throws -> Response {
        let endpoint = defaultKind == nil ? "observations" : "reconciliations"
        return try await post(request, context, largeBody: true) { body, _ in
            let start = DispatchTime.now().uptimeNanoseconds
            let lines = BufferLines(body)
            let report: IngestReport
            // Line feeds counted only as far as the rule needs: a large body is not scanned whole for it.
            var lineFeeds = 0
            for byte in body where byte == UInt8(ascii: "\n") {
                lineFeeds += 1
                if lineFeeds > Self.lineByLineBodyLines { break }
            }
            if lineFeeds + (body.last == UInt8(ascii: "\n") || body.isEmpty ? 0 : 1) <= Self.lineByLineBodyLines {
                report = await recordLineByLine(lines, defaultKind: defaultKind)
            } else {
                report = await recordInBatches(lines, defaultKind: defaultKind)
            }
            // Counted also when recording stopped part-way: the lines before the stop are durable.
            metrics.append(endpoint: endpoint, nanoseconds: DispatchTime.now().uptimeNanoseconds - start, events: report.eventsAppended)
            if let stopped = report.stoppedAtLine {
                logger.error("append failed", metadata: ["error": "\(report.storeError ?? "")"])
                throw ServiceError(
                    .serviceUnavailable, code: "storage_unavailable",
                    "The event log could not be written at line \(stopped); the \(report.accepted) lines accepted before it "
                        + "are recorded, nothing from line \(stopped) on is. Send the lines from \(stopped) on again later "
                        + "(lines already recorded append nothing); the operator can see the cause in the server log.")
            }
            guard report.lines > 0 else {
                throw ServiceError.invalidBody("The body holds no observations: send JSON Lines, one observation per line.")
            }
            return try Answer(.ok, encodable: report)
        }
    }

    /// Records each line of a short body as an append of its own (through group commit), counting the findings on
    /// each as it is recorded. Stops at a line the store could not commit.
    func recordLineByLine(_ lines: BufferLines, defaultKind: String?) async -> IngestReport {
        var report = IngestReport()
        var number = 0
        for line in lines {
            number += 1
            if let problem = lines.problemWithLastLine {
                // Text only as received: a line that is not UTF-8 is rejected, not recorded repaired.
                report.reject(unreadableLine: number, problem)
            } else if let outcome = await workflow.ingest(line: line, number: number, defaultKind: defaultKind, into: &report) {
                countFindings(outcome)
            }
            if report.stoppedAtLine != nil { break }
        }
        return report
    }

    /// Records a body as `paylog ingest` records a file, in batches of up to ``observationBatchLines`` lines, then
    /// counts the findings on what it appended: one audit per payment, not per line, and only on the versions this
    /// body appended (another request may have appended to the same payment meanwhile, and counted its own).
    func recordInBatches(_ lines: BufferLines, defaultKind: String?) async -> IngestReport {
        var appendedVersions: [String: [ClosedRange<UInt64>]] = [:]
        let report = await workflow.ingest(lines: lines, defaultKind: defaultKind, batchSize: Self.observationBatchLines) { appended in
            appendedVersions[appended.paymentID, default: []].append(appended.versions)
        }
        for (paymentID, versions) in appendedVersions { countFindings(of: paymentID, in: versions) }
        return report
    }

    /// Records one observation, timing the append and counting findings. `retryKey`: the request's, when it gives no
    /// `at` (see ``post(_:_:largeBody:_:)``).
    func recordObservation(_ observation: Observation, endpoint: String, retryKey: String? = nil) async throws -> RecordOutcome {
        let start = DispatchTime.now().uptimeNanoseconds
        let outcome: RecordOutcome
        do { outcome = try await workflow.record(observation, retryKey: retryKey) } catch { throw failure(error) }
        metrics.append(endpoint: endpoint, nanoseconds: DispatchTime.now().uptimeNanoseconds - start, events: outcome.eventsAppended)
        countFindings(outcome)
        return outcome
    }

    /// The HTTP error for a workflow failure; store failures are logged in full first.
    func failure(_ error: WorkflowError) -> ServiceError {
        if case .store = error { logger.error("append failed", metadata: ["error": "\(error)"]) }
        return error.serviceError
    }

    /// Counts the compatibility findings on the events just appended (metrics only; the log is not changed).
    func countFindings(_ outcome: RecordOutcome) {
        guard outcome.eventsAppended > 0 else { return }
        let last = outcome.payment.version
        countFindings(of: outcome.paymentID, in: [last - UInt64(outcome.eventsAppended) + 1...last])
    }

    /// Counts the compatibility findings on `paymentID`'s events at the stream versions in `versions`.
    func countFindings(of paymentID: String, in versions: [ClosedRange<UInt64>]) {
        guard let entries = try? PaymentAudit.entries(of: paymentID, in: store) else { return }
        for entry in entries where versions.contains(where: { $0.contains(entry.event.version) }) {
            for finding in entry.findings { metrics.finding(rule: finding.rule, severity: finding.severity.rawValue) }
        }
    }

    /// The payment's state plus what this request appended.
    func outcomeObject(_ outcome: RecordOutcome) -> [String: Any] {
        var object = PaymentJSON.object(outcome.payment)
        object["events_appended"] = outcome.eventsAppended
        object["already_recorded"] = outcome.wasAlreadyRecorded
        return object
    }

    /// 201 (`created`) when this request appended an event, else 200.
    func outcomeAnswer(_ outcome: RecordOutcome, created: Bool = false) throws -> Answer {
        let status: HTTPResponse.Status = created && outcome.eventsAppended > 0 ? .created : .ok
        return try Answer(status, outcomeObject(outcome), headers: ["Location": Self.paymentPath(outcome.paymentID)])
    }

    /// The launch spec a build-mode `POST /v1/payments` describes.
    func launchSpec(_ json: JSONBody, paymentID: String) throws -> LaunchSpec {
        guard let provider = Provider(rawValue: try json.required("provider").lowercased()) else {
            throw ServiceError.invalidField("provider", "must be square, sumup or izettle")
        }
        let currency: CurrencyCode
        do { currency = try CurrencyCode(try json.required("currency")) } catch let error as ServiceError { throw error } catch {
            throw ServiceError.invalidField("currency", "is not an ISO 4217 currency code")
        }
        let money: Money
        do { money = try Money(decimalString: try json.required("amount"), currency: currency) } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError.invalidField("amount", "must be a decimal amount like \"12.50\" with at most the currency's minor digits: \(error)")
        }
        let reference = try json.string("reference")
        if let reference, reference.isEmpty || reference.count > 128 {
            throw ServiceError.invalidField("reference", "must be 1–128 characters")
        }
        return LaunchSpec(
            provider: provider, paymentID: try PaymentID(paymentID), amount: money, reference: reference,
            callbackBaseURL: try json.required("callback_url"), clientID: try json.required("client_id"),
            title: try json.string("title"), notes: try json.string("notes"),
            squareAPIVersion: provider == .square ? (try json.string("api_version") ?? "1.3") : nil,
            appVersion: try json.string("app_version"), locationID: try json.string("location_id"),
            skipScreenSuccess: try json.bool("skip_screen_success") ?? false)
    }
}
