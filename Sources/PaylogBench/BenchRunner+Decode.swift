import PaylogDomain
import PaylogStore
import PaylogWorkflow

extension BenchRunner {
    /// `decode`: reads every event of the shared payment log, as `scan` does, and decodes each payload into the
    /// domain's ``PaylogDomain/PaymentEvent`` with ``PaylogWorkflow/EventCodec/decode(_:)`` (decompressed, every
    /// field read, the evidence's strings built), on one thread, no projection. It is the work the Python peer's
    /// "replay" does over its log (`select_notifications` and `to_domain_event`: read each stored event and
    /// deserialize it into its domain event, applying it to nothing), so `events_per_s` compares with the peer's
    /// `replay_events_per_s` like for like; the `replay` scenario rebuilds every view besides. One latency sample is
    /// one page of 10,000 events. No raw-LMDB baseline: the raw scan is `scan`'s.
    func decode() async throws(BenchError) -> BenchResult {
        let log = try await sharedPaymentLog()
        progress("decode: reading \(log.events) events and decoding their payloads into payment events …")
        var kinds: [PaymentEventKind: Int] = [:]
        let read = try readEveryEvent(of: log, step: "decoding the log's events") { event in
            kinds[try EventCodec.decode(event).kind, default: 0] += 1
        }
        guard kinds.count > 1 else {
            throw .failed(step: "decoding the log's events", reason: "every event decoded to \(kinds.keys.map(\.typeName))")
        }
        var details = ["event_kinds": Double(kinds.count)]
        for (kind, count) in kinds { details["decoded_\(kind.typeName)"] = Double(count) }
        return read.result(.decode, log: log, details: details)
    }
}
