import Foundation
import PaylogDomain
import PaylogStore

/// Writes payment events as `Schema/events.proto` payloads field by field, byte for byte what SwiftProtobuf's
/// deterministic serialization of the generated messages writes (`EventPayloadEncoderTests` compares the two on
/// thousands of random events): fields in number order, proto3 scalars left out at their defaults, `optional`
/// fields and sub-messages written whenever set, map entries sorted by key with both key and value written.
///
/// The generated messages cost the writer thread of `paylog ingest` a message value, a size pass and a `Data` per
/// event (about 7 % of its time); this writes into one array sized up front. Decoding stays with
/// ``EventPayloadDecoder``; SwiftProtobuf remains the schema's reference.
enum EventPayloadEncoder {
    /// The payload bytes of `event`.
    static func payload(_ event: PaymentEvent) -> Data {
        var w = ProtoWireWriter(capacity: 64 + evidenceSize(event))
        switch event {
        case .requested(let e):
            w.text(1, e.launchURL)
            w.text(2, e.provider.rawValue)
            if let amount = e.amount { w.message(3) { money(amount, &$0) } }
            if let v = e.reference { w.always(4, v) }
            if let v = e.apiVersion { w.always(5, v) }
            if let v = e.appVersion { w.always(6, v) }
            w.flag(7, e.builtByPaylog)
        case .appSwitched(let e):
            w.text(1, e.note)
        case .callbackReceived(let e):
            w.text(1, e.callbackURL)
            w.message(2) { outcome(e.outcome, &$0) }
            w.flag(3, e.isRepeat)
            w.flag(4, e.isLate)
            w.flag(5, e.contradictsEarlier)
            w.flag(6, e.answersEarlierAttempt)
            w.flag(7, e.isRedelivery)
        case .offline(let e):
            w.text(1, e.clientTransactionID)
            if let v = e.expiresAtMicroseconds { w.integer(2, v, always: true) }
        case .reconciled(let e):
            w.text(1, e.reportLine)
            w.text(2, e.transactionID)
            w.text(3, e.matchedBy)
            if let amount = e.amount { w.message(4) { money(amount, &$0) } }
            w.flag(5, e.amountMismatch)
        case .failed(let e):
            w.text(1, e.source.rawValue)
            if let v = e.errorCode { w.always(2, v) }
            w.text(3, e.reason)
            w.flag(4, e.observedBeforeSuccess)
            w.flag(5, e.repeatsFailure)
        }
        return Data(w.bytes)
    }

    /// `Money`: minor units (int64, two's complement varint) and currency.
    private static func money(_ money: Money, _ w: inout ProtoWireWriter) {
        w.integer(1, money.minorUnits, always: false)
        w.text(2, money.currency.code)
    }

    /// `CallbackOutcome`.
    private static func outcome(_ o: CallbackOutcome, _ w: inout ProtoWireWriter) {
        w.text(1, o.provider.rawValue)
        switch o.status {
        case .success: w.text(2, "success")
        case .failure: w.text(2, "failure")
        case .invalid(let raw):
            w.text(2, "invalid")
            w.text(3, raw)
        }
        if let v = o.transactionID { w.always(4, v) }
        if let v = o.clientTransactionID { w.always(5, v) }
        if let v = o.reference { w.always(6, v) }
        if let v = o.errorCode { w.always(7, v) }
        if let v = o.message { w.always(8, v) }
        w.flag(9, o.isOffline)
        if case .paymentID(let id)? = o.routingHint { w.always(10, id.rawValue) }
        // Map entries in key order (Swift's `<` on String, as SwiftProtobuf's deterministic ordering uses), each a
        // message with its key (1) and value (2) both written.
        for key in o.fields.keys.sorted() {
            let value = o.fields[key]!
            w.message(11) { entry in
                entry.always(1, key)
                entry.always(2, value)
            }
        }
    }

    /// Room for the event's long strings, so the writer rarely grows.
    private static func evidenceSize(_ event: PaymentEvent) -> Int {
        switch event {
        case .requested(let e): e.launchURL.utf8.count
        case .appSwitched(let e): e.note.utf8.count
        case .callbackReceived(let e): 2 * e.callbackURL.utf8.count
        case .offline: 0
        case .reconciled(let e): e.reportLine.utf8.count
        case .failed(let e): e.reason.utf8.count
        }
    }
}
