import Foundation
import PaylogDomain
import PaylogProviders
import PaylogStore

/// A realistic, reproducible day of a shop's observations for `paylog demo`: hundreds of payments across
/// Square (API pre-1.0 to 1.3), SumUp (app 1.52 to 1.88) and iZettle, with offline payments reconciled the
/// next morning (and one left to expire), cancellations, declined cards, duplicate and contradicting callbacks,
/// late successes after our timeout, lost callbacks, and a few requests that break their provider's contract.
///
/// Every line is an observation in `paylog ingest` format, in time order.
public struct DemoDay: Sendable {
    /// The number of payments.
    public var payments: Int
    /// The seed of the pseudo-random choices: the same seed gives the same day, byte for byte.
    public var seed: UInt64
    /// The day's first request, µs since the epoch.
    public var start: Timestamp

    /// A day of `payments` payments starting at `start`.
    public init(payments: Int = 300, seed: UInt64 = 2026, start: Timestamp = Timestamp(rfc3339: "2026-11-21T08:00:00Z")!) {
        self.payments = payments
        self.seed = seed
        self.start = start
    }

    /// What the generator planted, for the demo's summary.
    public struct Plan: Sendable {
        /// Observation lines in time order.
        public var lines: [String]
        /// Payment ids whose request deliberately breaks its provider's contract, with the breach.
        public var contractViolations: [(payment: String, breach: String)]
        /// Planted scenario counts by name.
        public var scenarios: [String: Int]
    }

    /// Generates the day.
    public func plan() throws -> Plan {
        var random = SplitMix64(seed: seed)
        var timed: [(at: Int64, order: Int, line: String)] = []
        var violations: [(String, String)] = []
        var scenarios: [String: Int] = [:]
        var order = 0
        func emit(_ at: Int64, _ object: [String: Any]) throws {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            timed.append((at, order, String(decoding: data, as: UTF8.self)))
            order += 1
        }
        func time(_ micros: Int64) -> String { Timestamp(microseconds: micros).rfc3339 }
        let squareVersions: [String?] = [nil, "1.0", "1.1", "1.2", "1.3", "1.3", "1.3"]
        let sumupApps = ["1.52.0", "1.53.0", "1.53.2", "1.69.1", "1.88.0", "1.88.0"]
        let currencies = ["EUR", "EUR", "EUR", "USD", "GBP", "SEK"]

        // Requests 150 s apart, closer on a day of more than 528 payments, so that every request falls within the
        // day's first 22 hours, before the next morning's report (26 hours after the start), whose lines follow one
        // another a second apart, closer on a longer day (the report takes at most 8 hours).
        let spacing = min(150_000_000, 22 * 3600 * 1_000_000 / Int64(max(payments, 1)))
        let reportStep = min(1_000_000, 8 * 3600 * 1_000_000 / Int64(max(payments, 1)))
        for index in 0..<payments {
            let id = String(format: "pay-%04d", index + 1)
            let paymentID = try PaymentID(id)
            let provider: Provider = [.square, .sumup, .izettle][index % 3]
            let requestedAt = start.microseconds + Int64(index) * spacing + Int64(random.next() % 60_000_000)
            let currency = provider == .square ? "USD" : currencies[Int(random.next() % UInt64(currencies.count))]
            let wholeUnits = Int64(random.next() % 120) + 1
            let minor = provider == .izettle ? wholeUnits * 100 : wholeUnits * 100 + Int64(random.next() % 100)
            let amount = Money(minorUnits: minor, currency: try CurrencyCode(currency))
            let reference = "\(id).\(String(random.next() & 0xFFFF_FFFF, radix: 16))"
            var spec = LaunchSpec(
                provider: provider, paymentID: paymentID, amount: amount, reference: reference,
                callbackBaseURL: "myshop://paylog-callback", clientID: provider == .square ? "sq0idp-demo-shop" : "demo-affiliate-key",
                title: provider == .square ? nil : "Order \(index + 1)", notes: provider == .square ? "Order \(index + 1)" : nil)
            var appVersion: String?
            switch provider {
            case .square: spec.squareAPIVersion = squareVersions[index / 3 % squareVersions.count]
            case .sumup:
                appVersion = sumupApps[index / 3 % sumupApps.count]
                spec.appVersion = appVersion
                if appVersion! < "1.53" { spec.reference = nil }
            case .izettle: break
            }
            var url = try Providers.buildLaunchURL(for: spec)
            // A few requests break their provider's contract on purpose: the log keeps them as observed.
            if index % 97 == 11 {
                switch provider {
                case .square:
                    url = try squareRequest(
                        id: id, amountMinor: minor, version: "1.0", extra: #""location_id":"L-DEMO""#, reference: reference)
                    violations.append((id, "Square API 1.0 request with location_id (1.3 only)"))
                case .sumup:
                    url += "&skip-screen-success=true"
                    appVersion = "1.60.0"
                    violations.append((id, "SumUp skip-screen-success on app 1.60.0 (needs 1.69)"))
                case .izettle:
                    url = url.replacingOccurrences(of: "&title=", with: "&xtitle=")
                    violations.append((id, "iZettle request without the required title"))
                }
            }
            var request: [String: Any] = ["kind": "request", "payment": id, "at": time(requestedAt), "url": url]
            if let appVersion { request["app_version"] = appVersion }
            try emit(requestedAt, request)
            let switchedAt = requestedAt + 2_000_000
            try emit(switchedAt, ["kind": "app_switch", "payment": id, "at": time(switchedAt)])
            let callbackAt = switchedAt + 20_000_000 + Int64(random.next() % 40_000_000)
            let parsed = try Providers.parseLaunch(url, appVersion: appVersion)
            let roll = random.next() % 100
            let txID = "TX-\(String(random.next() & 0xFFFF_FFFF, radix: 36).uppercased())"
            let clientTx = "CTX-\(String(random.next() & 0xFFFF_FFFF, radix: 36).uppercased())"
            func success() throws -> String { try callbackURL(parsed, success: true, tx: txID, clientTx: clientTx, offline: false, code: nil) }
            func reconcile(_ at: Int64, matchedTx: String, amountMinor: Int64? = nil) throws {
                // A SumUp app below 1.53 returns neither a transaction code nor foreign-tx-id: nothing to match by.
                if provider == .sumup && parsed.reference == nil {
                    scenarios["SumUp app < 1.53: completed but unmatchable in the report", default: 0] += 1
                    return
                }
                var line: [String: Any] = ["kind": "reconcile", "at": time(at), "provider": provider.rawValue, "transaction_id": matchedTx,
                                           "amount_minor": amountMinor ?? minor, "currency": currency]
                switch provider {
                case .square: line["client_transaction_id"] = clientTx
                case .sumup:
                    if let ref = parsed.reference { line["foreign_tx_id"] = ref } else { line["transaction_code"] = txID }
                case .izettle: line["reference"] = reference
                }
                try emit(at, line)
            }
            let nextMorning = start.microseconds + 26 * 3600 * 1_000_000 + Int64(index) * reportStep
            switch roll {
            case 0..<62:  // online success, reconciled from the report next morning
                scenarios["completed", default: 0] += 1
                try emit(callbackAt, ["kind": "callback", "at": time(callbackAt), "url": try success()])
                try reconcile(nextMorning, matchedTx: txID)
            case 62..<72 where provider == .square:  // offline, reconciled (one in five is never uploaded and expires)
                let offline = try callbackURL(parsed, success: true, tx: nil, clientTx: clientTx, offline: true, code: nil)
                try emit(callbackAt, ["kind": "callback", "at": time(callbackAt), "url": offline])
                if index % 5 == 0 {
                    scenarios["offline, never reconciled (expires)", default: 0] += 1
                } else {
                    scenarios["offline, reconciled later", default: 0] += 1
                    try reconcile(nextMorning, matchedTx: "SQ-\(txID)")
                }
            case 62..<80:  // cancelled or declined
                scenarios["cancelled or declined", default: 0] += 1
                let code = provider == .square ? (roll % 2 == 0 ? "payment_canceled" : "unsupported_tender_type")
                    : provider == .sumup ? "failed" : "CancelledByUser"
                let url = try callbackURL(parsed, success: false, tx: nil, clientTx: nil, offline: false, code: code)
                try emit(callbackAt, ["kind": "callback", "at": time(callbackAt), "url": url])
            case 80..<87:  // the same callback delivered twice
                scenarios["duplicate callback", default: 0] += 1
                let url = try success()
                try emit(callbackAt, ["kind": "callback", "at": time(callbackAt), "url": url])
                try emit(callbackAt + 1_500_000, ["kind": "callback", "at": time(callbackAt + 1_500_000), "url": url])
                try reconcile(nextMorning, matchedTx: txID)
            case 87..<91:  // we timed out, then the success arrived: the classic disputed payment
                scenarios["late success after timeout", default: 0] += 1
                let failAt = switchedAt + 120_000_000
                try emit(failAt, ["kind": "fail", "payment": id, "at": time(failAt), "reason": "no callback within 120 s"])
                let lateAt = failAt + 45_000_000
                try emit(lateAt, ["kind": "callback", "at": time(lateAt), "url": try success()])
                try reconcile(nextMorning, matchedTx: txID)
            case 91..<95:  // the callback was lost: only our timeout
                scenarios["lost callback (timeout)", default: 0] += 1
                let failAt = switchedAt + 120_000_000
                try emit(failAt, ["kind": "fail", "payment": id, "at": time(failAt), "reason": "no callback within 120 s"])
            default:  // a success, then a contradicting failure callback
                scenarios["contradicting callbacks", default: 0] += 1
                try emit(callbackAt, ["kind": "callback", "at": time(callbackAt), "url": try success()])
                let failure = try callbackURL(parsed, success: false, tx: nil, clientTx: nil, offline: false,
                                              code: provider == .square ? "could_not_perform" : provider == .sumup ? "invalidstate" : "TechnicalError")
                try emit(callbackAt + 3_000_000, ["kind": "callback", "at": time(callbackAt + 3_000_000), "url": failure])
                try reconcile(nextMorning, matchedTx: txID)
            }
        }
        let lines = timed.sorted { ($0.at, $0.order) < ($1.at, $1.order) }.map(\.line)
        return Plan(lines: lines, contractViolations: violations, scenarios: scenarios)
    }

    /// A Square launch URL written by hand (for planted contract breaches the builder refuses to make), for the
    /// payment's own amount: the breach is the only fact planted (a fixed amount once made an amount mismatch with
    /// the payment's callback and report line that the demo's summary never announced).
    private func squareRequest(id: String, amountMinor: Int64, version: String, extra: String, reference: String) throws -> String {
        let json = #"{"amount_money":{"amount":\#(amountMinor),"currency_code":"USD"},"callback_url":"myshop://paylog-callback?paylog_payment=\#(id)","client_id":"sq0idp-demo-shop","version":"\#(version)","state":"\#(reference)","options":{"supported_tender_types":["CREDIT_CARD"]},\#(extra)}"#
        return "square-commerce-v1://payment/create?data=" + json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// The callback URL the provider's app would open for `request`.
    private func callbackURL(
        _ request: LaunchRequest, success: Bool, tx: String?, clientTx: String?, offline: Bool, code: String?
    ) throws -> String {
        func join(_ base: String, _ query: String) -> String {
            if let hash = base.firstIndex(of: "#") {  // SumUp inserts its query before a fragment
                let head = String(base[..<hash])
                return head + (head.contains("?") ? "&" : "?") + query + String(base[hash...])
            }
            return base + (base.contains("?") ? "&" : "?") + query
        }
        func encode(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
        switch request.provider {
        case .square:
            var object: [String: Any] = ["status": success ? "ok" : "error"]
            if let state = request.reference { object["state"] = state }
            if success {
                if let clientTx { object["client_transaction_id"] = clientTx }
                if !offline, let tx { object["transaction_id"] = tx }
            } else {
                object["error_code"] = code ?? "payment_canceled"
            }
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            return join(request.callbackURL ?? "myshop://paylog-callback", "data=" + encode(String(decoding: data, as: UTF8.self)))
        case .sumup:
            let base = (success ? request.successCallbackURL : request.failureCallbackURL) ?? "myshop://paylog-callback"
            var query = "smp-status=" + (success ? "success" : (code ?? "failed"))
            if success, let tx, (request.appVersion ?? "9") >= "1.53" { query += "&smp-tx-code=" + encode(tx) }
            if let ref = request.reference, (request.appVersion ?? "9") >= "1.53.2" { query += "&foreign-tx-id=" + encode(ref) }
            return join(base, query)
        case .izettle:
            let base = (success ? request.successCallbackURL : request.failureCallbackURL) ?? "myshop://paylog-callback"
            var query = request.reference.map { "reference=" + encode($0) } ?? ""
            if !success { query += (query.isEmpty ? "" : "&") + "errorCode=" + encode(code ?? "TechnicalError") }
            return join(base, query)
        }
    }
}
