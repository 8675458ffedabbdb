import Foundation
import LMDBKit
import PaylogDomain
import PaylogStore

/// The status view: per payment its current ``Payment`` state, plus the routing keys of events recorded before log
/// format 5. Kept inline, so it is current when an append is acknowledged.
///
/// Databases: `payments` (payment id → ``Payment`` in ``PaymentCodec``'s binary layout), `routes` (`<kind>:<value>`
/// → position u64 BE · payment id of the event that made it known) with kinds `ref` (request reference: Square
/// `state`, SumUp `foreign-tx-id`, iZettle `reference`), `ctx` (Square `client_transaction_id`) and `tx` (provider
/// transaction id or SumUp transaction code).
///
/// Since log format 5 every event declares its routing keys as tags (``PaymentEvent/routingKeys``) and the store
/// indexes them as it appends; `routes` holds only the keys of events that declare none (recorded before), derived
/// from their payloads. ``route(_:in:)`` reads both and takes the later event's, as one index would.
///
/// Events are decoded without the evidence-only strings a payment never reads (``EventCodec/decodeForState(_:)``).
public struct PaymentsProjection: StreamFoldingProjection {
    /// The projection's name.
    public let name = "payments"
    /// Bump when `apply` changes meaning: the view is rebuilt from the log at the next open.
    /// Version 2: payments are encoded with sorted keys (Foundation's JSONEncoder does not keep key order stable).
    /// Version 3: payments carry the time of their first request (for `--day`).
    /// Version 4: payments carry funnel flags and callback / offline / reconciliation times (for analytics).
    /// Version 5: payments are stored in ``PaymentCodec``'s binary layout instead of JSON (replay speed).
    /// Version 6: payments keep their callbacks' fingerprints, not their raw URLs, and not their id twice (rows a
    /// third of the size: less to sort, merge and write in a replay, less disk).
    /// Version 7: `routes` holds only the keys of events that declare no tags, with the position that set them.
    /// Version 8: a failure keeps its own error code (none for an expiry), the first callback time is the earliest
    /// observed, and `late_callback` marks only late successes.
    /// Version 9: payments keep a fingerprint of each recorded report line's transaction id and amount, so that a
    /// line with the transaction id that reconciled a payment but another amount is recorded, not taken for the same.
    /// Version 10: payments keep every provider they were requested with, so that an earlier attempt's callbacks
    /// and report lines are recorded after a retry with another provider.
    /// Version 11: payments keep each distinct charge their success callbacks reported (`multiple_charges`).
    /// Version 12: a new request after a failure starts a new attempt, whose success contradicts nothing before it.
    /// Version 13: the providers as one byte, the first charge and whether a later one differed instead of every
    /// charge (smaller rows: the replay sorts and writes them), and a reconciliation while failed kept as a flag.
    /// Version 14: only a success callback ends the lateness of a reconciliation while failed; provider ids are
    /// compared byte for byte.
    /// Version 15: folded by attempt: a success answering an attempt that had failed is late, a new request after a
    /// success starts an attempt whose decline contradicts nothing, error codes are the status's attempt's, a second
    /// transaction on the provider's report is a second charge, and a failure observed before the success (recorded
    /// after it) fails nothing; payments keep their first success's time and their failed attempts.
    /// Version 16: a report line with a negative or zero amount (a refund, a reversal) reconciles nothing and is no
    /// further charge.
    /// Version 17: the first success clears the error code of a failure before it (a retry's decline recorded before
    /// a replaced attempt's late success).
    /// Version 18: the first request's time is the earliest observed, whatever order the requests were recorded in
    /// (the analytics' day and request-to-callback latency, `status --day`).
    /// Version 19: payments keep the providers of their failed attempts, so that a success echoing no reference from
    /// one, after a retry with another provider, is late.
    /// Version 20: a failure observed before the report line that paid keeps when it was observed, so that a success
    /// callback observed before it, recorded after it, is not late.
    public let version: UInt64 = 20
    /// The databases it owns.
    public let databaseNames = ["payments", "routes"]

    /// The status projection.
    public init() {}

    /// Applies one event: evolves the payment and, for an event that declares no tags, indexes its routing keys.
    public func apply(_ event: RecordedEvent, in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        let paymentEvent = try EventCodec.decodeForState(event)
        let key = Array(event.streamID.utf8)
        var payment = try PaymentsProjection.load(key, txn, databases)
        Payment.evolve(&payment, recorded: event, decoded: paymentEvent)
        try txn.put(PaymentCodec.encode(payment!), for: key, in: databases["payments"])
        try PaymentsProjection.putRoutes(of: paymentEvent, event, txn, databases)
    }

    /// Puts the routing keys of `event`, decoded as `paymentEvent`, into `routes` when it declares no tags (the
    /// store indexes those it declares).
    static func putRoutes(
        of paymentEvent: PaymentEvent, _ event: RecordedEvent, _ txn: borrowing Transaction, _ databases: ProjectionDatabases
    ) throws {
        guard !event.declaresTags else { return }
        let target = TaggedEvent(streamID: event.streamID, position: event.position).encoded
        for route in paymentEvent.routingKeys {
            try txn.put(target, for: Array(route.utf8), in: databases["routes"])
        }
    }

    /// Applies one event given the workflow's ``DecidedAppend``: the decided event and the payment as the view
    /// holds it, so neither the payload nor the stored payment is decoded; the view ends exactly as
    /// ``apply(_:in:databases:)-(RecordedEvent,_,_)`` leaves it. Anything else is applied as usual.
    public func apply(
        _ event: RecordedEvent, decided: any Sendable, in txn: borrowing Transaction, databases: ProjectionDatabases
    ) throws {
        guard let decided = decided as? DecidedAppend, let paymentEvent = decided.take(event) else {
            return try apply(event, in: txn, databases: databases)
        }
        Payment.evolve(&decided.payment, recorded: event, decoded: paymentEvent)
        let key = Array(event.streamID.utf8)
        try txn.put(PaymentCodec.encode(decided.payment!), for: key, in: databases["payments"])
        try PaymentsProjection.putRoutes(of: paymentEvent, event, txn, databases)
    }

    /// Applies a chunk of events: each payment the chunk touches is loaded once, evolved in memory through all
    /// its events, and written once; routes (of events declaring no tags) are written once each, the last event's
    /// target winning as it would one event at a time.
    public func apply(_ events: [RecordedEvent], in txn: borrowing Transaction, databases: ProjectionDatabases) throws {
        var payments: [String: Payment] = [:]
        var routes: [String: TaggedEvent] = [:]
        for event in events {
            let paymentEvent = try EventCodec.decodeForState(event)
            if payments.index(forKey: event.streamID) == nil,
                let stored = try PaymentsProjection.load(Array(event.streamID.utf8), txn, databases)
            {
                payments[event.streamID] = stored
            }
            // Evolved in place inside the dictionary: no copy of the payment per event.
            Payment.evolve(&payments[event.streamID], recorded: event, decoded: paymentEvent)
            if !event.declaresTags {
                for route in paymentEvent.routingKeys {
                    routes[route] = TaggedEvent(streamID: event.streamID, position: event.position)
                }
            }
        }
        for (id, payment) in payments {
            try txn.put(PaymentCodec.encode(payment), for: Array(id.utf8), in: databases["payments"])
        }
        for (route, target) in routes {
            try txn.put(target.encoded, for: Array(route.utf8), in: databases["routes"])
        }
    }

    /// Folds one event of a payment's stream: evolves the payment and, for an event that declares no tags,
    /// indexes each routing key with the position of the event that made it known (the highest wins, as applying
    /// event by event would leave it).
    public func fold(_ event: RecordedEvent, into payment: inout Payment?, rows: inout ViewRows) throws {
        let paymentEvent = try EventCodec.decodeForState(event)
        Payment.evolve(&payment, recorded: event, decoded: paymentEvent)
        guard !event.declaresTags else { return }
        let target = TaggedEvent(streamID: event.streamID, position: event.position).encoded
        for route in paymentEvent.routingKeys {
            rows.index(target, for: Array(route.utf8), in: "routes", position: event.position)
        }
    }

    /// The same fold from the event as a rebuild reads it in place (``FoldEvent``): no ``RecordedEvent`` is
    /// built, the payload is decompressed into the fold's buffer, an `AppSwitched` payload is not read, and
    /// routing keys are indexed only for events that declare no tags (recorded before log format 5; the store
    /// indexes the tags of the others). Events this cannot read from the fold's bytes (an older schema, an unknown
    /// type) go through ``fold(_:into:rows:)-(RecordedEvent,_,_)``.
    ///
    /// Each kind's fields are decoded and handed to ``Payment``'s evolve for that kind, never wrapped in a
    /// ``PaymentEvent``: moving that 187-byte enum value out of the decoder's layers and into the evolve was about
    /// seven copies per event (`perf`, Docs/performance.md). `PaymentsFolderTests` and the rebuild tests hold the
    /// rows to the live view's, which the event-by-event path leaves.
    public func fold(_ event: FoldEvent, into payment: inout Payment?, rows: inout ViewRows) throws {
        try fold(event, into: &payment, rows: &rows, evolving: true)
    }

    /// The fold from a ``FoldEvent``; with `evolving` false it reads and decodes the event exactly as the fold does
    /// (and fails where it fails) but leaves `payment` and `rows` as they are: ``PaymentsReadingFloor``, what a
    /// rebuild costs before any payment is evolved or any row written. Inlined, so that the constant `evolving`
    /// costs the real fold nothing.
    @inline(__always)
    func fold(_ event: FoldEvent, into payment: inout Payment?, rows: inout ViewRows, evolving: Bool) throws {
        guard event.schemaVersion == EventCodec.currentSchemaVersion, let kind = PaymentEventKind(event) else {
            guard evolving else {
                _ = try EventCodec.decodeForState(event.recorded())
                return
            }
            return try fold(event.recorded(), into: &payment, rows: &rows)
        }
        let id = event.streamID
        if kind == .appSwitched {
            guard evolving else { return }
            // Its one field, the note, is evidence only: the payload is not read (`paylog verify` checks it).
            return Payment.evolve(&payment, id: id, AppSwitched(note: ""))
        }
        let at = (event.observedAt ?? event.recordedAt).microseconds
        let routed = !event.declaresTags
        func route(_ kind: StaticString, _ value: String) {
            guard routed else { return }
            var key = kind.withUTF8Buffer { Array($0) }
            key.append(contentsOf: value.utf8)
            let target = TaggedEvent(streamID: id, position: event.position).encoded
            rows.index(target, for: key, in: "routes", position: event.position)
        }
        var reader = ProtoWireReader(try EventCodec.storedPayload(of: event))
        do throws(EventPayloadDecoder.Failure) {
            switch kind {
            case .requested:
                let requested = try EventPayloadDecoder.requested(&reader, evidence: false)
                guard evolving else { return }
                Payment.evolve(&payment, id: id, requested, observedAt: at)
                PaymentsProjection.forEachRoute(of: requested, route)
            case .callbackReceived:
                let (callback, fingerprint) = try EventPayloadDecoder.callbackReceived(
                    &reader, evidence: false, fingerprintingURL: true)
                guard evolving else { return }
                Payment.evolve(&payment, id: id, callback, fingerprint: fingerprint!, observedAt: at)
                PaymentsProjection.forEachRoute(of: callback, route)
            case .offline:
                let offline = try EventPayloadDecoder.offline(&reader)
                guard evolving else { return }
                Payment.evolve(&payment, id: id, offline, observedAt: at)
                PaymentsProjection.forEachRoute(of: offline, route)
            case .reconciled:
                let reconciled = try EventPayloadDecoder.reconciled(&reader, evidence: false)
                guard evolving else { return }
                Payment.evolve(&payment, id: id, reconciled, observedAt: at)
                PaymentsProjection.forEachRoute(of: reconciled, route)
            case .failed:
                let failed = try EventPayloadDecoder.failed(&reader)
                guard evolving else { return }
                Payment.evolve(&payment, id: id, failed, observedAt: at)
            case .appSwitched:
                break
            }
        } catch {
            throw EventCodecError.undecodable(type: event.type, position: event.position, reason: error.reason)
        }
    }

    /// A folder of payments written with the concrete types (``PaymentsFolder``), not the generic default.
    public func makeFolder() -> any StreamFolder {
        PaymentsFolder(self)
    }

    /// A payment's final state, keyed by payment id.
    public func finish(_ payment: Payment, stream streamID: String, rows: inout ViewRows) throws {
        rows.append(for: streamID, in: "payments") { PaymentCodec.encode(payment, into: &$0) }
    }

    /// The stored payment under `key`, or nil.
    static func load(_ key: [UInt8], _ txn: borrowing Transaction, _ databases: ProjectionDatabases) throws -> Payment? {
        // No payment has an empty id, and LMDB refuses an empty key (MDB_BAD_VALSIZE, reported as damage).
        guard !key.isEmpty else { return nil }
        return try txn.withValue(for: key, in: databases["payments"]) { bytes in
            try bytes.map { bytes throws(PaymentCodecError) in
                try PaymentCodec.decode(bytes, id: String(decoding: key, as: UTF8.self))
            }
        }
    }

    /// Calls `body` with each routing key an event makes known, as its kind (`ref:`, `ctx:`, `tx:`) and value.
    static func forEachRoute(of event: PaymentEvent, _ body: (StaticString, String) -> Void) {
        switch event {
        case .requested(let e): forEachRoute(of: e, body)
        case .callbackReceived(let e): forEachRoute(of: e, body)
        case .offline(let e): forEachRoute(of: e, body)
        case .reconciled(let e): forEachRoute(of: e, body)
        case .appSwitched, .failed: break
        }
    }

    /// A request's routing key: its reference.
    static func forEachRoute(of requested: Requested, _ body: (StaticString, String) -> Void) {
        if let v = requested.reference { routable("ref:", v, body) }
    }

    /// A callback's routing keys: its client transaction id and transaction id.
    static func forEachRoute(of callback: CallbackReceived, _ body: (StaticString, String) -> Void) {
        if let v = callback.outcome.clientTransactionID { routable("ctx:", v, body) }
        if let v = callback.outcome.transactionID { routable("tx:", v, body) }
    }

    /// An offline payment's routing key: its client transaction id.
    static func forEachRoute(of offline: Offline, _ body: (StaticString, String) -> Void) {
        routable("ctx:", offline.clientTransactionID, body)
    }

    /// A reconciliation's routing key: the report's transaction id.
    static func forEachRoute(of reconciled: Reconciled, _ body: (StaticString, String) -> Void) {
        routable("tx:", reconciled.transactionID, body)
    }

    /// Calls `body` with the key `kind` + `value` when the store can index it (at most
    /// ``PaylogStore/EventStore/maximumTagBytes`` bytes). A longer one (a provider transaction id of hundreds of
    /// characters: surely not a real id, but observed) routes nothing: declared as a tag, it made the store refuse
    /// the whole append, so the observation could not be recorded at all. The event keeps the value as observed;
    /// only routing by it is lost, and the audit shows it.
    static func routable(_ kind: StaticString, _ value: String, _ body: (StaticString, String) -> Void) {
        guard kind.utf8CodeUnitCount + value.utf8.count <= EventStore.maximumTagBytes else { return }
        body(kind, value)
    }

    /// The payment `id` as the view holds it.
    public static func payment(_ id: String, in store: EventStore) throws -> Payment? {
        try store.readViews { txn, databases in
            try PaymentsProjection.load(Array(id.utf8), txn, databases)
        }
    }

    /// The payment a routing key (`ref:…`, `ctx:…`, `tx:…`) points at: the stream of the last event that made it
    /// known, whether that event declared it as a tag (the store's index) or was recorded before log format 5
    /// (this view's `routes`).
    public static func route(_ key: String, in store: EventStore) throws -> String? {
        try store.readViews { txn, databases in
            try route(key, tagged: store.taggedEvent(key, in: txn), txn, databases)
        }
    }

    /// The payment a routing key points at, read in `txn`, given what the store's tag index says of it.
    static func route(
        _ key: String, tagged: TaggedEvent?, _ txn: borrowing Transaction, _ databases: ProjectionDatabases
    ) throws -> String? {
        let derived = try txn.withValue(for: Array(key.utf8), in: databases["routes"]) { value in
            try value.map { value throws(PaymentCodecError) in
                guard let target = TaggedEvent(encoded: value) else {
                    throw PaymentCodecError(
                        reason: "the route \(key.prefix(64).debugDescription) is not a position and a payment id")
                }
                return target
            }
        }
        switch (tagged, derived) {
        case (nil, nil): return nil
        case (let tagged?, nil): return tagged.streamID
        case (nil, let derived?): return derived.streamID
        case (let tagged?, let derived?): return tagged.position > derived.position ? tagged.streamID : derived.streamID
        }
    }

    /// Calls `body` with every payment in id order, one at a time, in one read transaction: for a pass over all of
    /// them (the analytics) without holding them all in memory, as ``payments(in:status:provider:currency:day:after:requestedFrom:requestedBefore:limit:)``
    /// does.
    public static func forEachPayment(in store: EventStore, _ body: (Payment) throws -> Void) throws {
        try forEachPayment(in: store) { payment in
            try body(payment)
            return true
        }
    }

    /// Calls `body` with every payment in id order that passes the filters, one at a time, in one read transaction,
    /// until `body` returns false: what ``payments(in:status:provider:currency:day:after:requestedFrom:requestedBefore:limit:)``
    /// lists, without holding the list. Keep `body` quick: the read transaction is open until it returns false or the
    /// view ends (`paylog status --json` reads pages of its own instead, and prints each after its transaction).
    /// - Parameters:
    ///   - after: start after this payment id (the cursor of a paged listing).
    ///   - requestedFrom, requestedBefore: only payments first requested at or after / before these times.
    public static func forEachPayment(
        in store: EventStore, status: PaymentStatus? = nil, provider: Provider? = nil, currency: String? = nil,
        day: String? = nil, after: String? = nil, requestedFrom: Timestamp? = nil, requestedBefore: Timestamp? = nil,
        _ body: (Payment) throws -> Bool
    ) throws {
        try store.readViews { txn, databases in
            try txn.withCursor(databases["payments"]) { cursor in
                var found: Bool
                if let after {
                    found = try cursor.move(.atOrAfter, key: Array(after.utf8))
                    if found && cursor.withCurrent({ key, _ in key.elementsEqual(after.utf8) }) {
                        found = try cursor.move(.next)
                    }
                } else {
                    found = try cursor.move(.first)
                }
                while found {
                    let payment = try cursor.withCurrent { key, value in
                        try PaymentCodec.decode(value, id: String(decoding: key, as: UTF8.self))
                    }
                    let requestedAt = payment.firstRequestedAtMicroseconds
                    let paymentDay = day == nil ? nil : requestedAt.map { String(Timestamp(microseconds: $0).rfc3339.prefix(10)) }
                    if (status == nil || payment.status == status) && (provider == nil || payment.provider == provider)
                        && (currency == nil || payment.amount?.currency.code == currency) && (day == nil || paymentDay == day)
                        && (requestedFrom == nil || (requestedAt ?? .min) >= requestedFrom!.microseconds)
                        && (requestedBefore == nil || (requestedAt ?? .max) < requestedBefore!.microseconds)
                    {
                        guard try body(payment) else { return }
                    }
                    found = try cursor.move(.next)
                }
            }
        }
    }

    /// Every payment in id order, optionally filtered.
    /// - Parameters:
    ///   - after: start after this payment id (the cursor of a paged listing).
    ///   - requestedFrom, requestedBefore: only payments first requested at or after / before these times.
    ///   - limit: stop after this many matches.
    public static func payments(
        in store: EventStore, status: PaymentStatus? = nil, provider: Provider? = nil, currency: String? = nil,
        day: String? = nil, after: String? = nil, requestedFrom: Timestamp? = nil, requestedBefore: Timestamp? = nil,
        limit: Int = .max
    ) throws -> [Payment] {
        var result: [Payment] = []
        guard limit > 0 else { return result }
        try forEachPayment(
            in: store, status: status, provider: provider, currency: currency, day: day, after: after,
            requestedFrom: requestedFrom, requestedBefore: requestedBefore
        ) { payment in
            result.append(payment)
            return result.count < limit
        }
        return result
    }
}
