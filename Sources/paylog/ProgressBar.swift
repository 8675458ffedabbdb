import Foundation

/// A one-line progress bar with rate and ETA on standard error — only when standard error is a terminal.
final class ProgressBar {
    private let label: String
    private let enabled: Bool
    private let started = Date()
    private var lastDraw = Date.distantPast

    init(label: String) {
        self.label = label
        self.enabled = isatty(2) == 1
    }

    func update(_ done: UInt64, of total: UInt64) {
        guard enabled else { return }
        let now = Date()
        guard now.timeIntervalSince(lastDraw) > 0.1 || done == total else { return }
        lastDraw = now
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
