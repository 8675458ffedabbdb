import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PaylogStore

extension PaylogService {
    /// Runs a POST: checks the scope, reads the whole body within its limit (413) and deadline (408) before
    /// anything is recorded, and honours `Idempotency-Key` — a repeat of an answered request gets the stored
    /// answer (with `Idempotent-Replayed: true`) and runs nothing. A transient error (``ServiceError/isTransient``) is
    /// not stored: the retry it asks for runs again.
    ///
    /// `handle` gets the body and, when the request carries an `Idempotency-Key`, the retry key of its observation
    /// (``PaylogWorkflow/PaymentWorkflow/record(_:payment:observedAt:evidence:correlationID:retryKey:)``): the API
    /// key's id and the `Idempotency-Key`, for an observation that gives no `at`.
    func post(
        _ request: Request, _ context: PaylogRequestContext, largeBody: Bool = false,
        _ handle: ([UInt8], String?) async throws -> Answer
    ) async throws -> Response {
        try context.require(.ingest)
        let reader = BodyReader(
            limit: largeBody ? configuration.maxStreamBytes : configuration.maxBodyBytes,
            timeout: configuration.requestTimeoutSeconds)
        let keys = request.headers[values: HTTPField.Name("Idempotency-Key")!]
        // Read as one, two fields would be one key "a, b", refused as a key with a space in it.
        if keys.count > 1 { throw IdempotencyStore.repeatedKeyError(count: keys.count) }
        let key = keys.first
        if let key { try IdempotencyStore.validate(key) }
        let bytes = try await reader.collect(request)
        guard let key else { return try await handle(bytes, nil).response() }
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.uri.path)?\(request.uri.query ?? "")\n".utf8))
        hasher.update(data: bytes)
        let fingerprint = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        // The key's id, not its name: a key revoked and added again under the same name is another key, and must
        // not get the old one's answers (a launch URL carries a Square state, enough to complete the payment).
        let owner = context.apiKey?.id ?? ""
        switch try idempotency.begin(owner: owner, key: key, fingerprint: fingerprint) {
        case .replay(let stored):
            return Answer(stored: stored).response(replayed: true)
        case .proceed:
            let answer: Answer
            do {
                answer = try await handle(bytes, owner + "\u{0}" + key)
            } catch let error as ServiceError {
                if error.isTransient {
                    // The client is told to retry it: stored, the retry would get this error back forever.
                    idempotency.abandon(owner: owner, key: key)
                } else {
                    let failure = try Answer(error.status, ["error": ["code": error.code, "message": error.message]])
                    idempotency.finish(owner: owner, key: key, response: stored(failure, fingerprint))
                }
                throw error
            } catch {
                idempotency.abandon(owner: owner, key: key)
                throw error
            }
            if answer.body.count > Self.largestStoredAnswer {
                // A large answer (a JSON Lines report) is not kept: stored, one request could grow the service's
                // database by many times its body, and every retry decoded it. Its retry runs again and appends
                // nothing: event ids are derived from the observations.
                idempotency.abandon(owner: owner, key: key)
            } else {
                idempotency.finish(owner: owner, key: key, response: stored(answer, fingerprint))
            }
            return answer.response()
        }
    }

    /// The largest answer body, in bytes, stored for an `Idempotency-Key`.
    static let largestStoredAnswer = 64 << 10

    private func stored(_ answer: Answer, _ fingerprint: String) -> StoredResponse {
        StoredResponse(
            fingerprint: fingerprint, status: answer.status.code, body: answer.body, headers: answer.headers,
            answeredAt: Timestamp.now().rfc3339)
    }
}
