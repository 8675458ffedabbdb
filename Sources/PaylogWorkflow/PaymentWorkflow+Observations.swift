import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore

extension PaymentWorkflow {
    /// Routes and records one observation. Rejects only what cannot be understood or routed; a request or
    /// callback that breaks its provider's contract is recorded as observed (the replay checker judges it).
    /// `retryKey`: see ``record(_:payment:observedAt:evidence:correlationID:retryKey:)``.
    public func record(_ observation: Observation, retryKey: String? = nil) async throws(WorkflowError) -> RecordOutcome {
        let (command, payment, at, evidence) = try resolve(observation, reading: StoreReading(store: store))
        return try await record(command, payment: payment, observedAt: at, evidence: evidence, retryKey: retryKey)
    }

    /// Routes and records one observation like ``record(_:)``, inside `session`.
    public func record(_ observation: Observation, in session: WriteSession) throws(WorkflowError) -> RecordOutcome {
        let (command, payment, at, evidence) = try resolve(observation, reading: SessionReading(session: session))
        return try record(command, payment: payment, observedAt: at, evidence: evidence, in: session)
    }

    /// Records a line prepared before the session (its launch URL already parsed) like ``record(_:in:)``, and
    /// returns only what it appended (nil: nothing): a batch ingest reports counts, so the payment is not read back
    /// from the view (that read decoded the payment a third time per line, after the decision and the view's
    /// own update).
    ///
    /// `payments`: the payments the session's earlier lines read or appended to, decoded; this line's append
    /// leaves its payment there as the view now holds it (or forgets it, when the view evolved it itself).
    func recordCounting(
        _ prepared: PreparedObservation, in session: WriteSession, payments: SessionPayments = SessionPayments()
    ) throws(WorkflowError) -> AppendedEvents? {
        let reading = SessionReading(session: session, payments: payments)
        let (command, payment, at, evidence) = try resolve(
            prepared.observation, reading: reading, launch: prepared.launch, callbackAhead: prepared.callbackAhead)
        // The identity worked out while parsing holds only for the payment it was taken for.
        let known = prepared.identity.flatMap { $0.paymentID == payment ? $0 : nil }
        let plan = try self.plan(
            command, payment: payment, observedAt: at, evidence: evidence, correlationID: "", reading: reading, known: known)
        switch plan {
        case .done(let outcome):
            let count = UInt64(outcome.eventsAppended)
            guard count > 0 else { return nil }
            return AppendedEvents(paymentID: payment, versions: outcome.payment.version - count + 1...outcome.payment.version)
        case .append(let newEvents, let expected, let events, let current):
            let result: AppendResult
            let decided: DecidedAppend
            do {
                (result, decided) = try append(
                    newEvents, decided: events, to: payment, expecting: expected, current: current, in: session)
            } catch {
                payments.forget(payment)
                throw error
            }
            if !result.wasAlreadyRecorded, decided.tookEveryEvent, let evolved = decided.payment {
                payments.remember(evolved, for: payment)
            } else {
                payments.forget(payment)
            }
            return result.wasAlreadyRecorded ? nil : AppendedEvents(paymentID: payment, versions: result.versions)
        }
    }

    /// A callback read as the provider its URL names (nil: it names none), its errors as
    /// ``WorkflowError/unreadable(_:)``.
    static func detectCallback(_ url: String) throws(WorkflowError) -> CallbackOutcome? {
        do { return try Providers.detectAndParseCallback(url) } catch { throw .unreadable(error.description) }
    }

    /// A callback read as `provider`'s, its errors as ``WorkflowError/unreadable(_:)``.
    static func parseCallback(_ url: String, provider: Provider) throws(WorkflowError) -> CallbackOutcome {
        do { return try Providers.parseCallback(url, provider: provider) } catch { throw .unreadable(error.description) }
    }

    /// A launch URL parsed, its errors as ``WorkflowError/unreadable(_:)``.
    static func parseLaunch(_ url: String, appVersion: String?) throws(WorkflowError) -> LaunchRequest {
        do { return try Providers.parseLaunch(url, appVersion: appVersion) } catch { throw .unreadable(error.description) }
    }

    /// The command an observation means, the payment it is for, when it was observed and its evidence.
    /// `launch` is a request's launch URL already parsed, `callbackAhead` what was read ahead of a callback naming
    /// no provider (``PreparedObservation``); nil: do it here when needed.
    func resolve(
        _ observation: Observation, reading: some PaymentReading, launch: Result<LaunchRequest, WorkflowError>? = nil,
        callbackAhead: CallbackAhead? = nil
    ) throws(WorkflowError) -> (PaymentCommand, String, Timestamp?, String) {
        switch observation {
        case .request(let payment, let at, let url, let appVersion):
            let request: LaunchRequest
            switch launch {
            case .success(let parsed)?: request = parsed
            case .failure(let error)?: throw error
            case nil: request = try PaymentWorkflow.parseLaunch(url, appVersion: appVersion)
            }
            return (.request(request, builtByPaylog: false), payment, at, url)
        case .appSwitch(let payment, let at, let note):
            return (.switchApp(note: note), payment, at, note)
        case .callback(let payment, let at, let url, let provider):
            let (paymentID, outcome) = try routeCallback(
                url, payment: payment, provider: provider, reading: reading, ahead: callbackAhead)
            return (.receiveCallback(outcome), paymentID, at, url)
        case .reconcile(let at, let line):
            let (paymentID, matchedBy) = try routeReport(line, reading: reading)
            let attempt = attemptAmount(of: paymentID, line: line, matchedBy: matchedBy, reading: reading)
            return (.reconcile(line, matchedBy: matchedBy, attemptAmount: attempt), paymentID, at, line.rawLine)
        case .fail(let payment, let at, let reason):
            return (.fail(reason: reason), payment, at, reason)
        }
    }

    /// Fails every offline payment whose reconciliation window closed before `now`. Returns the payments failed.
    public func expireOffline(now: Timestamp) async throws(WorkflowError) -> [String] {
        let offline: [Payment]
        do { offline = try PaymentsProjection.payments(in: store, status: .offline) } catch let error as EventStoreError {
            throw .store(error)
        } catch {
            throw .store(.viewDamaged(view: PaymentsProjection().name, reason: "\(error)"))
        }
        var expired: [String] = []
        for payment in offline {
            let outcome = try await record(
                .expire(nowMicroseconds: now.microseconds), payment: payment.id, observedAt: now, evidence: "expire")
            if outcome.eventsAppended > 0 { expired.append(payment.id) }
        }
        return expired
    }

    /// Finds the payment a callback belongs to and reads the callback with that payment's provider; when the
    /// callback alone does not decide its outcome, it is read again against the payment's launch requests
    /// (``PaymentWorkflow/reread(_:url:requests:)``).
    /// `ahead`: what was read of `url` before (by ``PreparedObservation``), each part used where it would be
    /// worked out here.
    func routeCallback(
        _ url: String, payment: String?, provider: Provider?, reading: some PaymentReading,
        ahead: CallbackAhead? = nil
    ) throws(WorkflowError) -> (String, CallbackOutcome) {
        let (paymentID, outcome) = try locateCallback(url, payment: payment, provider: provider, reading: reading, ahead: ahead)
        return (paymentID, PaymentWorkflow.reread(outcome, url: url) { reading.launchRequests(of: paymentID) })
    }

    /// ``routeCallback(_:payment:provider:reading:ahead:)`` with the callback read on its own.
    private func locateCallback(
        _ url: String, payment: String?, provider: Provider?, reading: some PaymentReading,
        ahead: CallbackAhead? = nil
    ) throws(WorkflowError) -> (String, CallbackOutcome) {
        var provider = provider
        // Read as the provider its URL names, when the line does not say which: before the named payment's provider,
        // so that a SumUp callback named for a payment last requested from Square reads as SumUp's (and is judged
        // for what it is) rather than failing as a Square URL without `data`.
        var detected: CallbackOutcome?
        if provider == nil {
            let detection = ahead?.detected ?? Result { () throws(WorkflowError) in try PaymentWorkflow.detectCallback(url) }
            switch detection {
            case .success(let outcome): detected = outcome
            case .failure(let error): if payment == nil { throw error }
            }
            provider = detected?.provider
        }
        // The payment the callback is read for, when the URL names no provider: the one named, else the one its
        // marker names (read ahead exactly when reached here: the URL names no provider).
        var owner: Payment?
        // Kept whole, so that "not recorded" is told from a store error below.
        var named: Result<Payment?, any Error>?
        if let payment, provider == nil {
            named = Result { try reading.payment(payment) }
            owner = (try? named?.get()) ?? nil
        }
        if provider == nil, owner == nil, let marked = ahead.map({ $0.marker }) ?? PaymentWorkflow.queryItem("paylog_payment", in: url) {
            owner = (try? reading.payment(marked)) ?? nil
        }
        // Nor a marker: the reference it echoes (iZettle's `reference`, on a callback URL the shop chose), looked up as
        // a request's reference, names the payment whose provider reads it (Docs/providers.md, *Routing a callback*);
        // only a payment requested from iZettle, whose callbacks echo `reference` (a Square state of the same text
        // would read this URL as a Square callback without `data`).
        if provider == nil, owner == nil, let echoed = PaymentWorkflow.queryItem("reference", in: url),
            let routed = (try? reading.route("ref:\(echoed)")) ?? nil,
            let found = (try? reading.payment(routed)) ?? nil, found.wasRequested(with: .izettle)
        {
            owner = found
        }
        if provider == nil, let owner { provider = attemptProvider(of: url, for: owner, reading: reading, ahead: ahead) }
        // The payment named is not recorded: that is the mistake to report (a mistyped id), not the URL's provider. A
        // store error goes on to the message below.
        if provider == nil, let payment, owner == nil, case .success(nil)? = named {
            throw .rejected(.unknownPayment(payment))
        }
        guard let provider else {
            throw .unreadable("the callback \(url) carries neither Square data, SumUp smp- parameters, a paylog_payment marker of a known payment nor the reference of a known iZettle request; pass \"provider\" or \"payment\"")
        }
        let outcome: CallbackOutcome
        if let detected {
            outcome = detected
        } else if provider == .izettle, let read = ahead?.asIZettle {
            outcome = read
        } else {
            do { outcome = try PaymentWorkflow.parseCallback(url, provider: provider) } catch {
                // Read as the latest attempt's provider, it failed: when the payment was also requested from another
                // provider, the callback may answer that earlier attempt, which only its provider can say.
                let others = Provider.allCases.filter { $0 != provider && owner?.wasRequested(with: $0) == true }
                guard let owner, !others.isEmpty, case .unreadable(let reason) = error else { throw error }
                throw .unreadable(
                    "\(reason) (read as \(provider.rawValue), the provider payment \(owner.id) was last requested from; it "
                        + "was also requested from \(others.map(\.rawValue).joined(separator: " and ")): if this callback "
                        + "answers that earlier attempt, give its provider (\"provider\" in a line, --provider on the command line))")
            }
        }
        if let payment { return (payment, outcome) }
        var candidates: [String] = []
        switch outcome.routingHint {
        case .paymentID(let id)?: return (id.rawValue, outcome)
        case .reference(let reference)?: candidates.append("ref:\(reference)")
        case nil: break
        }
        if let reference = outcome.reference { candidates.append("ref:\(reference)") }
        for key in candidates {
            if let found = try? reading.route(key) { return (found, outcome) }
        }
        throw .unroutable("the callback \(url) (no paylog_payment marker, and its reference \(outcome.reference.map { "\"\($0)\"" } ?? "is missing"))")
    }

    /// The provider to read a callback naming none as, for `payment`: the provider of the request whose reference
    /// the callback echoes, when the payment was requested from several providers — an earlier attempt's callback
    /// arriving after a retry with another provider answers that attempt, not the retry (read as the retry's, it
    /// failed the attempt in progress). Otherwise, or when it echoes none of the payment's references, the provider
    /// of the payment's latest request.
    private func attemptProvider(
        of url: String, for payment: Payment, reading: some PaymentReading, ahead: CallbackAhead?
    ) -> Provider {
        guard Provider.allCases.contains(where: { $0 != payment.provider && payment.wasRequested(with: $0) }) else {
            return payment.provider
        }
        var readings: [Provider: CallbackOutcome?] = [:]
        // Newest first: of two attempts with the same reference, the later one is answered.
        for request in reading.launchRequests(of: payment.id) {
            guard let reference = request.reference else { continue }
            let read: CallbackOutcome?
            if let known = readings[request.provider] {
                read = known
            } else {
                read = request.provider == .izettle && ahead?.asIZettle != nil
                    ? ahead?.asIZettle : try? PaymentWorkflow.parseCallback(url, provider: request.provider)
                readings[request.provider] = read
            }
            if read?.reference == reference { return request.provider }
        }
        return payment.provider
    }

    /// Finds the payment a report line belongs to and how it matched.
    /// A key that routes to a payment never requested from the line's provider is passed over: a report speaks only
    /// for its provider's payments (a SumUp line whose `foreign_tx_id` equals a Square payment's state reconciled
    /// that payment). A payment retried with another provider is still its first provider's payment.
    ///
    /// When the line's transaction id is already known (a callback or an earlier line declared it) and names another
    /// payment than its keys do, or its keys name none, the transaction's payment is taken, matched by
    /// `transaction_id`: the provider's id names the charge itself, while a reference may since have been reused by
    /// another payment (the same report run again would otherwise reconcile that one too).
    func routeReport(_ line: ReconciliationLine, reading: some PaymentReading) throws(WorkflowError) -> (String, String) {
        guard let named = line.payment else { return try routeReportByIDs(line, reading: reading) }
        // A payment named on the line: its keys must not name another (the name would hide a mismatch); when they
        // name none, the named payment takes it, `matched_by` "payment" saying that a person matched it.
        let found: (String, String)?
        do { found = try routeReportByIDs(line, reading: reading) } catch {
            guard case .unroutable = error else { throw error }
            found = nil
        }
        if let found {
            guard found.0 == named else {
                throw .unreadable("The report line names payment \(named), but its \(found.1) matches payment "
                    + "\(found.0). Nothing was recorded; check the line, or remove \"payment\" to let its keys decide.")
            }
            return found
        }
        guard let payment = (try? reading.payment(named)) ?? nil else { throw .rejected(.unknownPayment(named)) }
        guard payment.wasRequested(with: line.provider) else {
            throw .unreadable("The \(line.provider.rawValue) report line names payment \(named), which was never requested "
                + "from \(line.provider.rawValue) (\(payment.provider.rawValue)). Nothing was recorded; check the payment id.")
        }
        return (named, "payment")
    }

    /// ``routeReport(_:reading:)`` by the line's ids: its transaction id when a callback or an earlier line made it
    /// known, else its keys.
    private func routeReportByIDs(_ line: ReconciliationLine, reading: some PaymentReading) throws(WorkflowError) -> (String, String) {
        var charged: String?
        if let known = try? reading.route("tx:" + line.transactionID),
            let payment = (try? reading.payment(known)) ?? nil, payment.wasRequested(with: line.provider)
        {
            charged = known
        }
        do {
            let (found, matchedBy) = try routeReportByKeys(line, reading: reading)
            if let charged, charged != found { return (charged, "transaction_id") }
            return (found, matchedBy)
        } catch {
            guard let charged else { throw error }
            return (charged, "transaction_id")
        }
    }

    private func routeReportByKeys(_ line: ReconciliationLine, reading: some PaymentReading) throws(WorkflowError) -> (String, String) {
        var otherProviders: [String] = []
        for key in line.matchKeys {
            let prefix = switch key.name {
            case "client_transaction_id": "ctx:"
            case "transaction_code": "tx:"
            default: "ref:"
            }
            guard let found = try? reading.route(prefix + key.value) else { continue }
            if let payment = (try? reading.payment(found)) ?? nil, !payment.wasRequested(with: line.provider) {
                otherProviders.append("\(key.name) names \(payment.provider.rawValue) payment \(found)")
                continue
            }
            return (found, key.name)
        }
        let keys = line.matchKeys.map { "\($0.name) \"\($0.value)\"" }.joined(separator: ", ")
        let passedOver = otherProviders.isEmpty
            ? "" : "; \(otherProviders.joined(separator: ", ")), and a report is matched only to its own provider's payments"
        throw .unroutable("the \(line.provider.rawValue) report line with \(keys)\(passedOver)")
    }

    /// What the attempt a report line matched requested, when the payment was requested more than once (with
    /// several references); nil otherwise, and the latest request's amount is the one to compare with. The attempt
    /// is the request with the line's reference (`foreign_tx_id`, `reference`), or, for a line matched by an id a
    /// callback returned (`client_transaction_id`, `transaction_code`, `transaction_id`), the request whose
    /// reference that callback echoed. Only retried payments read their events for it.
    func attemptAmount(
        of paymentID: String, line: ReconciliationLine, matchedBy: String, reading: some PaymentReading
    ) -> Money? {
        guard let payment = (try? reading.payment(paymentID)) ?? nil, payment.references.count > 1,
            let events = try? reading.eventsNewestFirst(of: paymentID)
        else { return nil }
        var reference: String?
        switch matchedBy {
        case "foreign_tx_id", "reference":
            reference = line.matchKeys.first(where: { $0.name == matchedBy })?.value
        default:
            let id = line.matchKeys.first(where: { $0.name == matchedBy })?.value ?? line.transactionID
            for event in events where event.type == PaymentEventKind.callbackReceived.typeName {
                guard case .callbackReceived(let callback)? = try? EventCodec.decode(event) else { continue }
                let outcome = callback.outcome
                if outcome.clientTransactionID == id || outcome.transactionID == id {
                    reference = outcome.reference
                    break
                }
            }
        }
        guard let reference else { return nil }
        for event in events where event.type == PaymentEventKind.requested.typeName {
            if case .requested(let requested)? = try? EventCodec.decode(event), requested.reference == reference {
                return requested.amount
            }
        }
        return nil
    }

    /// The first value of query item `name` in `url`, read as the providers' adapters read it
    /// (``PaylogProviders/Providers/queryValue(_:in:)``), so that a callback routed on the writer and one read ahead
    /// (``CallbackAhead``) find the same marker.
    static func queryItem(_ name: String, in url: String) -> String? {
        Providers.queryValue(name, in: url)
    }

    /// Records every line of JSON Lines observations, in order; a bad line is reported and skipped.
    ///
    /// Lines are parsed as they are read, then recorded up to `batchSize` at a time in one write session: each line
    /// is routed and decided against the state the lines before it left, exactly as one by one, but the batch
    /// commits with a single fsync instead of one per line (`paylog bench --scenario ingest`). Every line of a
    /// batch is durable when the next batch starts and when this returns; a crash loses at most the batches in
    /// flight, none of which was reported, and ingesting the file again appends only what is missing.
    ///
    /// Batches are cut to keep the writer busy (group commit, on the parsing side): once at least `minimumBatch`
    /// lines (512, or `batchSize` if smaller) are ready, they are handed on as soon as the writer has nothing left
    /// to record, so a batch holds what was parsed while the one before it was recorded, up to `batchSize`. The
    /// writer then never waits for a batch to fill while lines are ready, and batches grow to what the parsing
    /// keeps up with (the two sides now cost about the same per line). Larger batches are cheaper per line:
    /// a commit writes every page the batch dirtied, and since the indexes and views are keyed at random (event
    /// ids are digests, payments the shop's ids) a batch dirties pages all over each of them, so fewer, larger
    /// commits write far fewer pages per line. 8,192 lines at most by default (100 k events: 4,096-line batches
    /// 55.8 k ev/s, 8,192 64.1 k, medians of five alternating runs; Docs/performance.md). Until this, batches
    /// doubled from 512 lines, and the writer waited for each to fill: reading the next, twice as large, took the
    /// parsing side longer than recording the last took the writer.
    /// A batch holds the writer for its whole session (60–80 ms for 8,192 lines): other appends wait that long.
    ///
    /// `appended`, when given, is told what each recorded line appended (lines that appended nothing are not told),
    /// in line order, once the line's batch is durable.
    public func ingest(
        lines: some Sequence<String>, defaultKind: String? = nil, batchSize: Int = PaymentWorkflow.defaultIngestBatchSize,
        appended: ((AppendedEvents) -> Void)? = nil
    ) async -> IngestReport {
        await ingest(lines: lines, defaultKind: defaultKind, batchSize: batchSize, observingBatches: nil, recorder: nil, appended: appended)
    }

    /// The most lines an ingest records per write transaction unless told otherwise (`paylog ingest --batch-lines`):
    /// 8,192 (see ``ingest(lines:defaultKind:batchSize:appended:)`` for why larger batches are cheaper per line).
    public static let defaultIngestBatchSize = 8_192

    /// How a batch is recorded: the batch, and what to call on the writer thread once every line is recorded.
    typealias BatchRecorder = @Sendable ([PreparedObservation], @escaping @Sendable () -> Void) async -> RecordedBatch

    /// ``ingest(lines:defaultKind:batchSize:)``, telling `observingBatches` each batch's size as it is handed on;
    /// `recorder` records each batch (by default in a write session of this workflow's store; tests give one that
    /// fails where they choose).
    func ingest(
        lines: some Sequence<String>, defaultKind: String?, batchSize: Int, observingBatches: (@Sendable (Int) -> Void)?,
        recorder: BatchRecorder? = nil, appended: ((AppendedEvents) -> Void)? = nil
    ) async -> IngestReport {
        let recordBatch: BatchRecorder = recorder ?? { batch, whenRecorded in await self.record(batch, whenRecorded: whenRecorded) }
        // Two batches handed on at most (one recording, one waiting) beside the one being read, so the side that is
        // ahead (parsing or recording) does not stall on the other's slower batches.
        let batchesAhead = 2
        let largest = max(batchSize, 1)
        let minimumBatch = min(512, largest)
        // Batches handed on, and the last the writer finished: equal when it has nothing left to do.
        var handedOn = 0
        let recorded = RecordedBatches()
        var report = IngestReport()
        // Counts a recorded batch, and tells `appended` what its lines appended.
        func take(_ recordedBatch: RecordedBatch) {
            report.count(recordedBatch)
            guard let appended else { return }
            for case (_, .success(let events?)) in recordedBatch.results { appended(events) }
        }
        var batch: [PreparedObservation] = []
        batch.reserveCapacity(largest)
        // Batches handed on but not yet counted, oldest first: the writer records one while the next waits for it
        // and the one after is parsed and prepared here, on the other core. Each is recorded only once the one
        // before it is durable (its task awaits the previous one), so lines are still recorded in order.
        var inFlight: [Task<RecordedBatch, Never>] = []
        // The lines of each batch in `inFlight`, held here until its task's result is taken and the next batch is
        // handed on, so that the batch is freed on this side (thousands of lines' strings and values, about 0.7 µs a
        // line) rather than by the last of the writer thread and the task's thread to let go of it: both sit on the
        // path from one batch's commit to the next batch's start, and the writer is the ingest's limit.
        var inFlightLines: [[PreparedObservation]] = []
        // Hands `ready` on to be recorded once the batch before it is durable.
        func handOn(_ ready: [PreparedObservation]) {
            let previous = inFlight.last
            observingBatches?(ready.count)
            handedOn += 1
            let number = handedOn
            inFlightLines.append(ready)
            inFlight.append(Task {
                _ = await previous?.value
                guard !recorded.isHalted else { return RecordedBatch(results: []) }
                let results = await recordBatch(ready) { recorded.mark(number) }
                if results.failure != nil { recorded.halt() }
                // Also when the session failed before its body's end (marking again is harmless: the next batch
                // is recorded only after this task returns).
                recorded.mark(number)
                return results
            })
        }
        // A file's or a body's reader says which lines are not valid UTF-8: those are rejected, never recorded
        // repaired.
        let reader = lines as? any LineProblemReporting
        for (index, raw) in lines.enumerated() {
            // `recorded.isHalted` once a batch's commit failed: no later batch is recorded, and no more lines are
            // read. Going on would record later lines without the failed ones (a smaller batch may fit where a larger
            // one did not), so a retry would put them in the log in another order than observed.
            if recorded.isHalted { break }
            if let problem = reader?.problemWithLastLine {
                report.reject(unreadableLine: index + 1, problem)
            } else if let observation = report.observation(raw, number: index + 1, defaultKind: defaultKind) {
                batch.append(PreparedObservation(number: index + 1, observation: observation))
            }
            guard batch.count >= largest || (batch.count >= minimumBatch && recorded.lastRecorded == handedOn) else { continue }
            let full = inFlight.count >= batchesAhead
            if full { take(await inFlight.removeFirst().value) }
            handOn(batch)
            // Freed once the next batch is on its way: the writer may be waiting for it.
            if full { inFlightLines.removeFirst() }
            batch.removeAll(keepingCapacity: true)
        }
        for task in inFlight { take(await task.value) }
        if !batch.isEmpty && !recorded.isHalted {
            observingBatches?(batch.count)
            take(await recordBatch(batch) {})
        }
        // Only now: freeing the batches before the last lines are recorded would delay those.
        inFlightLines.removeAll()
        // Parse errors are reported as lines are read, record errors per batch: restore line order.
        report.finishErrors()
        return report
    }

    /// Records prepared lines in one write session; returns each line's number and outcome (the events it
    /// appended, or why it was rejected), in order, or, when the session failed (nothing of it committed), the
    /// failure and the batch's first line.
    /// `whenRecorded` is called on the writer thread once every line is recorded, before the commit (again if the
    /// session runs its body again).
    private func record(
        _ batch: [PreparedObservation], whenRecorded: @escaping @Sendable () -> Void = {}
    ) async -> RecordedBatch {
        guard let first = batch.first else { return RecordedBatch(results: []) }
        let results: [Result<AppendedEvents?, WorkflowError>]
        do {
            results = try await store.withWriteSession { session in
                // Made per run of the body: a session that runs again starts from the views as committed.
                let payments = SessionPayments()
                let results = batch.map { line in
                    Result { () throws(WorkflowError) in
                        try self.recordCounting(line, in: session, payments: payments)
                    }
                }
                whenRecorded()
                return results
            }
        } catch {
            // The session did not commit: none of the batch is recorded.
            return RecordedBatch(results: [], failure: (line: first.number, error: error))
        }
        return RecordedBatch(results: batch.indices.map { (batch[$0].number, results[$0]) })
    }

    /// Records one line of JSON Lines observations (line `number`, 1-based) as an append of its own and counts it in
    /// `report`, by the same rules as ``ingest(lines:defaultKind:batchSize:appended:)`` (which `paylog ingest` and the
    /// HTTP JSON Lines endpoints use): the one-line-at-a-time reference the batched path is held to
    /// (`IngestBatchTests`). Blank lines are skipped.
    /// - Returns: the outcome when the line was accepted, nil when it was blank or rejected.
    @discardableResult
    public func ingest(
        line raw: String, number: Int, defaultKind: String? = nil, into report: inout IngestReport
    ) async -> RecordOutcome? {
        guard report.stoppedAtLine == nil,
            let observation = report.observation(raw, number: number, defaultKind: defaultKind)
        else { return nil }
        do {
            let outcome = try await record(observation)
            report.accept(outcome)
            return outcome
        } catch {
            // The store failed to commit (LMDB's own error: a full disk, an I/O error) or is closed: stop, as a
            // batched ingest does, rather than record later lines without this one.
            switch error {
            case .store(.storage), .store(.closed):
                report.stoppedAtLine = number
                if case .store(let storeError) = error { report.storeError = storeError.description }
            default:
                report.reject(line: number, error.description)
            }
            return nil
        }
    }
}
