import Foundation
import PaylogDomain
import PaylogStore
import SwiftProtobuf
import Testing

@testable import PaylogWorkflow

/// The hand-written payload decoder against SwiftProtobuf, the reference for what the wire format means.
@Suite("Event payload decoder")
struct EventPayloadDecoderTests {
    private static func text(_ rng: inout SplitMix64, _ maximum: Int) -> String {
        let alphabet = Array("abcXYZ019-_:/?&=%é€😀")
        return String((0..<Int.random(in: 0...maximum, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
    }

    private static func money(_ rng: inout SplitMix64) -> Paylog_Events_V1_Money {
        var m = Paylog_Events_V1_Money()
        m.minorUnits = Int64.random(in: -5...100_000, using: &rng)
        m.currency = ["USD", "EUR", "JPY", "usd", ""].randomElement(using: &rng)!
        return m
    }

    /// A random payload of a random type: (type name, bytes).
    private static func randomPayload(_ rng: inout SplitMix64) throws -> (String, [UInt8]) {
        func maybe(_ body: (inout SplitMix64) -> Void) { if Bool.random(using: &rng) { body(&rng) } }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            var m = Paylog_Events_V1_Requested()
            m.launchURL = "square-commerce-v1://payment/create?data=" + text(&rng, 120)
            m.provider = ["square", "sumup", "izettle", "paypal", "Square"].randomElement(using: &rng)!
            maybe { m.amount = money(&$0) }
            maybe { m.reference = text(&$0, 20) }
            maybe { m.apiVersion = text(&$0, 4) }
            maybe { m.appVersion = text(&$0, 6) }
            m.builtByPaylog = Bool.random(using: &rng)
            return ("Requested", try m.serializedBytes())
        case 1:
            var m = Paylog_Events_V1_AppSwitched()
            m.note = text(&rng, 30)
            return ("AppSwitched", try m.serializedBytes())
        case 2:
            var o = Paylog_Events_V1_CallbackOutcome()
            o.provider = ["square", "sumup", "izettle", "", "sumuP"].randomElement(using: &rng)!
            o.status = ["success", "failure", "invalid", "weird", "Success"].randomElement(using: &rng)!
            o.invalidStatus = text(&rng, 8)
            maybe { o.transactionID = text(&$0, 12) }
            maybe { o.clientTransactionID = text(&$0, 12) }
            maybe { o.reference = text(&$0, 12) }
            maybe { o.errorCode = text(&$0, 12) }
            maybe { o.message = text(&$0, 30) }
            o.isOffline = Bool.random(using: &rng)
            maybe { o.routingPaymentID = ["pay-1", "", "bad id with spaces", text(&$0, 10)].randomElement(using: &$0)! }
            for _ in 0..<Int.random(in: 0...4, using: &rng) { o.fields[text(&rng, 6)] = text(&rng, 10) }
            var m = Paylog_Events_V1_CallbackReceived()
            m.callbackURL = "myshop://cb?" + text(&rng, 100)
            m.outcome = o
            m.isRepeat = Bool.random(using: &rng)
            m.isLate = Bool.random(using: &rng)
            m.contradictsEarlier = Bool.random(using: &rng)
            m.answersEarlierAttempt = Bool.random(using: &rng)
            m.isRedelivery = Int.random(in: 0..<4, using: &rng) == 0
            return ("CallbackReceived", try m.serializedBytes())
        case 3:
            var m = Paylog_Events_V1_Offline()
            m.clientTransactionID = text(&rng, 12)
            maybe { m.expiresAtUs = Int64.random(in: .min ... .max, using: &$0) }
            return ("Offline", try m.serializedBytes())
        case 4:
            var m = Paylog_Events_V1_Reconciled()
            m.reportLine = text(&rng, 80)
            m.transactionID = text(&rng, 12)
            m.matchedBy = ["client_transaction_id", "reference"].randomElement(using: &rng)!
            maybe { m.amount = money(&$0) }
            m.amountMismatch = Bool.random(using: &rng)
            return ("Reconciled", try m.serializedBytes())
        default:
            var m = Paylog_Events_V1_Failed()
            m.source = ["provider", "operator", "expiry", "gremlins"].randomElement(using: &rng)!
            maybe { m.errorCode = text(&$0, 12) }
            m.reason = text(&rng, 30)
            m.observedBeforeSuccess = Int.random(in: 0..<4, using: &rng) == 0
            m.repeatsFailure = Int.random(in: 0..<4, using: &rng) == 0
            return ("Failed", try m.serializedBytes())
        }
    }

    private static func domainMoney(_ m: Paylog_Events_V1_Money) throws -> Money {
        Money(minorUnits: m.minorUnits, currency: try CurrencyCode(m.currency))
    }

    /// The domain event SwiftProtobuf's reading of `bytes` means (how EventCodec decoded before), or nil.
    private static func reference(type: String, _ bytes: [UInt8]) -> PaymentEvent? {
        try? {
            switch type {
            case "Requested":
                let m = try Paylog_Events_V1_Requested(serializedBytes: bytes)
                guard let provider = Provider(rawValue: m.provider) else { return nil }
                return .requested(Requested(
                    launchURL: m.launchURL, provider: provider, amount: m.hasAmount ? try domainMoney(m.amount) : nil,
                    reference: m.hasReference ? m.reference : nil, apiVersion: m.hasApiVersion ? m.apiVersion : nil,
                    appVersion: m.hasAppVersion ? m.appVersion : nil, builtByPaylog: m.builtByPaylog))
            case "AppSwitched":
                return .appSwitched(AppSwitched(note: try Paylog_Events_V1_AppSwitched(serializedBytes: bytes).note))
            case "CallbackReceived":
                let m = try Paylog_Events_V1_CallbackReceived(serializedBytes: bytes)
                let o = m.outcome
                guard let provider = Provider(rawValue: o.provider) else { return nil }
                let status: CallbackStatus = o.status == "success" ? .success : o.status == "failure" ? .failure : .invalid(o.invalidStatus)
                var hint: RoutingHint?
                if o.hasRoutingPaymentID, let id = try? PaymentID(o.routingPaymentID) { hint = .paymentID(id) }
                else if o.hasReference { hint = .reference(o.reference) }
                return .callbackReceived(CallbackReceived(
                    callbackURL: m.callbackURL,
                    outcome: CallbackOutcome(
                        provider: provider, rawURL: m.callbackURL, status: status,
                        transactionID: o.hasTransactionID ? o.transactionID : nil,
                        clientTransactionID: o.hasClientTransactionID ? o.clientTransactionID : nil,
                        reference: o.hasReference ? o.reference : nil, errorCode: o.hasErrorCode ? o.errorCode : nil,
                        message: o.hasMessage ? o.message : nil, isOffline: o.isOffline, routingHint: hint, fields: o.fields),
                    isRepeat: m.isRepeat, isLate: m.isLate, contradictsEarlier: m.contradictsEarlier,
                    answersEarlierAttempt: m.answersEarlierAttempt, isRedelivery: m.isRedelivery))
            case "Offline":
                let m = try Paylog_Events_V1_Offline(serializedBytes: bytes)
                return .offline(Offline(clientTransactionID: m.clientTransactionID, expiresAtMicroseconds: m.hasExpiresAtUs ? m.expiresAtUs : nil))
            case "Reconciled":
                let m = try Paylog_Events_V1_Reconciled(serializedBytes: bytes)
                return .reconciled(Reconciled(
                    reportLine: m.reportLine, transactionID: m.transactionID, matchedBy: m.matchedBy,
                    amount: m.hasAmount ? try domainMoney(m.amount) : nil, amountMismatch: m.amountMismatch))
            default:
                let m = try Paylog_Events_V1_Failed(serializedBytes: bytes)
                guard let source = FailureSource(rawValue: m.source) else { return nil }
                return .failed(Failed(
                    source: source, errorCode: m.hasErrorCode ? m.errorCode : nil, reason: m.reason,
                    observedBeforeSuccess: m.observedBeforeSuccess, repeatsFailure: m.repeatsFailure))
            }
        }() ?? nil
    }

    private static func mine(type: String, _ bytes: [UInt8]) -> PaymentEvent? {
        try? EventPayloadDecoder.decode(type: type, payload: Data(bytes))
    }

    @Test("random payloads of every type decode to what SwiftProtobuf reads")
    func agreement() throws {
        var rng = SplitMix64(seed: 21)
        var decoded = 0
        for _ in 0..<3_000 {
            let (type, bytes) = try Self.randomPayload(&rng)
            let mine = Self.mine(type: type, bytes)
            #expect(mine == Self.reference(type: type, bytes), "\(type): \(bytes)")
            if mine != nil { decoded += 1 }
        }
        #expect(decoded > 1_000)
    }

    @Test("repeated, merged and unknown fields, and damaged bytes, are read or refused as SwiftProtobuf does")
    func wireRules() throws {
        var rng = SplitMix64(seed: 22)
        var refused = 0
        for round in 0..<4_000 {
            let (type, first) = try Self.randomPayload(&rng)
            var bytes = first
            switch round % 4 {
            case 0:
                // The same type twice: scalars take the later value, message fields merge.
                var second: (String, [UInt8])
                repeat { second = try Self.randomPayload(&rng) } while second.0 != type
                bytes += second.1
            case 1:
                bytes = [0x98, 0x06, 0x2A, 0xAA, 0x06, 0x01, 0x00] + bytes  // unknown fields 99 and 101
            case 2:
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            default:
                for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            }
            let mine = Self.mine(type: type, bytes)
            #expect(mine == Self.reference(type: type, bytes), "\(type): \(bytes)")
            if mine == nil { refused += 1 }
        }
        #expect(refused > 100)
    }

    /// `event` without what a decoding without evidence leaves empty.
    private static func withoutEvidence(_ event: PaymentEvent) -> PaymentEvent {
        switch event {
        case .requested(var e): e.launchURL = ""; return .requested(e)
        case .appSwitched(var e): e.note = ""; return .appSwitched(e)
        case .callbackReceived(var e):
            (e.outcome.fields, e.outcome.reference, e.outcome.message, e.outcome.routingHint) = ([:], nil, nil, nil)
            return .callbackReceived(e)
        case .reconciled(var e): e.reportLine = ""; return .reconciled(e)
        case .offline, .failed: return event
        }
    }

    @Test("decoding without evidence refuses what a full decoding refuses, keeps everything else, and evolves payments identically")
    func withoutEvidence() throws {
        var rng = SplitMix64(seed: 23)
        var refused = 0
        var full: Payment?
        var lean: Payment?
        var evolved = 0
        for round in 0..<4_000 {
            let (type, first) = try Self.randomPayload(&rng)
            let bytes = Self.damaged(first, round: round, &rng)
            let whole = try? EventPayloadDecoder.decode(type: type, payload: Data(bytes))
            let stripped = try? EventPayloadDecoder.decode(type: type, payload: Data(bytes), evidence: false)
            #expect(stripped == whole.map(Self.withoutEvidence), "\(type): \(bytes)")
            guard let whole, let stripped else { refused += 1; continue }
            if round % 40 == 0 { (full, lean) = (nil, nil) }
            Payment.evolve(&full, id: "pay-1", whole, observedAt: Int64(round))
            Payment.evolve(&lean, id: "pay-1", stripped, observedAt: Int64(round))
            #expect(full == lean)
            evolved += 1
        }
        #expect(refused > 100 && evolved > 1_000)
    }

    /// `bytes` as they are (round 0 of 3), cut short (1) or with up to three bytes damaged (2), including bytes
    /// that make a skipped string invalid UTF-8.
    private static func damaged(_ bytes: [UInt8], round: Int, _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        if round % 3 == 1 {
            bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
        } else if round % 3 == 2 {
            for _ in 0..<Int.random(in: 1...3, using: &rng) where !bytes.isEmpty {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = [0xC3, 0xFF, 0x80, UInt8.random(in: 0...255, using: &rng)]
                    .randomElement(using: &rng)!
            }
        }
        return bytes
    }

    @Test("a fold's callback reading hashes the URL where it lies: the callback without its URL and the URL's fingerprint")
    func foldCallbacks() throws {
        var rng = SplitMix64(seed: 29)
        var checked = 0
        var refused = 0
        for round in 0..<12_000 {
            let (type, first) = try Self.randomPayload(&rng)
            guard type == "CallbackReceived" else { continue }
            let bytes = Self.damaged(first, round: round, &rng)
            let whole = try? EventPayloadDecoder.decode(type: type, payload: Data(bytes))
            let fold = try? bytes.withUnsafeBytes { raw in
                var reader = ProtoWireReader(raw)
                return try EventPayloadDecoder.callbackReceived(&reader, evidence: false, fingerprintingURL: true)
            }
            guard case .callbackReceived(let full) = whole, let fold else {
                #expect(whole == nil && fold == nil, "refused by one reading only: \(bytes)")
                refused += 1
                continue
            }
            guard case .callbackReceived(var expected) = Self.withoutEvidence(.callbackReceived(full)) else { continue }
            (expected.callbackURL, expected.outcome.rawURL) = ("", "")
            #expect(fold.callback == expected)
            #expect(fold.fingerprint == CallbackFingerprint(rawURL: full.callbackURL))
            var (a, b): (Payment?, Payment?) = (nil, nil)
            Payment.evolve(&a, id: "pay-1", full, observedAt: Int64(round))
            Payment.evolve(&b, id: "pay-1", fold.callback, fingerprint: fold.fingerprint!, observedAt: Int64(round))
            #expect(a == b)
            checked += 1
        }
        #expect(checked > 300 && refused > 300, "checked \(checked), refused \(refused)")
    }

    @Test("a refused payload says why, through EventCodec, naming the type and position")
    func reasons() throws {
        let error = #expect(throws: EventCodecError.self) {
            try EventCodec.decode(type: "Requested", schemaVersion: 1, payload: Data([0x0A, 0x05, 0x61]), position: 9)
        }
        #expect(error == .undecodable(type: "Requested", position: 9, reason: "a field of 5 bytes runs past the end"))
        #expect(throws: EventCodecError.unknownType("Refunded", position: 3)) {
            try EventCodec.decode(type: "Refunded", schemaVersion: 1, payload: Data(), position: 3)
        }
    }
}
