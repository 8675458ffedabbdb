import Foundation
import Hummingbird
import PaylogCompatibility
import PaylogDomain
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

extension PaylogService {
    /// `GET /v1/payments/{id}`: the status view.
    func payment(_ request: Request, _ context: PaylogRequestContext) throws -> Answer {
        try context.require(.read)
        let id = try PaylogService.paymentParameter(context)
        guard let payment = try readView({ try PaymentsProjection.payment(id, in: store) }) else {
            throw ServiceError.notFound("No payment \(id) has been recorded.")
        }
        return try Answer(.ok, PaymentJSON.object(payment))
    }

    /// `GET /v1/payments?status=&provider=&currency=&day=&from=&to=&cursor=&limit=`: the status view in payment
    /// id order, a page at a time; `next_cursor` is null on the last page.
    func listPayments(_ request: Request, _ context: PaylogRequestContext) throws -> Answer {
        try context.require(.read)
        let query = request.uri.queryParameters
        try PaylogService.allowOnly(["status", "provider", "currency", "day", "from", "to", "cursor", "limit"], in: query)
        var status: PaymentStatus?
        if let text = query["status"].map(String.init) {
            guard let value = PaymentStatus(rawValue: text) else {
                throw ServiceError.invalidParameter("status", "must be one of \(PaymentStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            status = value
        }
        let provider = try PaylogService.provider(query["provider"].map(String.init))
        let day = query["day"].map(String.init)
        if let day, Timestamp(rfc3339: day + "T00:00:00Z") == nil {
            throw ServiceError.invalidParameter("day", "must be a date like 2026-11-21")
        }
        let currency = try PaylogService.currency(query["currency"].map(String.init))
        let from = try PaylogService.time(query["from"].map(String.init), name: "from")
        let to = try PaylogService.time(query["to"].map(String.init), name: "to")
        if let from, let to, from > to {
            throw ServiceError.invalidParameter("from", "is after \"to\" (\(from.rfc3339) > \(to.rfc3339)): no payment can match; swap them")
        }
        let limit = try PaylogService.limit(query["limit"].map(String.init), default: 100, maximum: 1000)
        let page = try readView {
            try PaymentsProjection.payments(
                in: store, status: status, provider: provider, currency: currency, day: day,
                after: try PaylogService.cursor(query), requestedFrom: from, requestedBefore: to, limit: limit + 1)
        }
        let shown = page.prefix(limit)
        let next: Any = page.count > limit ? (shown.last?.id ?? "") : NSNull()
        return try Answer(.ok, ["payments": shown.map(PaymentJSON.object), "next_cursor": next])
    }

    /// `GET /v1/payments/{id}/audit`: the audit timeline; personal data shown only to keys with `audit`.
    func audit(_ request: Request, _ context: PaylogRequestContext) throws -> Answer {
        try context.require(.read)
        let id = try PaylogService.paymentParameter(context)
        guard try readView({ try store.version(of: id) }) > 0 else {
            throw ServiceError.notFound("No payment \(id) has been recorded.")
        }
        let personal = context.apiKey?.allows(.audit) ?? false
        let entries = try readView { try PaymentAudit.entries(of: id, in: store, includePersonalData: personal) }
        return try Answer(.ok, AuditJSON.object(payment: id, entries: entries))
    }

    /// `GET /v1/payments/{id}/replay?at=VERSION|TIME`: the payment as it stood then, event by event.
    func replay(_ request: Request, _ context: PaylogRequestContext) throws -> Answer {
        try context.require(.read)
        let id = try PaylogService.paymentParameter(context)
        let query = request.uri.queryParameters
        try PaylogService.allowOnly(["at"], in: query)
        var cutoff = HistoryCutoff.all
        if let at = query["at"].map(String.init) {
            guard let value = HistoryCutoff(argument: at) else {
                if let advice = Timestamp.refusalAdvice(at) { throw ServiceError.invalidParameter("at", advice) }
                throw ServiceError.invalidParameter("at", "must be a stream version (e.g. 2) or an RFC 3339 time")
            }
            cutoff = value
        }
        guard try readView({ try store.version(of: id) }) > 0 else {
            throw ServiceError.notFound("No payment \(id) has been recorded.")
        }
        let steps = try readView { try PaymentHistory.steps(of: id, in: store, upTo: cutoff) }
        let personal = context.apiKey?.allows(.audit) ?? false
        let notes = try readView { try PaymentAudit.notesByPosition(of: id, in: store, includePersonalData: personal) }
        return try Answer(
            .ok,
            HistoryJSON.object(
                steps, payment: id, cutoff: query["at"].map(String.init), includePersonalData: personal, notes: notes))
    }

    /// `GET /v1/analytics?from=DAY&to=DAY`: one cell per day × provider × currency.
    func analytics(_ request: Request, _ context: PaylogRequestContext) throws -> Answer {
        try context.require(.read)
        let query = request.uri.queryParameters
        try PaylogService.allowOnly(["from", "to"], in: query)
        for name in ["from", "to"] {
            if let day = query[name[...]], Timestamp(rfc3339: day + "T00:00:00Z") == nil {
                throw ServiceError.invalidParameter(name, "must be a date like 2026-11-21")
            }
        }
        if let from = query["from"], let to = query["to"], from > to {
            throw ServiceError.invalidParameter("from", "is after \"to\" (\(from) > \(to)): no day can match; swap them")
        }
        let cells = try readView {
            try Analytics.cells(in: store, from: query["from"].map(String.init), to: query["to"].map(String.init))
        }
        return Answer(.ok, json: AnalyticsJSON.document(cells))
    }

    /// `GET /v1/findings?severity=&rule=&cursor=&limit=`: compatibility findings on recorded evidence, judged
    /// payment by payment; each page scans up to `limit` payments and `next_cursor` continues after them.
    func findings(_ request: Request, _ context: PaylogRequestContext) throws -> Answer {
        try context.require(.read)
        let query = request.uri.queryParameters
        try PaylogService.allowOnly(["severity", "rule", "cursor", "limit"], in: query)
        var severity: Severity?
        if let text = query["severity"].map(String.init) {
            guard let value = Severity(rawValue: text) else {
                throw ServiceError.invalidParameter("severity", "must be one of \(Severity.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            severity = value
        }
        let rule = query["rule"].map(String.init)
        let limit = try PaylogService.limit(query["limit"].map(String.init), default: 500, maximum: 5000)
        let payments = try readView {
            try PaymentsProjection.payments(in: store, after: try PaylogService.cursor(query), limit: limit + 1)
        }
        let scanned = payments.prefix(limit)
        var found: [[String: Any]] = []
        for payment in scanned {
            let entries = try readView { try PaymentAudit.entries(of: payment.id, in: store, includePersonalData: false) }
            for finding in entries.flatMap(\.findings)
            where (severity == nil || finding.severity == severity) && (rule == nil || finding.rule == rule) {
                found.append(FindingJSON.object(finding))
            }
        }
        let next: Any = payments.count > limit ? (scanned.last?.id ?? "") : NSNull()
        return try Answer(.ok, ["findings": found, "scanned_payments": scanned.count, "next_cursor": next])
    }

    /// Runs a view read; a store failure is logged and answered 503 without detail.
    func readView<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as ServiceError {
            throw error
        } catch {
            logger.error("view read failed", metadata: ["error": "\(error)"])
            throw ServiceError(.serviceUnavailable, code: "storage_unavailable", "The views could not be read; retry later.")
        }
    }

    static func allowOnly(_ names: Set<String>, in query: Parameters) throws(ServiceError) {
        var seen: Set<Substring> = []
        for (name, _) in query {
            guard names.contains(String(name)) else {
                throw .invalidParameter(String(name), "is not a parameter of this endpoint (known: \(names.sorted().joined(separator: ", ")))")
            }
            // Only the first of a repeated parameter would be read: `status=failed&status=completed` listed the
            // failed payments alone, without a word.
            guard seen.insert(name).inserted else { throw .invalidParameter(String(name), "is given more than once") }
        }
    }

    /// The `{id}` path parameter, percent-decoded. An id that cannot be a payment id (empty, over 128
    /// characters, not printable ASCII) names no payment: 404.
    static func paymentParameter(_ context: PaylogRequestContext) throws -> String {
        let raw = try context.parameters.require("id")
        let id = raw.removingPercentEncoding ?? raw
        guard (try? PaymentID(id)) != nil else {
            // Not echoed whole: an id that is no payment id may be any size the body limit allows.
            let shown = id.count > 64 ? String(id.prefix(64)).debugDescription + "… (\(id.utf8.count) bytes)" : id.debugDescription
            throw ServiceError.notFound("No payment \(shown) has been recorded.")
        }
        return id
    }

    /// The path of payment `id`'s resource, the inverse of ``paymentParameter(_:)``: every byte but RFC 3986's
    /// unreserved characters percent-encoded, so that `order/7` is `/v1/payments/order%2F7` and `p%41` is `p%2541`.
    /// (No payment is `.` or `..`, ``PaylogDomain/PaymentID``: a client resolves such a segment away, encoded or not.)
    static func paymentPath(_ id: String) -> String {
        var unreserved = CharacterSet(charactersIn: "-._~")
        unreserved.formUnion(CharacterSet(charactersIn: "a"..."z"))
        unreserved.formUnion(CharacterSet(charactersIn: "A"..."Z"))
        unreserved.formUnion(CharacterSet(charactersIn: "0"..."9"))
        return "/v1/payments/" + (id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? id)
    }

    /// The `cursor` parameter: the last payment id of the previous page.
    static func cursor(_ query: Parameters) throws(ServiceError) -> String? {
        guard let cursor = query["cursor"].map(String.init) else { return nil }
        guard (try? PaymentID(cursor)) != nil else {
            throw .invalidParameter("cursor", "must be the next_cursor of the previous page (a payment id)")
        }
        return cursor
    }

    static func provider(_ text: String?) throws(ServiceError) -> Provider? {
        guard let text else { return nil }
        guard let provider = Provider(rawValue: text.lowercased()) else {
            throw .invalidParameter("provider", "must be square, sumup or izettle")
        }
        return provider
    }

    /// The `currency` filter, upper-cased: three letters A–Z (a code of any other form matches no payment, and
    /// an empty page would hide the typo).
    static func currency(_ text: String?) throws(ServiceError) -> String? {
        guard let text else { return nil }
        do { return try CurrencyCode(text.uppercased()).code } catch {
            throw .invalidParameter("currency", "must be a three-letter ISO 4217 code, letters A–Z (e.g. EUR)")
        }
    }

    static func time(_ text: String?, name: String) throws(ServiceError) -> Timestamp? {
        guard let text else { return nil }
        if let time = Timestamp(rfc3339: text) { return time }
        if let day = Timestamp(rfc3339: text + "T00:00:00Z") { return day }
        if let advice = Timestamp.refusalAdvice(text) { throw .invalidParameter(name, advice) }
        throw .invalidParameter(name, "must be an RFC 3339 time or a date like 2026-11-21")
    }

    static func limit(_ text: String?, default value: Int, maximum: Int) throws(ServiceError) -> Int {
        guard let text else { return value }
        guard let number = Int(text), (1...maximum).contains(number) else {
            throw .invalidParameter("limit", "must be a whole number from 1 to \(maximum)")
        }
        return number
    }
}
