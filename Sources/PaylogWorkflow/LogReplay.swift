import PaylogCompatibility
import PaylogStore

/// The whole-log replay: rebuilds every view from the log into scratch space with today's code, compares it
/// with the live views and the store's `tag-index`, `versions` (the stream index the audit and time travel read
/// through) and `ids` (the id index an append recognises a recorded observation by), checks that each event's declared tags are the routing keys
/// today's code reads from its payload, judges every request and callback, and verifies the hash chain.
public enum LogReplay {
    /// Runs the replay over `store`. `progress` gets (events done, events in the log) now and then.
    public static func run(_ store: EventStore, progress: (UInt64, UInt64) -> Void = { _, _ in }) throws -> ReplayReport {
        var judge = EvidenceJudge(rereading: store)
        var findings = FindingTally()
        // Where the store's own indexes (`tag-index`, `versions`) disagree with the log, found while replaying it.
        // The first 100 kept, all counted: a broken stream index differs at every event.
        var logDifferences: [ViewDifference] = []
        var logDifferenceCount = 0
        func note(_ difference: ViewDifference) {
            logDifferenceCount += 1
            if logDifferences.count < 100 { logDifferences.append(difference) }
        }
        let chain = try store.verifyChain()
        let payments = try store.readViews { txn, databases in try txn.count(databases["payments"]) }
        do {
            let rebuild = try ProjectionRebuild.run(store, eachEvent: { event in
                let decoded = try EventCodec.decode(event)
                if let declared = event.tags, declared != decoded.routingKeys {
                    note(ViewDifference(
                        database: "tag-index", key: "position \(event.position)",
                        kind: "declares \(declared) where its payload gives \(decoded.routingKeys)"))
                }
                // The stream index, through which `paylog stream`, the audit and time travel read a payment, must
                // give this event for its stream and version.
                let indexed = try store.indexedPosition(of: event.streamID, version: event.version)
                if indexed != event.position {
                    note(ViewDifference(
                        database: "versions", key: "\(event.streamID) v\(event.version)",
                        kind: indexed.map { "gives position \($0) where the event is at \(event.position)" }
                            ?? "has no entry for the event at position \(event.position)"))
                }
                // The id index, through which an append recognises an observation already recorded, must give it too.
                let identified = try store.indexedPosition(ofEventID: event.id)
                if identified != event.position {
                    note(ViewDifference(
                        database: "ids", key: event.id.uuidString.lowercased(),
                        kind: identified.map { "gives position \($0) where the event is at \(event.position)" }
                            ?? "has no entry for the event at position \(event.position) (the same observation could be recorded again)"))
                }
                findings.add(contentsOf: judge.judge(event, decoded: decoded).findings)
            }, progress: progress)
            // Counted in the snapshot the views were compared in, at the position the rebuild reached.
            let entries = rebuild.streamIndexEntries
            if entries != rebuild.events {
                note(ViewDifference(
                    database: "versions", key: "all streams",
                    kind: "holds \(entries) positions for \(rebuild.events) events"))
            }
            return ReplayReport(
                events: rebuild.events, payments: rebuild.liveRowCounts["payments"] ?? payments, differences: Array((logDifferences + rebuild.differences).prefix(100)),
                differenceCount: logDifferenceCount + rebuild.differenceCount, chain: chain, findings: findings,
                rebuildError: nil)
        } catch {
            // An event today's code cannot read: the views cannot be rebuilt. Report it, with the chain check.
            return ReplayReport(
                events: 0, payments: payments, differences: [], differenceCount: 1, chain: chain, findings: findings,
                rebuildError: "\(error)")
        }
    }
}
