import Foundation
import PaylogStore
import Testing
import TestSupport

/// `import-log` refuses what an append refuses, and times paylog cannot record, before anything is written.
@Suite("Import: envelope checks")
struct ImportCheckTests {
    /// The store's own export of one event appended with `observedAt`, correctly hashed (the store takes any time
    /// through its append API), read back as an import reads it.
    static func exported(observedAt: Timestamp, in dir: TemporaryDirectory) async throws -> (ExportLine, RecordedEvent) {
        let store = try EventStore(path: dir.path + "/source")
        defer { store.close() }
        let event = NewEvent(id: UUID(), type: "Tick", payload: Data("p".utf8), observedAt: observedAt, actor: "test")
        _ = try await store.append([event], to: "pay-1")
        let recorded = try #require(try store.readStream("pay-1").first)
        return (try ExportLine(recorded), recorded)
    }

    @Test("an observed time outside 0000–9999 is refused naming the field, from the line and by the store, and nothing is written",
          arguments: [Int64.min, -62_167_219_200_000_001, 253_402_300_800_000_000, Int64.max])
    func outOfRangeTime(_ microseconds: Int64) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (line, recorded) = try await Self.exported(observedAt: Timestamp(microseconds: microseconds), in: dir)
        do {
            _ = try line.recordedEvent()
            Issue.record("accepted observed_at_us \(microseconds)")
        } catch {
            #expect("\(error)".contains("observed_at_us \(microseconds) is outside the times paylog records"), "\(error)")
        }
        let target = try EventStore(path: dir.path + "/target")
        defer { target.close() }
        do {
            try await target.importEvents([recorded])
            Issue.record("imported observed_at_us \(microseconds)")
        } catch {
            #expect("\(error)".contains("observed_at_us"), "\(error)")
        }
        #expect(try target.lastPosition() == 0)
    }

    @Test("the first and last recordable times import")
    func edgeTimes() async throws {
        for microseconds in [Timestamp.earliestRecordable.microseconds, Timestamp.latestRecordable.microseconds] {
            let dir = TemporaryDirectory()
            defer { dir.remove() }
            let (line, _) = try await Self.exported(observedAt: Timestamp(microseconds: microseconds), in: dir)
            let target = try EventStore(path: dir.path + "/target")
            defer { target.close() }
            try await target.importEvents([try line.recordedEvent()])
            #expect(try target.lastPosition() == 1)
        }
    }

    @Test("a stream id an append refuses (empty, over 200 bytes) is refused by the import naming the stream, nothing written",
          arguments: ["", String(repeating: "s", count: 300)])
    func badStreamID(_ stream: String) async throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var (line, recorded) = try await Self.exported(observedAt: Timestamp(microseconds: 1_795_000_000_000_000), in: dir)
        line.stream = stream
        do {
            _ = try line.recordedEvent()
            Issue.record("accepted stream of \(stream.utf8.count) bytes")
        } catch {
            #expect("\(error)".contains("cannot be a stream id"), "\(error)")
        }
        recorded.streamID = stream
        let target = try EventStore(path: dir.path + "/target")
        defer { target.close() }
        do {
            try await target.importEvents([recorded])
            Issue.record("imported stream of \(stream.utf8.count) bytes")
        } catch {
            #expect("\(error)".contains("position 1") && "\(error)".contains("cannot be a stream id"), "\(error)")
        }
        #expect(try target.lastPosition() == 0)
    }
}
