import Foundation
import LMDBKit
import PaylogStore
import Synchronization

/// Durable `Idempotency-Key` records: per API key, the first response to each key, so that a retried POST
/// returns it and appends nothing.
///
/// Answers below 500 are kept (a 4xx for a bad request is as final as a success); a 5xx is not, so a retry
/// after a failure runs again, and neither is a transient 4xx such as `409 contention` (``ServiceError/isTransient``:
/// the caller abandons its claim instead). Two requests with one key at the same moment: the second gets 409 until the
/// first is answered. The same key with a different method, path or body is refused with 422.
///
/// If the process dies between the append and storing the answer, the client saw no answer and retries; the retry
/// runs again and appends nothing, because every event id is derived from the observation, its observed time
/// included. A request without `at` is observed when it was first received: that time is claimed durably
/// (``IdempotencyClaim``) before the request is handled, and a retry is handled with it.
final class IdempotencyStore: Sendable {
    let database: ServiceDatabase
    private let inFlight = Mutex<Set<String>>([])

    init(database: ServiceDatabase) {
        self.database = database
    }

    /// What to do with a request carrying `key`.
    enum Decision {
        /// Run the request, observed at `receivedAt` when it gives no `at`, then call ``finish(owner:key:response:)``.
        case proceed(receivedAt: Timestamp)
        /// Answer this stored response again.
        case replay(StoredResponse)
    }

    /// Looks `key` up for `owner` and claims it when new, received at `now`; a key claimed by an attempt that got no
    /// answer (the server died) proceeds with that attempt's time.
    func begin(owner: String, key: String, fingerprint: String, now: Timestamp = .now()) throws(ServiceError) -> Decision {
        let recordKey = IdempotencyStore.recordKey(owner: owner, key: key)
        let claimKey = IdempotencyStore.claimKey(recordKey)
        let stored: StoredResponse?
        let earlier: IdempotencyClaim?
        do {
            (stored, earlier) = try database.environment.read { txn in
                let stored = try txn.value(for: recordKey, in: database.idempotency).map {
                    try JSONDecoder().decode(StoredResponse.self, from: Data($0))
                }
                let claim = try txn.value(for: claimKey, in: database.idempotency).map {
                    try JSONDecoder().decode(IdempotencyClaim.self, from: Data($0))
                }
                return (stored, claim)
            }
        } catch {
            throw ServiceError(.serviceUnavailable, code: "unavailable", "The idempotency records cannot be read; retry later.")
        }
        if let firstFingerprint = stored?.fingerprint ?? earlier?.fingerprint, firstFingerprint != fingerprint {
            throw ServiceError(
                .unprocessableContent, code: "idempotency_key_reused",
                "Idempotency-Key \"\(key)\" was first used for a different request (method, path or body); use a new key for a new request.")
        }
        if let stored { return .replay(stored) }
        let claimed = inFlight.withLock { $0.insert(String(decoding: recordKey, as: UTF8.self)).inserted }
        guard claimed else {
            throw ServiceError(
                .conflict, code: "idempotency_key_in_use",
                "A request with Idempotency-Key \"\(key)\" is still being handled; retry after it is answered.")
        }
        if let earlier { return .proceed(receivedAt: Timestamp(microseconds: earlier.receivedAtMicroseconds)) }
        do {
            let claim = try JSONEncoder().encode(IdempotencyClaim(fingerprint: fingerprint, receivedAtMicroseconds: now.microseconds))
            try database.environment.write { txn in try txn.put(Array(claim), for: claimKey, in: database.idempotency) }
        } catch {
            _ = inFlight.withLock { $0.remove(String(decoding: recordKey, as: UTF8.self)) }
            throw ServiceError(
                .serviceUnavailable, code: "unavailable",
                "The Idempotency-Key could not be recorded (\(error)); nothing was recorded, retry later.")
        }
        return .proceed(receivedAt: now)
    }

    /// Stores the answer to a claimed key (when below 500), which replaces its claim, and releases the key.
    func finish(owner: String, key: String, response: StoredResponse) {
        let recordKey = IdempotencyStore.recordKey(owner: owner, key: key)
        defer { _ = inFlight.withLock { $0.remove(String(decoding: recordKey, as: UTF8.self)) } }
        guard response.status < 500, let bytes = try? JSONEncoder().encode(response) else { return }
        _ = try? database.environment.write { txn in
            try txn.put(Array(bytes), for: recordKey, in: database.idempotency)
            _ = try txn.delete(IdempotencyStore.claimKey(recordKey), in: database.idempotency)
        }
    }

    /// Releases a claimed key without storing an answer (the request failed before it had one, or its answer is
    /// too large to keep). The claim's time stays, so a retry is observed when the first attempt was.
    func abandon(owner: String, key: String) {
        let recordKey = IdempotencyStore.recordKey(owner: owner, key: key)
        _ = inFlight.withLock { $0.remove(String(decoding: recordKey, as: UTF8.self)) }
    }

    /// Checks a client's key: 1–255 printable ASCII characters.
    static func validate(_ key: String) throws(ServiceError) {
        guard (1...255).contains(key.utf8.count), key.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ServiceError(
                .badRequest, code: "invalid_idempotency_key",
                "The Idempotency-Key header must be 1–255 printable ASCII characters without spaces (a UUID is ideal).")
        }
    }

    /// `owner \0 key`: keys are scoped to the API key that sent them.
    static func recordKey(owner: String, key: String) -> [UInt8] {
        Array(owner.utf8) + [0] + Array(key.utf8)
    }

    /// The key of a record's claim: `\0 claim \0`, then the record's key. No record's key is one: a key holds no
    /// NUL, so a record's key has one only after its owner (an empty owner's: only its first byte).
    static func claimKey(_ recordKey: [UInt8]) -> [UInt8] {
        [0] + Array("claim".utf8) + [0] + recordKey
    }
}
