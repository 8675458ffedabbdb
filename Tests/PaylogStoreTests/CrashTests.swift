import TestSupport
import Foundation
import PaylogStore
import Testing

@Suite("Crashes and failed commits (real processes)")
struct CrashTests {
    /// One acknowledged append as the child wrote it to its side file.
    struct Acknowledgement {
        var first: UInt64
        var last: UInt64
        var firstID: UUID
        var stream: String
    }

    func acknowledgements(_ path: String) throws -> [Acknowledgement] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            // A line cut short by the kill is not a completed acknowledgement.
            guard fields.count == 4, let first = UInt64(fields[0]), let last = UInt64(fields[1]),
                let id = UUID(uuidString: String(fields[2]))
            else { return nil }
            return Acknowledgement(first: first, last: last, firstID: id, stream: String(fields[3]))
        }
    }

    /// Cuts the side file back to its last complete line. A write the kill interrupts can be cut short — the kernel
    /// stops copying at a page boundary when a fatal signal is pending — and the next round's first line would
    /// otherwise continue it: `9199` and `202 205 …` read as an acknowledgement of position 9199202.
    static func dropUnfinishedLine(_ path: String) throws {
        guard let data = FileManager.default.contents(atPath: path), let last = data.last, last != UInt8(ascii: "\n") else { return }
        let keep = data.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        guard truncate(path, off_t(keep)) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }

    @Test("SIGKILL at random moments never loses an acknowledged append nor leaves a gap", .timeLimit(.minutes(5)))
    func killLoop() async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let binary = try BuiltProduct.path("paylog-torture")
        let ackPath = dir.path + "/acks.txt"
        let storePath = dir.path + "/store"
        var generator = SystemRandomNumberGenerator()
        var totalAcknowledged = 0
        let rounds = 25
        for round in 0..<rounds {
            let child = ChildProcess()
            child.executableURL = URL(fileURLWithPath: binary)
            child.arguments = ["append", storePath, ackPath, String(round)]
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            // Kill anywhere from during start-up to well into steady appending.
            try await Task.sleep(for: .milliseconds(Int.random(in: 20...400, using: &generator)))
            child.send(SIGKILL)
            child.waitUntilExit()
            #expect(child.terminationReason == .uncaughtSignal)
            try Self.dropUnfinishedLine(ackPath)

            let acks = try acknowledgements(ackPath)
            totalAcknowledged = acks.count
            let store = try EventStore(path: storePath)
            let last = try store.lastPosition()
            for ack in acks {
                let event = try #require(try store.event(at: ack.first), "acknowledged position \(ack.first) is missing")
                #expect(event.id == ack.firstID)
                #expect(event.streamID == ack.stream)
                #expect(ack.last <= last)
                #expect(try store.event(id: ack.firstID)?.position == ack.first)
            }
            let report = try store.verifyChain()
            #expect(report.isIntact, "round \(round): \(report.problem ?? "")")
            #expect(report.eventsChecked == last, "positions must be gap-free up to the head")
            store.close()
        }
        #expect(totalAcknowledged > 0, "the child must have acknowledged appends across \(rounds) rounds")
    }

    @Test("a commit that fails because the file cannot grow (as on a full disk) does not crash and loses nothing")
    func failedCommitOnFullFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let binary = try BuiltProduct.path("paylog-torture")
        let storePath = dir.path + "/store"
        let ackPath = dir.path + "/acks.txt"
        let output = Pipe()
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: binary)
        child.arguments = ["fill", storePath, ackPath, String(1_500_000)]
        child.standardOutput = output
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationReason == .exit)
        #expect(child.terminationStatus == 0, "\(text)")
        #expect(text.contains("FAILED after"))
        #expect(text.contains("nothing of this write was acknowledged"))
        // Reopened without the limit, every acknowledged append is there and the store accepts more.
        let acks = try acknowledgements(ackPath)
        #expect(acks.count > 10)
        let store = try EventStore(path: storePath)
        #expect(try store.lastPosition() == UInt64(acks.count))
        for ack in acks { #expect(try store.event(at: ack.first)?.id == ack.firstID) }
        let more = try store.appendBlocking([StoreFixtures.event()], to: "after")
        #expect(more.positions.lowerBound == UInt64(acks.count) + 1)
        #expect(try store.verifyChain().isIntact)
        store.close()
    }
}
