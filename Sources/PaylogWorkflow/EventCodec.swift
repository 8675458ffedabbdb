import Foundation
import PaylogDomain
import PaylogStore
import SwiftProtobuf

/// Encodes payment events into log payloads (protobuf, `Schema/events.proto`) and decodes them back,
/// upcasting older schema versions and refusing newer ones.
public enum EventCodec {
    /// The payload schema version this build writes for every event type.
    public static let currentSchemaVersion: UInt32 = 1

    /// The `NewEvent` for `event`, with the given envelope metadata; it declares the event's routing keys as its
    /// tags (``PaymentEvent/routingKeys``), which the store indexes.
    public static func encode(
        _ event: PaymentEvent, id: UUID, observedAt: Timestamp?, correlationID: String = "", causationID: String = "",
        actor: String
    ) throws -> NewEvent {
        NewEvent(
            id: id, type: event.typeName, schemaVersion: currentSchemaVersion, payload: try payload(event),
            observedAt: observedAt, correlationID: correlationID, causationID: causationID, actor: actor,
            tags: event.routingKeys)
    }

    /// Map fields (a callback's query `fields`) in key order: without it SwiftProtobuf writes them in the
    /// dictionary's iteration order, which differs between processes, so the same observation recorded twice
    /// would not give the same bytes.
    static let deterministic: BinaryEncodingOptions = {
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        return options
    }()

    /// The payload bytes of `event`, written field by field (``EventPayloadEncoder``).
    public static func payload(_ event: PaymentEvent) throws -> Data {
        EventPayloadEncoder.payload(event)
    }

    /// The payload bytes of `event` through SwiftProtobuf's generated messages: the reference
    /// ``EventPayloadEncoder`` is held to, byte for byte, by the tests.
    static func referencePayload(_ event: PaymentEvent) throws -> Data {
        switch event {
        case .requested(let e):
            var m = Paylog_Events_V1_Requested()
            m.launchURL = e.launchURL
            m.provider = e.provider.rawValue
            if let amount = e.amount { m.amount = money(amount) }
            if let v = e.reference { m.reference = v }
            if let v = e.apiVersion { m.apiVersion = v }
            if let v = e.appVersion { m.appVersion = v }
            m.builtByPaylog = e.builtByPaylog
            return try m.serializedData(options: EventCodec.deterministic)
        case .appSwitched(let e):
            var m = Paylog_Events_V1_AppSwitched()
            m.note = e.note
            return try m.serializedData(options: EventCodec.deterministic)
        case .callbackReceived(let e):
            var m = Paylog_Events_V1_CallbackReceived()
            m.callbackURL = e.callbackURL
            m.outcome = outcome(e.outcome)
            m.isRepeat = e.isRepeat
            m.isLate = e.isLate
            m.contradictsEarlier = e.contradictsEarlier
            m.answersEarlierAttempt = e.answersEarlierAttempt
            m.isRedelivery = e.isRedelivery
            return try m.serializedData(options: EventCodec.deterministic)
        case .offline(let e):
            var m = Paylog_Events_V1_Offline()
            m.clientTransactionID = e.clientTransactionID
            if let v = e.expiresAtMicroseconds { m.expiresAtUs = v }
            return try m.serializedData(options: EventCodec.deterministic)
        case .reconciled(let e):
            var m = Paylog_Events_V1_Reconciled()
            m.reportLine = e.reportLine
            m.transactionID = e.transactionID
            m.matchedBy = e.matchedBy
            if let amount = e.amount { m.amount = money(amount) }
            m.amountMismatch = e.amountMismatch
            return try m.serializedData(options: EventCodec.deterministic)
        case .failed(let e):
            var m = Paylog_Events_V1_Failed()
            m.source = e.source.rawValue
            if let v = e.errorCode { m.errorCode = v }
            m.reason = e.reason
            m.observedBeforeSuccess = e.observedBeforeSuccess
            m.repeatsFailure = e.repeatsFailure
            return try m.serializedData(options: EventCodec.deterministic)
        }
    }

    /// Decodes a recorded event into a payment event.
    public static func decode(_ event: RecordedEvent) throws(EventCodecError) -> PaymentEvent {
        try decode(type: event.type, schemaVersion: event.schemaVersion, payload: payload(of: event), position: event.position)
    }

    /// The payload bytes of `event` (decompressed by the store when it keeps them compressed).
    private static func payload(of event: RecordedEvent) throws(EventCodecError) -> Data {
        do {
            return try event.payload
        } catch {
            throw .undecodable(type: event.type, position: event.position, reason: error.description)
        }
    }

    /// Decodes a recorded event for folding a ``Payment``: without the evidence-only strings (launch URL,
    /// app-switch note, callback field map, report line), which are left empty. It accepts and refuses what
    /// ``decode(_:)`` does (see ``EventPayloadDecoder/decode(type:payload:evidence:)``).
    static func decodeForState(_ event: RecordedEvent) throws(EventCodecError) -> PaymentEvent {
        try decode(
            type: event.type, schemaVersion: event.schemaVersion, payload: payload(of: event), position: event.position,
            evidence: false)
    }

    /// The payload of an event a rebuild folds, read in place (decompressed into the fold's buffer), for
    /// ``PaymentsProjection``'s fold to decode for state; a damaged compressed payload is named as
    /// ``decodeForState(_:)`` names an undecodable one.
    static func storedPayload(of event: FoldEvent) throws(EventCodecError) -> UnsafeRawBufferPointer {
        do {
            return try event.payload()
        } catch {
            throw .undecodable(type: event.type, position: event.position, reason: error.description)
        }
    }

    /// Decodes a payload of `type` at `schemaVersion`, upcasting older versions first with `upcasters`; with
    /// `evidence` false, see ``decodeForState(_:)``.
    public static func decode(
        type: String, schemaVersion: UInt32, payload original: Data, position: UInt64,
        upcasters: [Upcaster] = Upcaster.registered
    ) throws(EventCodecError) -> PaymentEvent {
        try decode(type: type, schemaVersion: schemaVersion, payload: original, position: position, upcasters: upcasters, evidence: true)
    }

    private static func decode(
        type: String, schemaVersion: UInt32, payload original: Data, position: UInt64,
        upcasters: [Upcaster] = Upcaster.registered, evidence: Bool
    ) throws(EventCodecError) -> PaymentEvent {
        guard schemaVersion <= currentSchemaVersion else {
            throw .newerSchema(type: type, version: schemaVersion, supported: currentSchemaVersion, position: position)
        }
        func fail(_ reason: String) -> EventCodecError { .undecodable(type: type, position: position, reason: reason) }
        var payload = original
        var version = schemaVersion
        while version < currentSchemaVersion {
            guard let step = upcasters.first(where: { $0.type == type && $0.fromVersion == version }) else {
                throw fail("no upcaster from schema \(version) to \(version + 1)")
            }
            do { payload = try step.upcast(payload) } catch { throw fail("upcasting from schema \(version) failed: \(error)") }
            version += 1
        }
        let event: PaymentEvent?
        do {
            event = try EventPayloadDecoder.decode(type: type, payload: payload, evidence: evidence)
        } catch {
            throw fail(error.reason)
        }
        guard let event else { throw .unknownType(type, position: position) }
        return event
    }

    static func money(_ money: Money) -> Paylog_Events_V1_Money {
        var m = Paylog_Events_V1_Money()
        m.minorUnits = money.minorUnits
        m.currency = money.currency.code
        return m
    }

    static func outcome(_ o: CallbackOutcome) -> Paylog_Events_V1_CallbackOutcome {
        var m = Paylog_Events_V1_CallbackOutcome()
        m.provider = o.provider.rawValue
        switch o.status {
        case .success: m.status = "success"
        case .failure: m.status = "failure"
        case .invalid(let raw):
            m.status = "invalid"
            m.invalidStatus = raw
        }
        if let v = o.transactionID { m.transactionID = v }
        if let v = o.clientTransactionID { m.clientTransactionID = v }
        if let v = o.reference { m.reference = v }
        if let v = o.errorCode { m.errorCode = v }
        if let v = o.message { m.message = v }
        m.isOffline = o.isOffline
        if case .paymentID(let id)? = o.routingHint { m.routingPaymentID = id.rawValue }
        m.fields = o.fields
        return m
    }
}
