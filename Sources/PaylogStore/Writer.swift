import Foundation
import Synchronization
import LMDBKit

/// The one thread that owns every write transaction of an event store.
///
/// Appends from any number of tasks queue here. The thread takes everything queued, runs each append inside
/// one write transaction (each keeps its own expected-version check and its own success or failure), commits
/// once with fsync, then answers every caller: group commit. While one commit is on its way to disk, the next
/// group gathers, so no caller waits for more than the commit in flight plus its own — and at most half a commit
/// more while the writer lets callers it has just answered join the next group (``CommitGathering``).
///
/// That gathering overlaps the group's writing: the writer opens the transaction with the appends already queued,
/// writes them, and takes the callers still coming back as they arrive, polling the queue without sleeping (each
/// wake-up through the condition cost as much as it saved), until the group is as large as the last one or the wait
/// runs out. On two cores the callers coming back and the writer then share the time the writer used to spend
/// asleep (Docs/performance.md, *append-concurrent*).
///
/// Write sessions (``EventStore/withWriteSession(_:)``) are grouped the same way: the sessions queued together run one
/// after the other in one write transaction and share its fsync, each with its own checks and outcome. A session
/// group stops taking more once it has run for ``sessionGroupSeconds``, so that appends waiting behind it are not
/// held longer than that and one session, and once its sessions have appended ``sessionGroupEvents`` events. (After a
/// storage failure, rare, its sessions may run again one transaction each before the appends: see
/// ``commitSessions(startingWith:joining:)``.)
///
/// Appends and other work take turns: after a session or a task has run, every append queued meanwhile, wherever it
/// stands in the queue, is committed before the next session or task; after a group of appends, the next session
/// or task runs. So a till's append waits behind at most one session group however many uploads are queued, and
/// an upload's batch behind at most one group of appends. Jobs queued by one caller cannot overtake each other:
/// a caller awaits each before it queues the next.
///
/// Appends share the transaction without nested transactions (a nested LMDB transaction allocates its own page
/// lists and copies every page it touches: most of a one-event append's CPU time). An append is refused by its
/// checks (idempotency, expected version) before it writes anything, so a refusal leaves nothing behind. A
/// failure after it began writing (a projection refusing its event) aborts the whole transaction; the group then
/// runs again without that append, which alone gets the error.
final class Writer: @unchecked Sendable {
    private let environment: Environment
    private let databases: StoreDatabases
    private let condition = MonotonicCondition()
    /// Guarded by `condition`.
    private var queue: [WriterJob] = []
    /// The appends in `queue`. Guarded by `condition`.
    private var queuedAppends = 0
    /// Guarded by `condition`.
    private var stopping = false
    /// Guarded by `condition`.
    private var stopped = false
    private let maximumGroup: Int
    /// How long a group of sessions goes on taking the sessions queued behind it, in seconds: once its sessions
    /// have run this long, it commits. Tests that line sessions up set it longer (``setSessionGroupSeconds(_:)``).
    private let sessionGroupBudget: Mutex<Double>
    /// ``sessionGroupBudget``'s value.
    var sessionGroupSeconds: Double { sessionGroupBudget.withLock { $0 } }

    /// The most sessions run in one transaction.
    static let maximumSessionGroup = 256
    /// A group of sessions takes no more once its sessions have appended this many events. Sharing an fsync pays
    /// while the sessions are short; past this, answering more callers at once cost more than the fsync it saved
    /// (they come back together and leave the writer idle between groups): with four clients sending 64-line
    /// bodies to `paylog serve`, groups without this limit recorded 14–19 % fewer lines a second than one session
    /// per commit, and with it as many (Docs/performance.md, *HTTP JSON Lines bodies*).
    static let sessionGroupEvents = 128

    /// Batch sizes of recent commits, for metrics.
    let statistics = WriterStatistics()

    /// - Parameter sessionGroupSeconds: how long a group of write sessions takes more sessions (10 ms by default:
    ///   about what recording 1,024 ingested lines takes).
    init(environment: Environment, databases: StoreDatabases, maximumGroup: Int = 4096, sessionGroupSeconds: Double = 0.01) {
        self.environment = environment
        self.databases = databases
        self.maximumGroup = maximumGroup
        self.sessionGroupBudget = Mutex(sessionGroupSeconds)
        let thread = Thread { [self] in run() }
        thread.name = "paylog-writer"
        thread.start()
    }

    /// Sets how long a group of sessions takes more sessions (for tests whose sessions must join a group however
    /// slowly the machine runs them).
    func setSessionGroupSeconds(_ seconds: Double) {
        sessionGroupBudget.withLock { $0 = seconds }
    }

    /// The jobs queued and not yet taken (for tests that line jobs up behind a busy writer).
    var queuedJobs: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.count
    }

    /// Queues `request`. Fails it at once when the writer is stopping.
    func submit(_ request: AppendRequest) {
        enqueue(.append(request))
    }

    /// Queues `task` to run on the writer thread between groups of appends (it opens its own transactions).
    func submitTask(_ task: @escaping @Sendable () -> Void) {
        enqueue(.task(task))
    }

    /// Queues a write session, to run in one transaction with the sessions queued beside it. Fails it at once with
    /// `closed` when the writer is stopping.
    func submitSession(_ session: SessionJob) {
        enqueue(.session(session))
    }

    private func enqueue(_ job: WriterJob) {
        condition.lock()
        if stopping {
            condition.unlock()
            switch job {
            case .append(let request): request.completion(.failure(.closed))
            case .task(let task): task()
            case .session(let session): session.fail(.closed)
            }
            return
        }
        queue.append(job)
        if case .append = job { queuedAppends += 1 }
        condition.signal()
        condition.unlock()
    }

    /// Finishes every queued append, then stops the thread. Returns when it has stopped.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func run() {
        statistics.writerStarted()
        var gathering = CommitGathering()
        // Whether the last job run was a session group or a task: appends queued behind the next one go first.
        var appendsFirst = false
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty {
                statistics.writerStopping()
                stopped = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let appendsTurn: Bool
            if case .append = queue[0] { appendsTurn = true } else { appendsTurn = appendsFirst && queuedAppends > 0 }
            appendsFirst = !appendsTurn
            if !appendsTurn {
                let job = queue.removeFirst()
                condition.unlock()
                switch job {
                case .task(let task): task()
                case .session(let session): commitSessions(startingWith: session)
                case .append: preconditionFailure("an append is taken in its turn")
                }
                continue
            }
            var gatheringLimit: (count: Int, deadline: UInt64)?
            if !stopping,
                case .wait(let count, let seconds) = gathering.decide(queued: queuedAppends, maximumGroup: maximumGroup)
            {
                statistics.recordGatheringWait()
                gatheringLimit = (count, MonotonicCondition.now() + UInt64(seconds * 1e9))
            }
            var group = takeAppends(upTo: maximumGroup)
            condition.unlock()
            let start = MonotonicCondition.now()
            var waited: UInt64 = 0
            let outcomes = commit(&group) { taken in
                guard let limit = gatheringLimit else { return [] }
                let began = MonotonicCondition.now()
                defer { waited += MonotonicCondition.now() - began }
                return self.gatherMore(taken: taken, limit: limit)
            }
            let seconds = Double(MonotonicCondition.now() - start - waited) / 1e9
            // Count the appends that queued during the commit before answering its callers: an answered caller
            // that appends again at once must not be counted twice, or a lone caller appending in a loop would
            // make the writer wait for a second caller that does not exist (half a commit per append).
            condition.lock()
            gathering.committed(answered: group.count, queuedMeanwhile: queuedAppends, seconds: seconds)
            condition.unlock()
            for (request, outcome) in zip(group, outcomes) {
                request.completion(outcome)
            }
        }
    }

    /// Removes and returns the queued appends, oldest first, wherever they stand in the queue, at most `limit`.
    /// Call with the lock held.
    private func takeAppends(upTo limit: Int) -> [AppendRequest] {
        var group: [AppendRequest] = []
        group.reserveCapacity(Swift.min(limit, queuedAppends))
        if queuedAppends == queue.count {
            for case .append(let request) in queue.prefix(limit) { group.append(request) }
            queue.removeFirst(group.count)
        } else {
            var rest: [WriterJob] = []
            rest.reserveCapacity(queue.count)
            for job in queue {
                if case .append(let request) = job, group.count < limit { group.append(request) } else { rest.append(job) }
            }
            queue = rest
        }
        queuedAppends -= group.count
        return group
    }

    /// Removes and returns the session at the head of the queue, if one is there. Call with the lock held.
    private func takeSession() -> SessionJob? {
        guard let first = queue.first, case .session(let session) = first else { return nil }
        queue.removeFirst()
        return session
    }

    /// Runs `first` and the sessions queued behind it (while they come next, for ``sessionGroupSeconds`` and up to
    /// ``sessionGroupEvents`` events appended) in one write transaction, commits it once, and answers each caller.
    ///
    /// A session whose body throws, or whose append fails after it began writing, has written into the shared
    /// transaction: it is aborted and runs again, without that session (answered with its error) or with that
    /// append failing at once, as a lone session would; each such failure costs the group one more run. When the
    /// transaction fails as a whole (its commit, or a storage error such as a map that cannot grow further), each
    /// session runs again in a transaction of its own (`joining` false), so that one session's failure is not
    /// blamed on the others; so does, after the group, a session whose own append met a storage error in the shared
    /// transaction (it may not have met it alone).
    private func commitSessions(startingWith first: SessionJob, joining: Bool = true) {
        var group = [first]
        var failedLate: [[Int: EventStoreError]] = [[:]]
        var leftOut: [Int: EventStoreError] = [:]
        // Sessions left out for a storage error of their own append (a transaction too large, say), which the others'
        // writes in the shared transaction may have caused: each runs again alone after the group.
        var aloneAfter: Set<Int> = []
        let start = MonotonicCondition.now()
        let budget = UInt64(max(sessionGroupSeconds, 0) * 1e9)
        var eventsAppended = 0
        var answers: [(@Sendable () -> Void)?] = []
        while true {
            do {
                answers = try environment.write { txn in
                    try withUnsafePointer(to: txn) { pointer in
                        var answers: [(@Sendable () -> Void)?] = []
                        eventsAppended = 0
                        var index = 0
                        while true {
                            if index == group.count {
                                // A run again (after a session failed) may take more too, within the same time.
                                guard joining, group.count < Writer.maximumSessionGroup, eventsAppended < Writer.sessionGroupEvents,
                                    MonotonicCondition.now() - start < budget
                                else { break }
                                condition.lock()
                                let next = stopping ? nil : takeSession()
                                condition.unlock()
                                guard let next else { break }
                                group.append(next)
                                failedLate.append([:])
                            }
                            defer { index += 1 }
                            guard leftOut[index] == nil else {
                                answers.append(nil)
                                continue
                            }
                            let session = try WriteSession(pointer, databases: databases, failedLate: failedLate[index])
                            defer { session.close() }
                            let result = Result { try group[index].run(session) }
                            // A poisoned run holds part of an append's writes: abort it, whatever the body did.
                            if let late = session.lateFailure { throw SessionFailure.late(index: index, late) }
                            switch result {
                            case .success(let answer): answers.append(answer)
                            case .failure(let error): throw SessionFailure.body(index: index, error)
                            }
                            try session.finish()
                            eventsAppended += session.eventsAppended
                        }
                        return answers
                    }
                }
            } catch SessionFailure.late(let index, let late) {
                switch late.error {
                case .storage:
                    leftOut[index] = late.error
                    if group.count > 1 { aloneAfter.insert(index) }
                case .closed: leftOut[index] = late.error
                default: failedLate[index][late.index] = late.error
                }
                continue
            } catch SessionFailure.body(let index, let error) {
                leftOut[index] = .wrapping(error)
                continue
            } catch {
                // The transaction as a whole failed (its commit, or a storage error no session was blamed for, such
                // as a map that cannot grow any further): run each session again on its own, so that only those
                // that fail alone fail.
                if group.count > 1 {
                    // Sessions left out for their own body's error answered without a transaction.
                    statistics.recordSessions(leftOut.count - aloneAfter.count, transactions: 0)
                    for (index, session) in group.enumerated() {
                        if let error = leftOut[index], !aloneAfter.contains(index) {
                            session.fail(error)
                        } else {
                            commitSessions(startingWith: session, joining: false)
                        }
                    }
                    return
                }
                statistics.recordSessions(1)
                first.fail(leftOut[0] ?? .wrapping(error))
                return
            }
            break
        }
        statistics.recordSessions(group.count - aloneAfter.count)
        statistics.observe(eventsAppended: eventsAppended)
        for (index, session) in group.enumerated() {
            if let answer = answers[index] {
                answer()
            } else if aloneAfter.contains(index) {
                commitSessions(startingWith: session, joining: false)
            } else {
                session.fail(leftOut[index] ?? .closed)
            }
        }
    }

    /// While a group's transaction is open with `taken` appends written: returns the appends that have queued since
    /// (at least one), polling without sleeping until `limit.deadline`; none when the group is complete
    /// (`limit.count`) or the deadline passed.
    private func gatherMore(taken: Int, limit: (count: Int, deadline: UInt64)) -> [AppendRequest] {
        let remaining = min(limit.count, maximumGroup) - taken
        guard remaining > 0 else { return [] }
        while true {
            condition.lock()
            if stopping {
                condition.unlock()
                return []
            }
            if !queue.isEmpty {
                let more = takeAppends(upTo: remaining)
                condition.unlock()
                return more
            }
            condition.unlock()
            if MonotonicCondition.now() >= limit.deadline { return [] }
            sched_yield()
        }
    }

    /// Appends a group in one durable write transaction and returns each caller's outcome, in order.
    private func commit(
        _ group: inout [AppendRequest], gather: (Int) -> [AppendRequest]
    ) -> [Result<AppendResult, EventStoreError>] {
        var outcomes: [Result<AppendResult, EventStoreError>] = []
        // Appends that failed after they began writing: the group runs again without them.
        var failedLate: [Int: EventStoreError] = [:]
        // Only the first attempt gathers: a transaction run again writes the group as it stands.
        var gathers = true
        while true {
            do {
                outcomes = try environment.write { txn in
                    defer { gathers = false }
                    return try Writer.appendGroup(
                        &group, skipping: failedLate, in: txn, databases: databases) { gathers ? gather($0) : [] }
                }
            } catch let late as LateAppendFailure {
                failedLate[late.index] = late.error
                continue
            } catch let error as LMDBError {
                outcomes = Array(repeating: .failure(.storage(error)), count: group.count)
            } catch let error as EventStoreError {
                outcomes = Array(repeating: .failure(error), count: group.count)
            } catch {
                outcomes = Array(repeating: .failure(.storage(.lmdb(code: -1, operation: "\(error)"))), count: group.count)
            }
            break
        }
        // Only what the commit wrote: appends refused by their checks, or already recorded, wrote nothing.
        let eventsAppended = outcomes.reduce(0) { sum, outcome in
            guard case .success(let result) = outcome, !result.wasAlreadyRecorded else { return sum }
            return sum + result.positions.count
        }
        statistics.record(groupSize: group.count, eventsAppended: eventsAppended)
        return outcomes
    }

    /// Appends each request of `group` in `txn`, except those in `skipping` (answered with their error).
    /// Throws ``LateAppendFailure`` when an append fails after it began writing: the caller aborts `txn`.
    static func appendGroup(
        _ group: inout [AppendRequest], skipping failedLate: [Int: EventStoreError], in txn: borrowing Transaction,
        databases: StoreDatabases, gather: (Int) -> [AppendRequest] = { _ in [] }
    ) throws -> [Result<AppendResult, EventStoreError>] {
        var results: [Result<AppendResult, EventStoreError>] = []
        results.reserveCapacity(group.count)
        var head = try ChainHead.loadForAppend(txn, databases)
        let recordedAt = Timestamp.now()
        var index = -1
        while true {
            index += 1
            if index == group.count {
                let more = gather(group.count)
                guard !more.isEmpty else { break }
                group.append(contentsOf: more)
            }
            let request = group[index]
            if let error = failedLate[index] {
                results.append(.failure(error))
                continue
            }
            let plan: AppendPlan
            do {
                plan = try Writer.plan(request, in: txn, databases: databases)
            } catch let error as EventStoreError {
                results.append(.failure(error))
                continue
            }
            switch plan {
            case .alreadyRecorded(let result):
                results.append(.success(result))
            case .write(let currentVersion):
                do {
                    let (result, newHead) = try Writer.write(
                        request, after: currentVersion, in: txn, databases: databases, head: head, recordedAt: recordedAt)
                    head = newHead
                    results.append(.success(result))
                } catch let error as LMDBError {
                    throw error
                } catch {
                    throw LateAppendFailure(index: index, error: .wrapping(error))
                }
            }
        }
        try saveHead(head, in: txn, databases: databases)
        return results
    }

    /// Saves the chain head and, at its position, the checkpoint of every inline projection's live view — once per
    /// transaction, after its last append, instead of once per append and per event (two puts into `meta` each,
    /// a fifth of the puts of an ingested line). Live views are applied inline, so at the end of every write
    /// transaction they stand exactly at the head. Writes nothing when `head` is where the transaction found it.
    static func saveHead(_ head: ChainHead, in txn: borrowing Transaction, databases: StoreDatabases) throws {
        let stored = try ChainHead.load(txn, databases)
        guard stored.position != head.position else { return }
        try head.save(txn, databases)
        for projection in databases.projections {
            guard let active = databases.views.sets(of: projection.name).active else { continue }
            try ProjectionCheckpoint(version: projection.version, position: head.position, generation: active.generation)
                .save(projection.name, txn, databases.meta)
        }
    }

    /// The checks of an append, which write nothing: idempotency (ids already stored with the same content
    /// return the original positions) and optimistic concurrency.
    ///
    /// `knownAbsent`: an id the caller looked up in this transaction, found absent, and has written nothing since
    /// (``WriteSession``), so it is not looked up again.
    static func plan(
        _ request: AppendRequest, in txn: borrowing Transaction, databases: StoreDatabases, knownAbsent: UUID? = nil
    ) throws -> AppendPlan {
        let streamID = request.streamID
        var storedPositions: [UInt64] = []
        var firstKnown: UUID?
        for event in request.events where event.id != knownAbsent {
            let stored = try withUnsafeBytes(of: event.id.uuid) { key in
                try txn.withValue(forKeyBytes: key, in: databases.ids) { $0.map { StoreKeys.readUInt64($0) } }
            }
            if let position = stored {
                storedPositions.append(position)
                if firstKnown == nil { firstKnown = event.id }
            }
        }
        if let firstKnown {
            // (An id known to be absent is not in `storedPositions`: such an append is a conflict.)
            guard storedPositions.count == request.events.count else {
                throw EventStoreError.idempotencyConflict(
                    eventID: firstKnown,
                    reason: "\(storedPositions.count) of the append's \(request.events.count) events are already recorded")
            }
            return .alreadyRecorded(try alreadyRecorded(request, positions: storedPositions, in: txn, databases: databases))
        }
        let currentVersion = try StreamTail.read(streamID, in: txn, databases: databases).version
        guard request.expected.accepts(actual: currentVersion) else {
            throw EventStoreError.wrongExpectedVersion(stream: streamID, expected: request.expected, actual: currentVersion)
        }
        return .write(currentVersion: currentVersion)
    }

    /// The writes of an append whose checks passed: each event's record and index entries, extending the hash
    /// chain, the inline projections and the chain head.
    static func write(
        _ request: AppendRequest, after currentVersion: UInt64, in txn: borrowing Transaction,
        databases: StoreDatabases, head: ChainHead, recordedAt: Timestamp
    ) throws -> (AppendResult, ChainHead) {
        let streamID = request.streamID
        var chain = head
        var version = currentVersion
        for event in request.events {
            version += 1
            let position = chain.position + 1
            let hash = try put(
                event, streamID: streamID, version: version, position: position, recordedAt: recordedAt,
                previous: chain.hash, in: txn, databases: databases)
            chain = ChainHead(position: position, hash: hash)
            if !databases.projections.isEmpty {
                let recorded = RecordedEvent(
                    event, streamID: streamID, version: version, position: position, recordedAt: recordedAt, hash: hash)
                try applyProjections(recorded, decided: request.decided, in: txn, databases: databases)
            }
        }
        try putVersions(
            streamID: streamID, firstVersion: currentVersion + 1, positions: (head.position + 1)...chain.position,
            in: txn, databases: databases)
        // The chain head and the live views' checkpoints are saved once, when the transaction's appends are done
        // (``saveHead(_:in:databases:)``).
        return (
            AppendResult(
                streamID: streamID, positions: (head.position + 1)...chain.position,
                versions: (currentVersion + 1)...version, wasAlreadyRecorded: false),
            chain
        )
    }

    /// Writes one event's record straight into the page LMDB reserves for it (no buffer of its own, hashed in
    /// place) and its `ids` index entry, and returns its chain hash. The caller writes the append's `versions`
    /// entries (``putVersions(streamID:firstVersion:positions:in:databases:)``) and the chain head. When
    /// it throws, `txn` may hold part of the writes: the caller aborts it.
    static func put(
        _ event: NewEvent, streamID: String, version: UInt64, position: UInt64, recordedAt: Timestamp,
        previous: ChainDigest, in txn: borrowing Transaction, databases: StoreDatabases
    ) throws -> ChainDigest {
        try withUnsafeBytes(of: position.bigEndian) { positionKey in
            let hash = try event.payload.withUnsafeBytes { payload in
                try databases.payloads.withCompressed(payload) { compressed in
                    let size = RecordCodec.storedSize(
                        event, streamID: streamID, version: version, position: position, recordedAt: recordedAt,
                        compressed: compressed)
                    return try txn.reserve(size, forKeyBytes: positionKey, in: databases.events, append: true) { value in
                        RecordCodec.writeStoredValue(
                            event, streamID: streamID, version: version, position: position, recordedAt: recordedAt,
                            compressed: compressed, previous: previous, into: value)
                    }
                }
            }
            try withUnsafeBytes(of: event.id.uuid) { try txn.put(bytes: positionKey, forKeyBytes: $0, in: databases.ids) }
            if let tags = event.tags, !tags.isEmpty {
                try putTags(tags, streamID: streamID, position: position, in: txn, databases: databases)
            }
            return hash
        }
    }

    /// Points each of `tags` at `streamID` and `position` in `tag-index` (position u64 BE · stream id): the last event
    /// declaring a tag is the one appended last, so a put replaces what an earlier event left.
    static func putTags(
        _ tags: [String], streamID: String, position: UInt64, in txn: borrowing Transaction, databases: StoreDatabases
    ) throws {
        let value = TaggedEvent(streamID: streamID, position: position).encoded
        for tag in tags {
            try txn.put(value, for: Array(tag.utf8), in: databases.tags)
        }
    }

    /// Writes one already encoded record and its `versions`, `ids` and `tag-index` entries (the caller updates the
    /// chain head).
    static func put(
        value: [UInt8], id: UUID, streamID: String, version: UInt64, position: UInt64, tags: [String]?,
        in txn: borrowing Transaction, databases: StoreDatabases
    ) throws {
        try withUnsafeBytes(of: position.bigEndian) { positionKey in
            try value.withUnsafeBytes { try txn.put(bytes: $0, forKeyBytes: positionKey, in: databases.events, append: true) }
            try putVersions(streamID: streamID, firstVersion: version, positions: position...position, in: txn, databases: databases)
            try withUnsafeBytes(of: id.uuid) { try txn.put(bytes: positionKey, forKeyBytes: $0, in: databases.ids) }
        }
        if let tags, !tags.isEmpty { try putTags(tags, streamID: streamID, position: position, in: txn, databases: databases) }
    }

    /// Adds the positions of versions `firstVersion`, `firstVersion + 1`, … of stream `streamID` to `versions`
    /// (``StoreKeys/versionsKey(_:chunk:)``): each chunk the versions fall in is read (when it already holds
    /// earlier versions), extended and written once, so an append of many events costs one put per 64 of them.
    static func putVersions(
        streamID: String, firstVersion: UInt64, positions: ClosedRange<UInt64>, in txn: borrowing Transaction,
        databases: StoreDatabases
    ) throws {
        let name = streamID
        var streamID = streamID
        try streamID.withUTF8 { utf8 in
            let chunkBytes = Int(StoreKeys.versionsPerChunk) * 8
            try withUnsafeTemporaryAllocation(byteCount: StoreKeys.versionsKeySize(idBytes: utf8.count) + chunkBytes, alignment: 8) {
                buffer in
                let chunkBuffer = UnsafeMutableRawBufferPointer(rebasing: buffer[..<chunkBytes])
                let key = UnsafeMutableRawBufferPointer(rebasing: buffer[chunkBytes...])
                var version = firstVersion
                var next = positions.lowerBound
                while next <= positions.upperBound {
                    let (chunk, index) = StoreKeys.chunk(of: version)
                    let count = Int(min(StoreKeys.versionsPerChunk - UInt64(index), positions.upperBound - next + 1))
                    StoreKeys.writeVersionsKey(id: UnsafeRawBufferPointer(utf8), chunk: chunk, into: key)
                    if index > 0 {
                        // The chunk's earlier positions, copied out: the put below may move the page they are on.
                        let found = try txn.withValue(forKeyBytes: UnsafeRawBufferPointer(key), in: databases.versions) { value -> Bool in
                            guard let value, value.count == index * 8 else { return false }
                            chunkBuffer.copyMemory(from: value)
                            return true
                        }
                        guard found else {
                            throw EventStoreError.corruptRecord(
                                position: next, reason: "the versions index of stream \(name) does not hold the \(index) versions before \(version)")
                        }
                    }
                    for offset in 0..<count {
                        chunkBuffer.storeBytes(of: (next + UInt64(offset)).bigEndian, toByteOffset: (index + offset) * 8, as: UInt64.self)
                    }
                    try txn.put(
                        bytes: UnsafeRawBufferPointer(rebasing: chunkBuffer[..<((index + count) * 8)]),
                        forKeyBytes: UnsafeRawBufferPointer(key), in: databases.versions)
                    version += UInt64(count)
                    next += UInt64(count)
                }
            }
        }
    }

    /// Applies `event` to every inline projection's live view and advances its checkpoint; also to a green view
    /// being rebuilt when that has caught up to just before `event` (otherwise its catch-up will reach it).
    /// A projection's own errors become ``EventStoreError/projectionRefused(projection:eventID:reason:)``.
    /// `decided`: the appender's in-memory form of the append, for the live views (see
    /// ``InlineProjection/apply(_:decided:in:databases:)``).
    static func applyProjections(
        _ event: RecordedEvent, decided: (any Sendable)? = nil, in txn: borrowing Transaction, databases: StoreDatabases
    ) throws {
        for projection in databases.projections {
            do {
                try applyProjection(projection, event, decided: decided, in: txn, databases: databases)
            } catch let error as LMDBError {
                throw error
            } catch let error as EventStoreError {
                throw error
            } catch {
                throw EventStoreError.projectionRefused(projection: projection.name, eventID: event.id, reason: "\(error)")
            }
        }
    }

    private static func applyProjection(
        _ projection: any InlineProjection, _ event: RecordedEvent, decided: (any Sendable)?, in txn: borrowing Transaction,
        databases: StoreDatabases
    ) throws {
        let (active, green) = databases.views.sets(of: projection.name)
        if let active {
            let view = ProjectionDatabases(byName: active.databases)
            if let decided {
                try projection.apply(event, decided: decided, in: txn, databases: view)
            } else {
                try projection.apply(event, in: txn, databases: view)
            }
            // Its checkpoint moves with the chain head, once per transaction (``saveHead(_:in:databases:)``).
        }
        if let green, var checkpoint = try ProjectionCheckpoint.load(projection.name, txn, databases.meta, green: true),
            checkpoint.position == event.position - 1
        {
            try projection.apply(event, in: txn, databases: ProjectionDatabases(byName: green.databases))
            checkpoint.position = event.position
            try checkpoint.save(projection.name, txn, databases.meta, green: true)
        }
    }

    /// The result of re-appending events that are all already stored, or the conflict that forbids it.
    private static func alreadyRecorded(
        _ request: AppendRequest, positions: [UInt64], in txn: borrowing Transaction, databases: StoreDatabases
    ) throws -> AppendResult {
        var versions: [UInt64] = []
        for (index, (event, position)) in zip(request.events, positions).enumerated() {
            let stored = try txn.withValue(for: StoreKeys.event(position), in: databases.events) { value in
                guard let value else { throw EventStoreError.corruptRecord(position: position, reason: "indexed but missing") }
                return try RecordCodec.decode(value, position: position, dictionaries: databases.payloads)
            }
            guard try RecordCodec.sameContent(stored, event, streamID: request.streamID) else {
                throw EventStoreError.idempotencyConflict(
                    eventID: event.id,
                    reason: "it is already recorded at position \(position) in stream \(stored.streamID) with different content")
            }
            if index > 0 && position != positions[index - 1] + 1 {
                throw EventStoreError.idempotencyConflict(
                    eventID: event.id, reason: "the events were recorded by different appends, not as one")
            }
            versions.append(stored.version)
        }
        return AppendResult(
            streamID: request.streamID, positions: positions.first!...positions.last!,
            versions: versions.first!...versions.last!, wasAlreadyRecorded: true)
    }
}
