import PaylogDomain
import PaylogStore
import Testing

@testable import PaylogWorkflow

/// The status view's binary payment encoding.
@Suite("Payment codec")
struct PaymentCodecTests {
    private static func randomPayment(_ rng: inout SplitMix64) throws -> Payment {
        func text(_ maximum: Int) -> String {
            let alphabet = Array("abcXYZ019-_:/?&=%é€😀")
            return String((0..<Int.random(in: 0...maximum, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
        }
        func maybe<T>(_ make: () throws -> T) rethrows -> T? { Bool.random(using: &rng) ? try make() : nil }
        var p = Payment(id: "pay-" + text(30), provider: Provider.allCases.randomElement(using: &rng)!)
        p.status = PaymentStatus.allCases.randomElement(using: &rng)!
        p.version = UInt64.random(in: 0...UInt64.max, using: &rng) >> UInt64.random(in: 0...63, using: &rng)
        p.amount = try maybe {
            Money(minorUnits: Int64.random(in: .min ... .max, using: &rng),
                  currency: try CurrencyCode(["USD", "EUR", "JPY", "KWD"].randomElement(using: &rng)!))
        }
        p.references = (0..<Int.random(in: 0...3, using: &rng)).map { _ in text(40) }
        p.apiVersion = maybe { text(5) }
        p.appVersion = maybe { text(8) }
        p.transactionID = maybe { text(20) }
        p.clientTransactionID = maybe { text(20) }
        p.errorCode = maybe { text(30) }
        p.failureReason = maybe { text(80) }
        p.callbackFingerprints = (0..<Int.random(in: 0...4, using: &rng)).map { _ in
            CallbackFingerprint(rawURL: "myshop://cb?" + text(200))
        }
        func charge() -> ReportedCharge {
            ReportedCharge(transactionID: text(20), amount: maybe { Money(minorUnits: Int64.random(in: -5...5_000, using: &rng), currency: .usd) })
        }
        p.laterReportedCharges = (0..<Int.random(in: 0...3, using: &rng)).map { _ in charge() }
        p.requestedProviders = ProviderSet(Array(Provider.allCases.shuffled(using: &rng).prefix(Int.random(in: 0...3, using: &rng))))
        // The first charge, when there is one, is often the client transaction id or the transaction id (then not
        // written, but derived), sometimes another.
        p.firstCharge = [nil, p.clientTransactionID, p.transactionID, text(12)].randomElement(using: &rng)!
        // The first reported charge: usually the transaction id with the requested amount (then derived, not written).
        let derived = p.transactionID.map { ReportedCharge(transactionID: $0, amount: p.amount) }
        p.firstReportedCharge = [nil, derived, charge()].randomElement(using: &rng)!
        if p.firstReportedCharge == nil { p.laterReportedCharges = [] }
        p.hadMultipleCharges = Bool.random(using: &rng)
        p.reconciledWhileFailed = Bool.random(using: &rng)
        p.lastCallbackSucceeded = maybe { Bool.random(using: &rng) }
        p.offlineExpiresAtMicroseconds = maybe { Int64.random(in: .min ... .max, using: &rng) }
        p.hadLateCallback = Bool.random(using: &rng)
        p.hadContradictingCallbacks = Bool.random(using: &rng)
        p.hadAmountMismatch = Bool.random(using: &rng)
        p.hadRequestAfterSuccess = Bool.random(using: &rng)
        p.sawAppSwitch = Bool.random(using: &rng)
        p.sawCallback = Bool.random(using: &rng)
        p.sawSuccess = Bool.random(using: &rng)
        p.wasOffline = Bool.random(using: &rng)
        p.firstCallbackAtMicroseconds = maybe { Int64.random(in: -1_000...2_000_000_000_000_000, using: &rng) }
        p.offlineAtMicroseconds = maybe { Int64.random(in: 0...2_000_000_000_000_000, using: &rng) }
        p.reconciledAtMicroseconds = maybe { Int64.random(in: 0...2_000_000_000_000_000, using: &rng) }
        p.firstRequestedAtMicroseconds = maybe { Int64.random(in: 0...2_000_000_000_000_000, using: &rng) }
        // The first success is usually the first callback (then derived, not written), sometimes a report line's.
        p.firstSuccessAtMicroseconds = [nil, p.firstCallbackAtMicroseconds, p.reconciledAtMicroseconds, Int64.random(in: .min ... .max, using: &rng)]
            .randomElement(using: &rng)!
        p.failedAttempts = [0, 1, 3, UInt64.random(in: 0...UInt64.max, using: &rng)].randomElement(using: &rng)!
        p.failedProviders = ProviderSet(Provider.allCases.filter { _ in Bool.random(using: &rng) })
        p.failedBeforeSuccessAtMicroseconds = [nil, p.reconciledAtMicroseconds, Int64.random(in: .min ... .max, using: &rng)]
            .randomElement(using: &rng)!
        return p
    }

    private static func decode(_ bytes: [UInt8], id: String = "pay-1") throws(PaymentCodecError) -> Payment {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(PaymentCodecError) in try PaymentCodec.decode(buffer, id: id) }
        }
        return try result.get()
    }

    @Test("every field of random payments round-trips, and equal payments encode to equal bytes")
    func roundTrip() throws {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            let payment = try Self.randomPayment(&rng)
            let bytes = PaymentCodec.encode(payment)
            #expect(try Self.decode(bytes, id: payment.id) == payment)
            var copy = payment
            copy.callbackFingerprints = payment.callbackFingerprints.map { $0.bytes.withUnsafeBytes { CallbackFingerprint(bytes: $0)! } }
            #expect(PaymentCodec.encode(copy) == bytes)
            // The id is the row's key, not part of the value.
            copy.id = "other"
            #expect(PaymentCodec.encode(copy) == bytes)
            // Written after other bytes (a rebuild's rows buffer), the same bytes follow them.
            var writer = ProtoWireWriter(capacity: 0)
            writer.string(payment.id)
            let prefix = writer.bytes
            PaymentCodec.encode(payment, into: &writer)
            #expect(writer.bytes == prefix + bytes)
        }
    }

    @Test("an id only canonically equal to the one it is derived from is written, so the row decodes to the same bytes")
    func canonicallyEqualIDs() throws {
        var p = Payment(id: "pay-n", provider: .square)
        p.clientTransactionID = "C\u{E9}"            // NFC
        p.firstCharge = "Ce\u{301}"                  // NFD: equal as Swift Strings, not as bytes
        p.transactionID = "T\u{E9}"
        p.amount = Money(minorUnits: 100, currency: .usd)
        p.firstReportedCharge = ReportedCharge(transactionID: "Te\u{301}", amount: p.amount)
        #expect(p.firstCharge == p.clientTransactionID, "the premise: Swift's == calls them equal")
        let bytes = PaymentCodec.encode(p)
        let decoded = try Self.decode(bytes, id: p.id)
        #expect(decoded.firstCharge.map { Array($0.utf8) } == Array("Ce\u{301}".utf8))
        #expect(decoded.firstReportedCharge.map { Array($0.transactionID.utf8) } == Array("Te\u{301}".utf8))
        #expect(PaymentCodec.encode(decoded) == bytes)
        // The same bytes are still left out.
        p.firstCharge = p.clientTransactionID
        p.firstReportedCharge = ReportedCharge(transactionID: p.transactionID!, amount: p.amount)
        #expect(PaymentCodec.encode(p).count < bytes.count)
    }

    @Test("ids are the same only when their bytes are: same length or not, short or long, empty or absent", arguments: [
        ("ctx-1", "ctx-1", true), ("ctx-1", "ctx-2", false), ("ctx-1", "ctx-10", false), ("", "", true), ("", "x", false),
        ("a-charge-id-longer-than-fifteen-bytes-0001", "a-charge-id-longer-than-fifteen-bytes-0001", true),
        ("a-charge-id-longer-than-fifteen-bytes-0001", "a-charge-id-longer-than-fifteen-bytes-0002", false),
        ("C\u{E9}x", "Ce\u{301}", false), ("Ce\u{301}", "Ce\u{301}", true),
        // Canonically equivalent (Swift's == calls them equal) and of the same byte length: still not the same bytes.
        ("\u{212B}", "A\u{30A}", false), ("a\u{301}\u{316}", "a\u{316}\u{301}", false),
    ])
    func sameBytes(_ a: String, _ b: String, _ same: Bool) {
        #expect(PaymentCodec.sameBytes(a, b) == same)
        #expect(PaymentCodec.sameBytes(b, a) == same)
        #expect(PaymentCodec.sameBytes(a, nil) == false)
        #expect(PaymentCodec.sameBytes(nil, b) == false)
        #expect(PaymentCodec.sameBytes(nil, nil))
        // A copy built byte by byte (its own storage) compares by its bytes too.
        let copy = String(decoding: Array(b.utf8), as: UTF8.self)
        #expect(PaymentCodec.sameBytes(a, copy) == same)
    }

    @Test("the premise of the canonically equivalent cases above: Swift's == calls them equal, and their lengths match")
    func canonicallyEquivalentPremise() {
        for (a, b) in [("\u{212B}", "A\u{30A}"), ("a\u{301}\u{316}", "a\u{316}\u{301}")] {
            #expect(a == b)
            #expect(a.utf8.count == b.utf8.count)
            #expect(!Array(a.utf8).elementsEqual(Array(b.utf8)))
        }
    }

    @Test("a changed field changes the bytes, so the replay's view comparison sees it")
    func sensitivity() throws {
        var rng = SplitMix64(seed: 6)
        let payment = try Self.randomPayment(&rng)
        var changes: [Payment] = []
        for change in 0..<14 {
            var other = payment
            switch change {
            case 0: other.sawSuccess.toggle()
            case 1: other.version &+= 1
            case 2: other.errorCode = payment.errorCode == nil ? "" : nil
            case 3: other.callbackFingerprints.append(CallbackFingerprint(rawURL: "x"))
            case 4: other.status = payment.status == .failed ? .completed : .failed
            case 5: other.laterReportedCharges.append(ReportedCharge(transactionID: "x", amount: nil))
            case 6: other.requestedProviders = payment.requestedProviders == ProviderSet([.sumup]) ? ProviderSet([.square]) : ProviderSet([.sumup])
            case 7: other.firstCharge = payment.firstCharge == "another" ? "other" : "another"
            case 8: other.reconciledWhileFailed.toggle()
            case 9: other.failedAttempts ^= 1 << 5
            case 10: other.firstSuccessAtMicroseconds = payment.firstSuccessAtMicroseconds == 7 ? 8 : 7
            case 11: other.failedProviders = payment.failedProviders == ProviderSet([.izettle]) ? ProviderSet() : ProviderSet([.izettle])
            case 12: other.failedBeforeSuccessAtMicroseconds = payment.failedBeforeSuccessAtMicroseconds == 7 ? 8 : 7
            default: other.lastCallbackSucceeded = payment.lastCallbackSucceeded == false ? true : false
            }
            changes.append(other)
        }
        for other in changes { #expect(PaymentCodec.encode(other) != PaymentCodec.encode(payment)) }
    }

    @Test("every truncation and damaged byte is refused with a reason or decodes to a valid payment, never a crash")
    func damage() throws {
        var rng = SplitMix64(seed: 7)
        var refused = 0
        for _ in 0..<300 {
            let bytes = PaymentCodec.encode(try Self.randomPayment(&rng))
            for length in 0..<bytes.count {
                #expect(throws: PaymentCodecError.self) { try Self.decode(Array(bytes.prefix(length))) }
            }
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            do { _ = try Self.decode(damaged) } catch { refused += 1 }
            #expect(throws: PaymentCodecError.self) { try Self.decode(bytes + [0]) }
        }
        #expect(refused > 0)
        #expect(throws: PaymentCodecError(reason: "unknown format byte 123 (a row from a view before version 6?)")) {
            try Self.decode(Array(#"{"id":"pay-1"}"#.utf8))
        }
        // A row of view version 5 (format 1: the id and raw callback URLs inside).
        #expect(throws: PaymentCodecError(reason: "unknown format byte 1 (a row from a view before version 6?)")) {
            try Self.decode([1, 0, 0, 5] + Array("pay-1".utf8) + [6] + Array("square".utf8) + [9] + Array("requested".utf8) + [1, 0, 0])
        }
    }
}
