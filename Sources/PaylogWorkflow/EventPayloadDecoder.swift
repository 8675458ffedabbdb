import Foundation
import PaylogDomain
import PaylogStore

/// Decodes the payment event payloads of `Schema/events.proto` (schema version 1) straight into domain
/// events with ``ProtoWireReader``, without SwiftProtobuf's message types: decoding payloads through them was a
/// quarter of a replay (`perf`, `paylog bench --scenario replay`). Writing still uses SwiftProtobuf.
///
/// It reads as protobuf does (see ``ProtoWireReader``), including merging a message field that occurs twice;
/// `EventPayloadDecoderTests` checks it against SwiftProtobuf on random and damaged payloads.
enum EventPayloadDecoder {
    typealias Failure = ProtoWireReader.Failure

    /// The event of `type` in `payload`, or nil when `type` is not a payment event type.
    ///
    /// With `evidence` false, the fields only evidence readers use and ``Payment`` never reads are checked but
    /// not kept (left empty): a request's launch URL, an app switch's note, a callback's field map, reference,
    /// message and routing payment id (so no routing hint), a report line. Such a decoding accepts and refuses
    /// exactly the payloads a full one does (skipped text is still checked to be UTF-8); it is for folding
    /// payments, where those strings were most of the decoding's allocations. `EventPayloadDecoderTests` evolves
    /// payments from both decodings of random payloads and requires them equal, so a ``Payment`` that starts
    /// reading one of these fields fails there.
    static func decode(type: String, payload: Data, evidence: Bool = true) throws(Failure) -> PaymentEvent? {
        guard let kind = PaymentEventKind(typeName: type) else { return nil }
        // `Data.withUnsafeBytes` rethrows untyped errors; a Result keeps the body's typed one.
        let result = payload.withUnsafeBytes { bytes in
            Result { () throws(Failure) -> PaymentEvent in try decode(kind, payload: bytes, evidence: evidence) }
        }
        return try result.get()
    }

    /// Decodes the payload of an event of `kind` from borrowed bytes (a fold's, read in place).
    static func decode(
        _ kind: PaymentEventKind, payload: UnsafeRawBufferPointer, evidence: Bool
    ) throws(Failure) -> PaymentEvent {
        var reader = ProtoWireReader(payload)
        switch kind {
        case .requested: return .requested(try requested(&reader, evidence: evidence))
        case .appSwitched: return .appSwitched(try appSwitched(&reader, evidence: evidence))
        case .callbackReceived: return .callbackReceived(try callbackReceived(&reader, evidence: evidence))
        case .offline: return .offline(try offline(&reader))
        case .reconciled: return .reconciled(try reconciled(&reader, evidence: evidence))
        case .failed: return .failed(try failed(&reader))
        }
    }

    static func requested(_ r: inout ProtoWireReader, evidence: Bool) throws(Failure) -> Requested {
        var launchURL = ""
        var provider: Provider?
        var providerName = ""
        var amount: (minor: Int64, currency: String)?
        var reference: String?
        var apiVersion: String?
        var appVersion: String?
        var builtByPaylog = false
        while let (field, wireType) = try r.nextField() {
            switch (field, wireType) {
            case (1, 2): if evidence { launchURL = try r.string("launch_url") } else { try r.skipString("launch_url") }
            case (2, 2):
                // The name is kept as text only when it is not a provider's: it then names the error.
                let bytes = try r.utf8Bytes("provider")
                provider = Provider(utf8: bytes)
                providerName = provider == nil ? String(decoding: bytes, as: UTF8.self) : ""
            case (3, 2): amount = try money(&r, merging: amount)
            case (4, 2): reference = try r.string("reference")
            case (5, 2): apiVersion = try r.string("api_version")
            case (6, 2): appVersion = try r.string("app_version")
            case (7, 0): builtByPaylog = try r.bool()
            default: try r.skip(wireType: wireType, field: field)
            }
        }
        guard let provider else { throw Failure(reason: "unknown provider \(providerName)") }
        return Requested(
            launchURL: launchURL, provider: provider, amount: try amount.map(domainMoney), reference: reference,
            apiVersion: apiVersion, appVersion: appVersion, builtByPaylog: builtByPaylog)
    }

    private static func appSwitched(_ r: inout ProtoWireReader, evidence: Bool) throws(Failure) -> AppSwitched {
        var note = ""
        while let (field, wireType) = try r.nextField() {
            if (field, wireType) != (1, 2) {
                try r.skip(wireType: wireType, field: field)
            } else if evidence {
                note = try r.string("note")
            } else {
                try r.skipString("note")
            }
        }
        return AppSwitched(note: note)
    }

    static func callbackReceived(_ r: inout ProtoWireReader, evidence: Bool) throws(Failure) -> CallbackReceived {
        try callbackReceived(&r, evidence: evidence, fingerprintingURL: false).callback
    }

    /// A callback decoded as ``callbackReceived(_:evidence:)`` does; with `fingerprintingURL`, its URL is checked to
    /// be UTF-8 and hashed where it lies into the returned fingerprint, and left out of the callback (empty): what a
    /// rebuild's fold keeps of it, without building a string of about 200 bytes per callback.
    static func callbackReceived(
        _ r: inout ProtoWireReader, evidence: Bool, fingerprintingURL: Bool
    ) throws(Failure) -> (callback: CallbackReceived, fingerprint: CallbackFingerprint?) {
        var callbackURL = ""
        var urlBytes = UnsafeRawBufferPointer(start: nil, count: 0)
        var outcome = CallbackOutcomeFields(keepsFields: evidence)
        var isRepeat = false
        var isLate = false
        var contradictsEarlier = false
        var answersEarlierAttempt = false
        var isRedelivery = false
        while let (field, wireType) = try r.nextField() {
            switch (field, wireType) {
            case (1, 2) where fingerprintingURL: urlBytes = try r.utf8Bytes("callback_url")
            case (1, 2): callbackURL = try r.string("callback_url")
            case (2, 2):
                var inner = ProtoWireReader(try r.lengthDelimited())
                try outcome.merge(&inner)
            case (3, 0): isRepeat = try r.bool()
            case (4, 0): isLate = try r.bool()
            case (5, 0): contradictsEarlier = try r.bool()
            case (6, 0): answersEarlierAttempt = try r.bool()
            case (7, 0): isRedelivery = try r.bool()
            default: try r.skip(wireType: wireType, field: field)
            }
        }
        let callback = CallbackReceived(
            callbackURL: callbackURL, outcome: try outcome.outcome(rawURL: callbackURL), isRepeat: isRepeat, isLate: isLate,
            contradictsEarlier: contradictsEarlier, answersEarlierAttempt: answersEarlierAttempt, isRedelivery: isRedelivery)
        return (callback, fingerprintingURL ? CallbackFingerprint(rawURLBytes: urlBytes) : nil)
    }

    static func offline(_ r: inout ProtoWireReader) throws(Failure) -> Offline {
        var clientTransactionID = ""
        var expiresAt: Int64?
        while let (field, wireType) = try r.nextField() {
            switch (field, wireType) {
            case (1, 2): clientTransactionID = try r.string("client_transaction_id")
            case (2, 0): expiresAt = Int64(bitPattern: try r.varint())
            default: try r.skip(wireType: wireType, field: field)
            }
        }
        return Offline(clientTransactionID: clientTransactionID, expiresAtMicroseconds: expiresAt)
    }

    static func reconciled(_ r: inout ProtoWireReader, evidence: Bool) throws(Failure) -> Reconciled {
        var reportLine = ""
        var transactionID = ""
        var matchedBy = ""
        var amount: (minor: Int64, currency: String)?
        var amountMismatch = false
        while let (field, wireType) = try r.nextField() {
            switch (field, wireType) {
            case (1, 2): if evidence { reportLine = try r.string("report_line") } else { try r.skipString("report_line") }
            case (2, 2): transactionID = try r.string("transaction_id")
            case (3, 2): matchedBy = try r.string("matched_by")
            case (4, 2): amount = try money(&r, merging: amount)
            case (5, 0): amountMismatch = try r.bool()
            default: try r.skip(wireType: wireType, field: field)
            }
        }
        return Reconciled(
            reportLine: reportLine, transactionID: transactionID, matchedBy: matchedBy, amount: try amount.map(domainMoney),
            amountMismatch: amountMismatch)
    }

    static func failed(_ r: inout ProtoWireReader) throws(Failure) -> Failed {
        var sourceName = ""
        var errorCode: String?
        var reason = ""
        var observedBeforeSuccess = false
        var repeatsFailure = false
        while let (field, wireType) = try r.nextField() {
            switch (field, wireType) {
            case (1, 2): sourceName = try r.string("source")
            case (2, 2): errorCode = try r.string("error_code")
            case (3, 2): reason = try r.string("reason")
            case (4, 0): observedBeforeSuccess = try r.bool()
            case (5, 0): repeatsFailure = try r.bool()
            default: try r.skip(wireType: wireType, field: field)
            }
        }
        guard let source = FailureSource(rawValue: sourceName) else { throw Failure(reason: "unknown failure source \(sourceName)") }
        return Failed(
            source: source, errorCode: errorCode, reason: reason, observedBeforeSuccess: observedBeforeSuccess,
            repeatsFailure: repeatsFailure)
    }

    /// A `Money` message, merged into an earlier occurrence as protobuf merges repeated message fields.
    private static func money(
        _ r: inout ProtoWireReader, merging earlier: (minor: Int64, currency: String)?
    ) throws(Failure) -> (minor: Int64, currency: String) {
        var value = earlier ?? (0, "")
        var inner = ProtoWireReader(try r.lengthDelimited())
        while let (field, wireType) = try inner.nextField() {
            switch (field, wireType) {
            case (1, 0): value.minor = Int64(bitPattern: try inner.varint())
            case (2, 2): value.currency = try inner.string("currency")
            default: try inner.skip(wireType: wireType, field: field)
            }
        }
        return value
    }

    private static func domainMoney(_ value: (minor: Int64, currency: String)) throws(Failure) -> Money {
        do {
            return Money(minorUnits: value.minor, currency: try CurrencyCode(value.currency))
        } catch {
            throw Failure(reason: error.description)
        }
    }
}
