import Foundation
import PaylogStore

/// The crash-test child process.
///
/// - `paylog-torture append STORE_DIR ACK_FILE SEED` appends forever from 8 tasks until killed, writing one line
///   per acknowledged append to ACK_FILE: `<first position> <last position> <first event id> <stream>`.
/// - `paylog-torture fill STORE_DIR ACK_FILE MAX_FILE_BYTES` limits file size (RLIMIT_FSIZE, like a full disk),
///   appends until a commit fails, prints the error, checks the store still reads and accepts nothing more that
///   would not fit, and exits 0 when the failure left it consistent.
@main
struct Torture {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 5, let number = UInt64(arguments[4]) else {
            FileHandle.standardError.write(Data("usage: paylog-torture append|fill STORE_DIR ACK_FILE SEED|BYTES\n".utf8))
            exit(2)
        }
        // Die with the test that started us: a crashed or interrupted test run must not leave an appender
        // running (one kept a core busy for minutes, skewing every measurement taken meanwhile). prctl's
        // PR_SET_PDEATHSIG is variadic C, out of Swift's reach, so watch for being handed to another parent.
        let parent = getppid()
        let watcher = Thread {
            while getppid() == parent { usleep(200_000) }
            exit(4)
        }
        watcher.start()
        let ack = open(arguments[3], O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard ack >= 0 else { exit(3) }
        switch arguments[1] {
        case "append":
            let store = try EventStore(path: arguments[2])
            await appendForever(store, ack: ack, seed: number)
        case "fill":
            exit(try fill(path: arguments[2], ack: ack, limit: number))
        default:
            exit(2)
        }
    }

    static func acknowledge(_ result: AppendResult, firstID: UUID, ack: Int32) {
        let line = "\(result.positions.lowerBound) \(result.positions.upperBound) \(firstID.uuidString) \(result.streamID)\n"
        _ = line.withCString { write(ack, $0, strlen($0)) }
    }

    static func appendForever(_ store: EventStore, ack: Int32, seed: UInt64) async {
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var round: UInt64 = 0
                    while true {
                        round += 1
                        let stream = "torture-\(seed)-\(worker)-\(round % 50)"
                        let count = Int((seed &+ round &* 7 &+ UInt64(worker)) % 5) + 1
                        let events = (0..<count).map { index in
                            NewEvent(
                                type: "Tick", payload: Data("worker \(worker) round \(round) event \(index)".utf8),
                                observedAt: .now(), actor: "torture")
                        }
                        guard let result = try? await store.append(events, to: stream) else { continue }
                        acknowledge(result, firstID: events[0].id, ack: ack)
                    }
                }
            }
        }
    }

    static func fill(path: String, ack: Int32, limit: UInt64) throws -> Int32 {
        signal(SIGXFSZ, SIG_IGN)
        var limits = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
        guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits) == 0 else { return 4 }
        let store = try EventStore(path: path)
        let payload = Data(repeating: 0x61, count: 2000)
        var appended = 0
        while true {
            let event = NewEvent(type: "Filler", payload: payload)
            do {
                let result = try store.appendBlocking([event], to: "filler-\(appended % 10)")
                acknowledge(result, firstID: event.id, ack: ack)
                appended += 1
            } catch {
                print("FAILED after \(appended) appends: \(error)")
                break
            }
            if appended > 100_000 { return 5 }
        }
        // The failed commit must leave the store readable and consistent.
        let last = try store.lastPosition()
        guard last == UInt64(appended) else {
            print("INCONSISTENT: head \(last), acknowledged \(appended)")
            return 6
        }
        let report = try store.verifyChain()
        print("AFTER: head \(last), chain \(report.isIntact ? "intact" : "broken")")
        return report.isIntact ? 0 : 7
    }
}
