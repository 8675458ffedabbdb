import Crypto
import Foundation
import LMDBKit
import PaylogDomain
import PaylogStore

/// Records observations of payments: loads the payment from the status view, asks the state machine what the
/// observation means (``Payment/decide(_:for:id:at:)``), and appends the resulting events with an expected
/// version, retrying when another writer got there first.
///
/// Event ids are derived from the observation (payment, kind, time, evidence), so recording the same
/// observation again — a re-ingested file, a retried request — appends nothing, across restarts.
public struct PaymentWorkflow: Sendable {
    /// The log, opened with ``PaymentsProjection``.
    public let store: EventStore
    /// Written into every event's `actor`.
    public let actor: String
    /// How many times an observation is decided again when other writers moved its payment on first, before it
    /// fails with ``WorkflowError/tooMuchContention(payment:)``.
    public let contentionAttempts: Int

    /// A workflow over `store`, which must have been opened with a ``PaymentsProjection``. `contentionAttempts`: see
    /// ``contentionAttempts`` (at least 1; 20 by default).
    public init(store: EventStore, actor: String, contentionAttempts: Int = 20) {
        self.store = store
        self.actor = actor
        self.contentionAttempts = max(contentionAttempts, 1)
    }

    /// Opens the store at `path` with the views this workflow needs, compressing payloads with
    /// ``PaymentPayloadDictionary``, and keeping the log's mapped pages under `mappedMemoryBudget` bytes (nil: no
    /// budget; see ``EventStore/defaultMappedMemoryBudget``). With `readOnly`, nothing is written to the store
    /// (``LMDBKit/EnvironmentOptions/readOnly``).
    public static func openStore(
        at path: String, mappedMemoryBudget: Int? = EventStore.defaultMappedMemoryBudget, readOnly: Bool = false,
        forRebuild: Bool = false
    ) throws(EventStoreError) -> EventStore {
        try EventStore(
            path: path, options: EnvironmentOptions(mappedMemoryBudget: mappedMemoryBudget, readOnly: readOnly),
            projections: [PaymentsProjection()], payloadDictionary: PaymentPayloadDictionary.bytes, forRebuild: forRebuild)
    }

    /// Records `command` on payment `paymentID`, observed at `observedAt`. `evidence` identifies the
    /// observation (the raw URL or line) for idempotency.
    ///
    /// `retryKey`: a key the sender gives every attempt of one observation whose time it did not say (an HTTP
    /// `Idempotency-Key`, when the request has no `at`), so `observedAt` is only when this attempt came. The
    /// observation is then identified by the key instead of that time: a retry after the first attempt's answer was
    /// lost (the server died before storing it) is recognised as recorded, not taken for a new observation.
    public func record(
        _ command: PaymentCommand, payment paymentID: String, observedAt: Timestamp?, evidence: String,
        correlationID: String = "", retryKey: String? = nil
    ) async throws(WorkflowError) -> RecordOutcome {
        try await record(payment: paymentID, observedAt: observedAt, correlationID: correlationID, retryKey: retryKey) {
            (_) throws(WorkflowError) in (command, evidence)
        }
    }

    /// Records on payment `paymentID` the observation that `observation` gives (its command and evidence), like
    /// ``record(_:payment:observedAt:evidence:correlationID:)``, asking `observation` again before every attempt,
    /// with the payment as that attempt read it (nil when there is none), whose version the append then expects:
    /// after another writer moved the payment on, the observation may have to be told anew (a build-mode request
    /// sent twice at once takes the reference the first one recorded, ``requestLaunch(_:observedAt:)``).
    func record(
        payment paymentID: String, observedAt: Timestamp?, correlationID: String = "", retryKey: String? = nil,
        _ observation: (Payment?) throws(WorkflowError) -> (command: PaymentCommand, evidence: String)
    ) async throws(WorkflowError) -> RecordOutcome {
        let reading = StoreReading(store: store)
        for _ in 0..<contentionAttempts {
            let plan = try self.plan(
                payment: paymentID, observedAt: observedAt, correlationID: correlationID, reading: reading,
                retryKey: retryKey, observation)
            switch plan {
            case .done(let outcome):
                return outcome
            case .append(let newEvents, let expected, let events, let current):
                do {
                    let result = try await store.append(newEvents, to: paymentID, expecting: expected)
                    return PaymentWorkflow.outcome(of: result, paymentID, events: events, current: current, reading: reading)
                } catch .wrongExpectedVersion {
                    continue  // another writer moved the payment on: decide again on its new state
                } catch {
                    throw .store(error)
                }
            }
        }
        throw .tooMuchContention(payment: paymentID)
    }

    /// Records `command` like ``record(_:payment:observedAt:evidence:correlationID:)``, inside `session`: it
    /// sees what the session's earlier records wrote and is durable when the session commits.
    public func record(
        _ command: PaymentCommand, payment paymentID: String, observedAt: Timestamp?, evidence: String,
        correlationID: String = "", in session: WriteSession
    ) throws(WorkflowError) -> RecordOutcome {
        let reading = SessionReading(session: session)
        let plan = try self.plan(
            command, payment: paymentID, observedAt: observedAt, evidence: evidence, correlationID: correlationID,
            reading: reading)
        switch plan {
        case .done(let outcome):
            return outcome
        case .append(let newEvents, let expected, let events, let current):
            let (result, decided) = try append(
                newEvents, decided: events, to: paymentID, expecting: expected, current: current, in: session)
            // The view took the decided events: the payment it now holds is the one evolved with them.
            if !result.wasAlreadyRecorded, decided.tookEveryEvent, let payment = decided.payment {
                return RecordOutcome(paymentID: paymentID, eventsAppended: events.count, wasAlreadyRecorded: false, payment: payment)
            }
            // Otherwise read it back, with a new reading: the one that decided remembers the payment from before.
            return PaymentWorkflow.outcome(
                of: result, paymentID, events: events, current: current, reading: SessionReading(session: session))
        }
    }

    /// Loads the payment, recognises an observation already recorded, decides, and encodes the events.
    /// `known`: the observation's identity worked out before (``PreparedObservation``), for this payment.
    func plan(
        _ command: PaymentCommand, payment paymentID: String, observedAt: Timestamp?, evidence: String,
        correlationID: String, reading: some PaymentReading, known: ObservationIdentity? = nil
    ) throws(WorkflowError) -> RecordPlan {
        try plan(payment: paymentID, observedAt: observedAt, correlationID: correlationID, reading: reading, known: known) {
            (_) throws(WorkflowError) in (command, evidence)
        }
    }

    /// ``plan(_:payment:observedAt:evidence:correlationID:reading:known:)`` of the observation `observation` gives
    /// for the payment as read here: what it decides and the version its append expects come from the same read.
    ///
    /// `retryKey` identifies the observation instead of `observedAt` (see
    /// ``record(_:payment:observedAt:evidence:correlationID:retryKey:)``).
    func plan(
        payment paymentID: String, observedAt: Timestamp?, correlationID: String, reading: some PaymentReading,
        known: ObservationIdentity? = nil, retryKey: String? = nil,
        _ observation: (Payment?) throws(WorkflowError) -> (command: PaymentCommand, evidence: String)
    ) throws(WorkflowError) -> RecordPlan {
        let current: Payment?
        do {
            current = try reading.payment(paymentID)
        } catch let error as EventStoreError {
            throw .store(error)
        } catch {
            throw .store(.viewDamaged(view: PaymentsProjection().name, reason: "\(error)"))
        }
        let (command, evidence) = try observation(current)
        let identity = known?.digest ?? retryKey.map {
            PaymentWorkflow.identity(paymentID, command: command, observedAt: nil, evidence: PaymentWorkflow.retried(evidence, key: $0))
        } ?? PaymentWorkflow.identity(paymentID, command: command, observedAt: observedAt, evidence: evidence)
        // An observation already recorded is recognised by its first event id before deciding again.
        let firstID = known?.firstEventID ?? PaymentWorkflow.eventID(identity, index: 0)
        if let existing = try? reading.event(id: firstID), existing.streamID == paymentID,
            let current
        {
            return .done(RecordOutcome(paymentID: paymentID, eventsAppended: 0, wasAlreadyRecorded: true, payment: current))
        }
        let events: [PaymentEvent]
        do {
            events = try Payment.decide(command, for: current, id: paymentID, at: observedAt?.microseconds)
        } catch {
            throw .rejected(error)
        }
        guard !events.isEmpty, let version = current?.version ?? .some(0) else {
            return .done(RecordOutcome(paymentID: paymentID, eventsAppended: 0, wasAlreadyRecorded: false, payment: current!))
        }
        do {
            let newEvents = try events.enumerated().map { index, event in
                try EventCodec.encode(
                    event, id: index == 0 ? firstID : PaymentWorkflow.eventID(identity, index: index), observedAt: observedAt,
                    correlationID: correlationID, actor: actor)
            }
            return .append(newEvents: newEvents, expected: version == 0 ? .noStream : .exact(version), events: events, current: current)
        } catch {
            throw .store(.corruptRecord(position: 0, reason: "an event did not encode: \(error)"))
        }
    }

    /// The outcome once an append went through: the payment as the inline view now holds it.
    static func outcome(
        of result: AppendResult, _ paymentID: String, events: [PaymentEvent], current: Payment?, reading: some PaymentReading
    ) -> RecordOutcome {
        // The inline view was updated in the append's own transaction: it is the state now.
        var payment = (try? reading.payment(paymentID)) ?? nil
        if payment == nil {
            payment = current
            for event in events { Payment.evolve(&payment, id: paymentID, event) }
        }
        return RecordOutcome(
            paymentID: paymentID, eventsAppended: result.wasAlreadyRecorded ? 0 : events.count,
            wasAlreadyRecorded: result.wasAlreadyRecorded, payment: payment!)
    }

    /// The payment a routing key points at.
    public func route(_ key: String) throws -> String? { try PaymentsProjection.route(key, in: store) }

    /// A stable digest of one observation.
    static func identity(_ paymentID: String, command: PaymentCommand, observedAt: Timestamp?, evidence: String) -> [UInt8] {
        let kind: String = switch command {
        case .request: "request"
        case .switchApp: "app_switch"
        case .receiveCallback: "callback"
        case .reconcile: "reconcile"
        case .fail: "fail"
        case .expire: "expire"
        }
        return identity(paymentID, kind: kind, observedAt: observedAt, evidence: evidence)
    }

    /// The evidence part of the identity of an observation a retry key identifies in place of its time (see
    /// ``record(_:payment:observedAt:evidence:correlationID:retryKey:)``).
    static func retried(_ evidence: String, key: String) -> String {
        evidence + "\u{0}retry-key\u{0}" + key
    }

    /// A stable digest of one observation of `kind` (the command's name: `request`, `app_switch`, `callback`,
    /// `reconcile`, `fail`, `expire`).
    static func identity(_ paymentID: String, kind: String, observedAt: Timestamp?, evidence: String) -> [UInt8] {
        // The parts' UTF-8 bytes, each followed by a NUL, digested in one call (this runs for every recorded line,
        // on the parsing side of a batched ingest or on the writer thread: one buffer and one digest instead of eight
        // updates of a hasher).
        let time = observedAt.map { String($0.microseconds) } ?? "-"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(paymentID.utf8.count + kind.utf8.count + time.utf8.count + evidence.utf8.count + 4)
        for part in [paymentID, kind, time, evidence] {
            bytes.append(contentsOf: part.utf8)
            bytes.append(0)
        }
        return Array(SHA256.hash(data: bytes))
    }

    /// The id of the `index`-th event an observation produces: a name-based UUID (version 8 layout) from its digest.
    static func eventID(_ identity: [UInt8], index: Int) -> UUID {
        var input = identity
        input.append(UInt8(truncatingIfNeeded: index))
        return SHA256.hash(data: input).withUnsafeBytes { digest in
            var b = digest.load(as: uuid_t.self)
            b.6 = (b.6 & 0x0F) | 0x80
            b.8 = (b.8 & 0x3F) | 0x80
            return UUID(uuid: b)
        }
    }
}
