import Foundation
import Synchronization

/// A one-line progress bar with rate and ETA on standard error — only when standard error is a terminal.
/// Safe to update from the writer thread (rebuilds) or the caller's (replay).
final class ProgressBar: Sendable {
    private let label: String
    private let enabled: Bool
    private let started = Date()
    private let lastDraw = Mutex(Date.distantPast)

    init(label: String) {
        self.label = label
        self.enabled = isatty(2) == 1
    }

    func update(_ done: UInt64, of total: UInt64) {
        guard enabled else { return }
        let now = Date()
        let due = lastDraw.withLock { last in
            guard now.timeIntervalSince(last) > 0.1 || done == total else { return false }
            last = now
            return true
        }
        guard due else { return }
        let elapsed = max(now.timeIntervalSince(started), 0.001)
        let rate = Double(done) / elapsed
        let fraction = total == 0 ? 1 : min(Double(done) / Double(total), 1)
        let width = 30
        let filled = Int(fraction * Double(width))
        let eta = rate > 0 && total > done ? Double(total - done) / rate : 0
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = String(format: "\r%@ %@ %3.0f%%  %llu/%llu events  %.0f ev/s  ETA %.0fs ", label, bar, fraction * 100, done, total, rate, eta)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
