import ArgumentParser
import PaylogDomain
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// `paylog status [ID]`: one payment's status, or the list.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show a payment's current status, or list payments.")

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var access: ReadOnlyOption
    @Argument(help: "The payment id; omit to list payments.") var payment: String?
    @Option(help: "Only payments in this status.") var status: String?
    @Option(help: "Only payments of this provider.") var provider: String?
    @Option(help: "Only payments in this currency (ISO 4217).") var currency: String?
    @Option(help: "Only payments first requested on this UTC day (YYYY-MM-DD).") var day: String?
    @Option(parsing: .unconditional, help: "The most payments to list.") var limit: Int?
    @Flag(help: "Print JSON (one object; a list prints one object per line).") var json = false

    /// Payments read per read transaction by `--json` listings.
    static let jsonPage = 1_000

    func validate() throws {
        // A filter beside a payment id would be ignored, and `status pay-1 --status failed` read as "pay-1 is failed".
        if payment != nil {
            let filters = [("--status", status), ("--provider", provider), ("--currency", currency), ("--day", day),
                           ("--limit", limit.map(String.init))].filter { $0.1 != nil }.map(\.0)
            if !filters.isEmpty {
                throw ValidationError(
                    "\(filters.joined(separator: ", ")) \(filters.count == 1 ? "filters" : "filter") the list of payments; "
                        + "with a payment id, status shows that payment whatever its status: drop the id to list, or the "
                        + "filters to show it.")
            }
        }
        // Either would list nothing and exit 0, as if the store held no such payment.
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1 (got \(limit)).") }
        if let currency, (try? CurrencyCode(currency.uppercased())) == nil {
            throw ValidationError("--currency \(currency.debugDescription) is not a currency: give a three-letter ISO 4217 code, letters A–Z (e.g. EUR).")
        }
    }

    func run() throws {
        let store = try storeOptions.openExisting(readOnly: access.readOnly)
        defer { store.close() }
        if let payment {
            guard let found = try PaymentsProjection.payment(payment, in: store) else {
                throw CLIError(payment.isEmpty ? "The payment id is empty: give the payment's id, or none to list the payments." : "No payment \(payment) in the store at \(store.path).")
            }
            if json { print(try JSONText.encode(PaymentJSON.object(found))) } else {
                print(Output.table(Output.statusHeader, [Output.statusRow(found)]))
            }
            return
        }
        var statusFilter: PaymentStatus?
        if let status {
            guard let value = PaymentStatus(rawValue: status) else {
                throw ValidationError("--status must be one of \(PaymentStatus.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            statusFilter = value
        }
        var providerFilter: Provider?
        if let provider {
            guard let value = Provider(rawValue: provider.lowercased()) else {
                throw ValidationError("--provider must be square, sumup or izettle.")
            }
            providerFilter = value
        }
        if let day, Timestamp(rfc3339: day + "T00:00:00Z") == nil {
            throw ValidationError("--day must be a date like 2026-11-21.")
        }
        if json {
            // Page by page, each page read in a read transaction of its own and printed after it: a listing of every
            // payment holds one page, not all of them, and a reader that stops reading (a pager left open) holds no
            // snapshot of the store, which would keep LMDB from reusing pages while the store is written.
            var remaining = limit ?? .max
            var after: String?
            while remaining > 0 {
                let page = try PaymentsProjection.payments(
                    in: store, status: statusFilter, provider: providerFilter, currency: currency?.uppercased(), day: day,
                    after: after, limit: min(remaining, Self.jsonPage))
                for payment in page { print(try JSONText.encode(PaymentJSON.object(payment))) }
                guard page.count == min(remaining, Self.jsonPage), let last = page.last else { break }
                remaining -= page.count
                after = last.id
            }
        } else {
            // One payment past the limit, to say whether the listing stops at the limit or at the last match: "3
            // payment(s)" alone read as "3 match" when 12 did.
            var payments = try PaymentsProjection.payments(
                in: store, status: statusFilter, provider: providerFilter, currency: currency?.uppercased(), day: day,
                limit: limit.map { $0 < .max ? $0 + 1 : $0 } ?? .max)
            let cut = limit.map { payments.count > $0 } ?? false
            if cut, let limit { payments.removeLast(payments.count - limit) }
            print(Output.table(Output.statusHeader, payments.map(Output.statusRow)))
            print(cut ? "\(payments.count) payment(s) shown; more match (raise --limit, or drop it, to list them all)" : "\(payments.count) payment(s)")
        }
    }
}
