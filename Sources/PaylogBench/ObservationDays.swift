import Foundation
import PaylogStore
import PaylogWorkflow

/// JSON Lines observations of any number of payments, as consecutive seeded demo days.
///
/// One ``PaylogWorkflow/DemoDay`` spaces requests 150 s apart up to 528 payments and packs a longer day closer;
/// the bench's workloads keep the shop's pace instead: several days of ``paymentsPerDay`` payments, three days
/// apart, each with its own seed (and the logs the figures in Docs/performance.md were measured on).
/// A day's payment ids (`pay-0001` …, plain or percent-encoded inside URLs and references) get a prefix of their
/// own, `pay` → `pXY` (two letters per day), which keeps every line's length and every URL valid.
enum ObservationDays {
    /// Payments per day.
    static let paymentsPerDay = 500

    /// The observation lines of `payments` payments, in time order.
    static func lines(payments: Int) throws(BenchError) -> [String] {
        let days = (max(payments, 1) + paymentsPerDay - 1) / paymentsPerDay
        guard days <= 26 * 26 else {
            throw .failed(step: "generating observations", reason: "\(payments) payments need more than \(26 * 26) days; ask for fewer")
        }
        let first = Timestamp(rfc3339: "2026-11-21T08:00:00Z")!
        let dayLength: Int64 = 3 * 24 * 3_600 * 1_000_000
        var lines: [String] = []
        for day in 0..<days {
            let count = min(paymentsPerDay, payments - day * paymentsPerDay)
            let demo = DemoDay(payments: count, seed: 2026 + UInt64(day), start: Timestamp(microseconds: first.microseconds + Int64(day) * dayLength))
            let planned: [String]
            do { planned = try demo.plan().lines } catch {
                throw .failed(step: "generating demo day \(day + 1)", reason: "\(error)")
            }
            let letters = Array("abcdefghijklmnopqrstuvwxyz")
            let prefix = "p" + String(letters[day / 26]) + String(letters[day % 26])
            for line in planned {
                lines.append(line.replacingOccurrences(of: "pay-", with: prefix + "-").replacingOccurrences(of: "pay%2D", with: prefix + "%2D"))
            }
        }
        return lines
    }
}
