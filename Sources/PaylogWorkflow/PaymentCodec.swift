import Foundation
import PaylogDomain
import PaylogStore

/// The status view's compact binary encoding of a ``Payment`` (its layout since view version 15; version 5 replaced
/// sorted-key JSON).
///
/// Every event a rebuild applies loads its payment, evolves it and stores it again, so this encoding is in the
/// inner loop of `paylog replay` and `paylog rebuild-views`: JSON's decode and encode were 77 % of a replay
/// (`perf`, `paylog bench --scenario replay`). It is deterministic (fields in one fixed order), so rebuilt and
/// live views compare byte for byte. The layout, after the format byte `0x02`:
///
/// 1. presence bits (varint): which optional fields follow; then the boolean flags (varint);
/// 2. `provider`, `status` as length-prefixed UTF-8 (enum raw values, so reordering cases breaks nothing);
///    the payment id is not repeated: it is the row's key;
/// 3. `version` (varint);
/// 4. the present optionals in declaration order: amount (zigzag minor units, currency code), strings
///    length-prefixed, times zigzag microseconds (the first success's, view version 15, after the first request's,
///    only when it is not the first callback's, which it almost always is: a flag says there is one);
/// 5. `references`: a count, then each length-prefixed; `callbackFingerprints`: a count, then each fingerprint as
///    32 length-prefixed bytes; `laterReportedCharges` (view version 13): a count, then each as a charge (below);
///    `requestedProviders`: a varint of one bit per provider (``ProviderSet``; since view version 13);
///    `failedAttempts` (view version 15), when not 0, a varint of one bit per failed attempt; `failedProviders`
///    (view version 19), when not empty, a varint of one bit per provider; `failedBeforeSuccessAt` (view version 20),
///    when there is one, zigzag microseconds.
///
/// The first charge (view version 13) is written among the texts only when it differs from the client transaction
/// id, else the transaction id, which it almost always is; a flag says there is one. Likewise the first reported
/// charge, after it, only when it is not the payment's transaction id with its requested amount. A reported charge
/// is its transaction id (length-prefixed), then 0, or 1 and the amount (zigzag minor units, currency code).
///
/// Format `0x01` (view version 5) also held the id and every callback's raw URL; a store opened with an older
/// view rebuilds it from the log (the view version changed), so no row of that format is ever read.
/// The view is not evidence and is rebuildable: change the layout, bump ``PaymentsProjection/version``.
enum PaymentCodec {
    typealias Failure = ProtoWireReader.Failure

    static let formatByte: UInt8 = 2

    /// Bits of the presence varint, one per optional field.
    private enum Present {
        static let amount: UInt64 = 1 << 0
        static let apiVersion: UInt64 = 1 << 1
        static let appVersion: UInt64 = 1 << 2
        static let transactionID: UInt64 = 1 << 3
        static let clientTransactionID: UInt64 = 1 << 4
        static let errorCode: UInt64 = 1 << 5
        static let failureReason: UInt64 = 1 << 6
        static let lastCallbackSucceeded: UInt64 = 1 << 7
        static let offlineExpiresAt: UInt64 = 1 << 8
        static let firstCallbackAt: UInt64 = 1 << 9
        static let offlineAt: UInt64 = 1 << 10
        static let reconciledAt: UInt64 = 1 << 11
        static let firstRequestedAt: UInt64 = 1 << 12
        /// The first charge, written only when it is not the payment's client transaction id, else transaction id
        /// (as it almost always is): ``Flag/hasFirstCharge`` says whether there is one.
        static let firstCharge: UInt64 = 1 << 13
        /// The first reported charge, written only when it is not the transaction id with the requested amount.
        static let firstReportedCharge: UInt64 = 1 << 14
        /// The first success's time, written only when it is not the first callback's (as it almost always is):
        /// ``Flag/hasFirstSuccessAt`` says whether there is one.
        static let firstSuccessAt: UInt64 = 1 << 15
        /// ``Payment/failedAttempts``, written only when some attempt failed.
        static let failedAttempts: UInt64 = 1 << 16
        /// ``Payment/failedProviders``, written only when some attempt failed (view version 19).
        static let failedProviders: UInt64 = 1 << 17
        /// ``Payment/failedBeforeSuccessAtMicroseconds`` (view version 20).
        static let failedBeforeSuccessAt: UInt64 = 1 << 18
        static let all: UInt64 = (1 << 19) - 1
    }

    /// Bits of the flags varint.
    private enum Flag {
        static let lastCallbackSucceeded: UInt64 = 1 << 0
        static let hadLateCallback: UInt64 = 1 << 1
        static let hadContradictingCallbacks: UInt64 = 1 << 2
        static let hadAmountMismatch: UInt64 = 1 << 3
        static let hadRequestAfterSuccess: UInt64 = 1 << 4
        static let sawAppSwitch: UInt64 = 1 << 5
        static let sawCallback: UInt64 = 1 << 6
        static let sawSuccess: UInt64 = 1 << 7
        static let wasOffline: UInt64 = 1 << 8
        static let hadMultipleCharges: UInt64 = 1 << 9
        static let reconciledWhileFailed: UInt64 = 1 << 10
        static let hasFirstCharge: UInt64 = 1 << 11
        static let hasFirstReportedCharge: UInt64 = 1 << 12
        static let hasFirstSuccessAt: UInt64 = 1 << 13
        static let all: UInt64 = (1 << 14) - 1
    }

    /// The bytes of `payment`.
    static func encode(_ p: Payment) -> [UInt8] {
        var w = ProtoWireWriter(
            capacity: 64 + p.references.count * 24 + p.callbackFingerprints.count * 33 + p.laterReportedCharges.count * 32)
        encode(p, into: &w)
        return w.bytes
    }

    /// Writes the bytes of `payment` after what `w` holds (a rebuild writes them straight into its rows:
    /// ``ViewRows/append(for:in:value:)``).
    static func encode(_ p: Payment, into w: inout ProtoWireWriter) {
        var present: UInt64 = 0
        func mark(_ value: (some Any)?, _ bit: UInt64) { if value != nil { present |= bit } }
        mark(p.amount, Present.amount)
        mark(p.apiVersion, Present.apiVersion)
        mark(p.appVersion, Present.appVersion)
        mark(p.transactionID, Present.transactionID)
        mark(p.clientTransactionID, Present.clientTransactionID)
        mark(p.errorCode, Present.errorCode)
        mark(p.failureReason, Present.failureReason)
        mark(p.lastCallbackSucceeded, Present.lastCallbackSucceeded)
        mark(p.offlineExpiresAtMicroseconds, Present.offlineExpiresAt)
        mark(p.firstCallbackAtMicroseconds, Present.firstCallbackAt)
        mark(p.offlineAtMicroseconds, Present.offlineAt)
        mark(p.reconciledAtMicroseconds, Present.reconciledAt)
        mark(p.firstRequestedAtMicroseconds, Present.firstRequestedAt)
        let storedSuccessAt = p.firstSuccessAtMicroseconds == p.firstCallbackAtMicroseconds ? nil : p.firstSuccessAtMicroseconds
        mark(storedSuccessAt, Present.firstSuccessAt)
        if p.failedAttempts != 0 { present |= Present.failedAttempts }
        if !p.failedProviders.isEmpty { present |= Present.failedProviders }
        mark(p.failedBeforeSuccessAtMicroseconds, Present.failedBeforeSuccessAt)
        // Left out only when derivation gives the same bytes back (Swift's `==` would take canonically equivalent
        // text for equal, and the decoded row would then differ from the payment folded in memory).
        let storedCharge = PaymentCodec.sameBytes(p.firstCharge, PaymentCodec.derivedCharge(p)) ? nil : p.firstCharge
        mark(storedCharge, Present.firstCharge)
        let storedReported = p.firstReportedCharge == PaymentCodec.derivedReportedCharge(p) ? nil : p.firstReportedCharge
        mark(storedReported, Present.firstReportedCharge)
        var flags: UInt64 = 0
        func flag(_ value: Bool, _ bit: UInt64) { if value { flags |= bit } }
        flag(p.lastCallbackSucceeded == true, Flag.lastCallbackSucceeded)
        flag(p.hadLateCallback, Flag.hadLateCallback)
        flag(p.hadContradictingCallbacks, Flag.hadContradictingCallbacks)
        flag(p.hadAmountMismatch, Flag.hadAmountMismatch)
        flag(p.hadRequestAfterSuccess, Flag.hadRequestAfterSuccess)
        flag(p.sawAppSwitch, Flag.sawAppSwitch)
        flag(p.sawCallback, Flag.sawCallback)
        flag(p.sawSuccess, Flag.sawSuccess)
        flag(p.wasOffline, Flag.wasOffline)
        flag(p.hadMultipleCharges, Flag.hadMultipleCharges)
        flag(p.reconciledWhileFailed, Flag.reconciledWhileFailed)
        flag(p.firstCharge != nil, Flag.hasFirstCharge)
        flag(p.firstReportedCharge != nil, Flag.hasFirstReportedCharge)
        flag(p.firstSuccessAtMicroseconds != nil, Flag.hasFirstSuccessAt)

        w.byte(formatByte)
        w.varint(present)
        w.varint(flags)
        w.string(p.provider.rawValue)
        w.string(p.status.rawValue)
        w.varint(p.version)
        if let amount = p.amount {
            w.signed(amount.minorUnits)
            w.string(amount.currency.code)
        }
        // One field after the other, not a loop over an array of them: the array was an allocation per payment.
        func text(_ value: String?) { if let value { w.string(value) } }
        text(p.apiVersion)
        text(p.appVersion)
        text(p.transactionID)
        text(p.clientTransactionID)
        text(p.errorCode)
        text(p.failureReason)
        func time(_ value: Int64?) { if let value { w.signed(value) } }
        time(p.offlineExpiresAtMicroseconds)
        time(p.firstCallbackAtMicroseconds)
        time(p.offlineAtMicroseconds)
        time(p.reconciledAtMicroseconds)
        time(p.firstRequestedAtMicroseconds)
        time(storedSuccessAt)
        text(storedCharge)
        func charge(_ value: ReportedCharge) {
            w.string(value.transactionID)
            if let amount = value.amount {
                w.varint(1)
                w.signed(amount.minorUnits)
                w.string(amount.currency.code)
            } else {
                w.varint(0)
            }
        }
        if let storedReported { charge(storedReported) }
        w.varint(UInt64(p.references.count))
        for reference in p.references { w.string(reference) }
        func fingerprints(_ list: [CallbackFingerprint]) {
            w.varint(UInt64(list.count))
            for fingerprint in list {
                w.varint(UInt64(CallbackFingerprint.byteCount))
                fingerprint.withUnsafeBytes { w.raw($0) }
            }
        }
        fingerprints(p.callbackFingerprints)
        w.varint(UInt64(p.laterReportedCharges.count))
        for later in p.laterReportedCharges { charge(later) }
        w.varint(UInt64(p.requestedProviders.rawValue))
        if p.failedAttempts != 0 { w.varint(p.failedAttempts) }
        if !p.failedProviders.isEmpty { w.varint(UInt64(p.failedProviders.rawValue)) }
        time(p.failedBeforeSuccessAtMicroseconds)
    }

    /// The payment `id` encoded in `bytes` (the row's value; `id` is its key).
    static func decode(_ bytes: UnsafeRawBufferPointer, id: String) throws(PaymentCodecError) -> Payment {
        var r = ProtoWireReader(bytes)
        do {
            return try decode(&r, id: id)
        } catch {
            throw PaymentCodecError(reason: error.reason)
        }
    }

    /// Reads the layout with the protobuf reader's primitives (varints, zigzag, length-prefixed UTF-8).
    private static func decode(_ r: inout ProtoWireReader, id: String) throws(Failure) -> Payment {
        let format = try r.byte()
        guard format == formatByte else {
            throw Failure(reason: "unknown format byte \(format) (a row from a view before version 6?)")
        }
        let present = try r.varint()
        let flags = try r.varint()
        guard present & ~Present.all == 0, flags & ~Flag.all == 0 else {
            throw Failure(reason: "unknown presence or flag bits")
        }
        let providerName = try r.string("provider")
        let statusName = try r.string("status")
        guard let provider = Provider(rawValue: providerName) else {
            throw Failure(reason: "unknown provider \"\(providerName)\"")
        }
        guard let status = PaymentStatus(rawValue: statusName) else {
            throw Failure(reason: "unknown status \"\(statusName)\"")
        }
        var p = Payment(id: id, provider: provider)
        p.status = status
        p.version = try r.varint()
        func has(_ bit: UInt64) -> Bool { present & bit != 0 }
        if has(Present.amount) {
            let minorUnits = try r.signed()
            let code = try r.string("currency")
            do {
                p.amount = Money(minorUnits: minorUnits, currency: try CurrencyCode(code))
            } catch {
                throw Failure(reason: "invalid currency code \"\(code)\"")
            }
        }
        func text(_ bit: UInt64) throws(Failure) -> String? { has(bit) ? try r.string("text") : nil }
        p.apiVersion = try text(Present.apiVersion)
        p.appVersion = try text(Present.appVersion)
        p.transactionID = try text(Present.transactionID)
        p.clientTransactionID = try text(Present.clientTransactionID)
        p.errorCode = try text(Present.errorCode)
        p.failureReason = try text(Present.failureReason)
        func time(_ bit: UInt64) throws(Failure) -> Int64? { has(bit) ? try r.signed() : nil }
        p.offlineExpiresAtMicroseconds = try time(Present.offlineExpiresAt)
        p.firstCallbackAtMicroseconds = try time(Present.firstCallbackAt)
        p.offlineAtMicroseconds = try time(Present.offlineAt)
        p.reconciledAtMicroseconds = try time(Present.reconciledAt)
        p.firstRequestedAtMicroseconds = try time(Present.firstRequestedAt)
        let storedSuccessAt = try time(Present.firstSuccessAt)
        let storedCharge = try text(Present.firstCharge)
        let storedReported = has(Present.firstReportedCharge) ? try reportedCharge(&r) : nil
        p.references = try list(&r)
        p.callbackFingerprints = try fingerprints(&r)
        let laterCount = try r.varint()
        // Each takes at least two bytes, so a count beyond the bytes left is damage, not a huge list.
        p.laterReportedCharges.reserveCapacity(Int(min(laterCount, 1024)))
        for _ in 0..<laterCount { p.laterReportedCharges.append(try reportedCharge(&r)) }
        let providerBits = try r.varint()
        guard providerBits <= UInt64(UInt8.max), let providers = ProviderSet(rawValue: UInt8(providerBits)) else {
            throw Failure(reason: "unknown provider bits \(providerBits)")
        }
        p.requestedProviders = providers
        if has(Present.failedAttempts) { p.failedAttempts = try r.varint() }
        if has(Present.failedProviders) {
            let bits = try r.varint()
            guard bits != 0, bits <= UInt64(UInt8.max), let failed = ProviderSet(rawValue: UInt8(bits)) else {
                throw Failure(reason: "unknown failed-provider bits \(bits)")
            }
            p.failedProviders = failed
        }
        p.failedBeforeSuccessAtMicroseconds = try time(Present.failedBeforeSuccessAt)
        p.lastCallbackSucceeded = has(Present.lastCallbackSucceeded) ? flags & Flag.lastCallbackSucceeded != 0 : nil
        p.hadLateCallback = flags & Flag.hadLateCallback != 0
        p.hadContradictingCallbacks = flags & Flag.hadContradictingCallbacks != 0
        p.hadAmountMismatch = flags & Flag.hadAmountMismatch != 0
        p.hadRequestAfterSuccess = flags & Flag.hadRequestAfterSuccess != 0
        p.sawAppSwitch = flags & Flag.sawAppSwitch != 0
        p.sawCallback = flags & Flag.sawCallback != 0
        p.sawSuccess = flags & Flag.sawSuccess != 0
        p.wasOffline = flags & Flag.wasOffline != 0
        p.hadMultipleCharges = flags & Flag.hadMultipleCharges != 0
        p.reconciledWhileFailed = flags & Flag.reconciledWhileFailed != 0
        if flags & Flag.hasFirstSuccessAt != 0 {
            guard let at = storedSuccessAt ?? p.firstCallbackAtMicroseconds else {
                throw Failure(reason: "a first success is flagged but neither written nor derivable")
            }
            p.firstSuccessAtMicroseconds = at
        }
        if flags & Flag.hasFirstCharge != 0 { p.firstCharge = storedCharge ?? PaymentCodec.derivedCharge(p) }
        if flags & Flag.hasFirstReportedCharge != 0 {
            guard let first = storedReported ?? PaymentCodec.derivedReportedCharge(p) else {
                throw Failure(reason: "a reported charge is flagged but neither written nor derivable")
            }
            p.firstReportedCharge = first
        }
        guard r.isAtEnd else { throw Failure(reason: "bytes follow the last field") }
        return p
    }

    /// The charge a payment's fields name: its client transaction id, else its transaction id. A payment's first
    /// charge is almost always this one, and is then not written.
    static func derivedCharge(_ p: Payment) -> String? { p.clientTransactionID ?? p.transactionID }

    /// True when both are nil or hold the same UTF-8 bytes.
    ///
    /// Native strings are compared as two spans of bytes (`memcmp`); `elementsEqual` walked the UTF-8 views byte by
    /// byte, about 1 % of a replay's samples, since every payment row written asks it once.
    static func sameBytes(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let a?, let b?):
            let count = a.utf8.count
            guard count == b.utf8.count else { return false }
            guard count > 0 else { return true }
            let contiguous = a.utf8.withContiguousStorageIfAvailable { left in
                b.utf8.withContiguousStorageIfAvailable { right in
                    memcmp(left.baseAddress!, right.baseAddress!, count) == 0
                }
            }
            return (contiguous ?? nil) ?? a.utf8.elementsEqual(b.utf8)
        default: return false
        }
    }

    /// The reported charge a payment's fields name: its transaction id with its requested amount. A payment's first
    /// report line almost always reports this one, and is then not written.
    static func derivedReportedCharge(_ p: Payment) -> ReportedCharge? {
        p.transactionID.map { ReportedCharge(transactionID: $0, amount: p.amount) }
    }

    private static func reportedCharge(_ r: inout ProtoWireReader) throws(Failure) -> ReportedCharge {
        let transactionID = try r.string("reported transaction id")
        switch try r.varint() {
        case 0:
            return ReportedCharge(transactionID: transactionID, amount: nil)
        case 1:
            let minorUnits = try r.signed()
            let code = try r.string("currency")
            do {
                return ReportedCharge(transactionID: transactionID, amount: Money(minorUnits: minorUnits, currency: try CurrencyCode(code)))
            } catch {
                throw Failure(reason: "invalid currency code \"\(code)\"")
            }
        default:
            throw Failure(reason: "a reported charge's amount marker is not 0 or 1")
        }
    }

    private static func fingerprints(_ r: inout ProtoWireReader) throws(Failure) -> [CallbackFingerprint] {
        let count = try r.varint()
        var items: [CallbackFingerprint] = []
        // Each takes 33 bytes, so a count beyond the bytes left is damage, not a huge list.
        items.reserveCapacity(Int(min(count, 1024)))
        for _ in 0..<count {
            guard let fingerprint = CallbackFingerprint(bytes: try r.lengthDelimited()) else {
                throw Failure(reason: "a fingerprint is not \(CallbackFingerprint.byteCount) bytes")
            }
            items.append(fingerprint)
        }
        return items
    }

    private static func list(_ r: inout ProtoWireReader) throws(Failure) -> [String] {
        let count = try r.varint()
        var items: [String] = []
        // Each item takes at least one byte, so a count beyond the bytes left is damage, not a huge list.
        items.reserveCapacity(Int(min(count, 1024)))
        for _ in 0..<count { items.append(try r.string("list item")) }
        return items
    }
}
