import Foundation
import LMDBKit
import Synchronization

/// Durable `Idempotency-Key` records: per API key, the first response to each key, so that a retried POST
/// returns it and appends nothing.
///
/// Answers below 500 are kept (a 4xx for a bad request is as final as a success); a 5xx is not, so a retry
/// after a failure runs again, and neither is a transient 4xx such as `409 contention` or `404 not_found` (``ServiceError/isTransient``:
/// the caller abandons its claim instead). Two requests with one key at the same moment: the second gets 409 until the
/// first is answered. The same key with a different method, path or body is refused with 422.
///
/// If the process dies between the append and storing the answer, the client saw no answer and retries;
/// the retry runs again and appends nothing, because every event id is derived from the observation: from its `at`,
/// or, for a request without one, from the `Idempotency-Key` (``PaylogService/post(_:_:largeBody:_:)``).
final class IdempotencyStore: Sendable {
    let database: ServiceDatabase
    private let inFlight = Mutex<Set<String>>([])

    init(database: ServiceDatabase) {
        self.database = database
    }

    /// What to do with a request carrying `key`.
    enum Decision {
        /// Run the request, then call ``finish(_:key:response:)``.
        case proceed
        /// Answer this stored response again.
        case replay(StoredResponse)
    }

    /// Looks `key` up for `owner` and claims it when new.
    func begin(owner: String, key: String, fingerprint: String) throws(ServiceError) -> Decision {
        let recordKey = IdempotencyStore.recordKey(owner: owner, key: key)
        let stored: StoredResponse?
        do {
            stored = try database.environment.read { txn in
                try txn.value(for: recordKey, in: database.idempotency).map {
                    try JSONDecoder().decode(StoredResponse.self, from: Data($0))
                }
            }
        } catch {
            throw ServiceError(.serviceUnavailable, code: "unavailable", "The idempotency records cannot be read; retry later.")
        }
        if let stored {
            guard stored.fingerprint == fingerprint else {
                throw ServiceError(
                    .unprocessableContent, code: "idempotency_key_reused",
                    "Idempotency-Key \"\(key)\" was first used for a different request (method, path or body); use a new key for a new request.")
            }
            return .replay(stored)
        }
        let claimed = inFlight.withLock { $0.insert(String(decoding: recordKey, as: UTF8.self)).inserted }
        guard claimed else {
            throw ServiceError(
                .conflict, code: "idempotency_key_in_use",
                "A request with Idempotency-Key \"\(key)\" is still being handled; retry after it is answered.")
        }
        return .proceed
    }

    /// Stores the answer to a claimed key (when below 500) and releases the claim.
    func finish(owner: String, key: String, response: StoredResponse) {
        let recordKey = IdempotencyStore.recordKey(owner: owner, key: key)
        defer { _ = inFlight.withLock { $0.remove(String(decoding: recordKey, as: UTF8.self)) } }
        guard response.status < 500, let bytes = try? JSONEncoder().encode(response) else { return }
        _ = try? database.environment.write { txn in
            try txn.put(Array(bytes), for: recordKey, in: database.idempotency)
        }
    }

    /// Releases a claimed key without storing anything (the request failed before it had an answer).
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

    /// The error of a request that gives its `Idempotency-Key` header `count` times.
    static func repeatedKeyError(count: Int) -> ServiceError {
        ServiceError(
            .badRequest, code: "invalid_idempotency_key",
            "The Idempotency-Key header is given \(count) times: a request has one key, so send the header once.")
    }

    /// `owner \0 key`: keys are scoped to the API key that sent them.
    static func recordKey(owner: String, key: String) -> [UInt8] {
        Array(owner.utf8) + [0] + Array(key.utf8)
    }
}
