import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import PaylogStore

extension PaylogService {
    /// What a POST handler is given: the whole body, or (streamed endpoints without an `Idempotency-Key`) the
    /// request to read line by line.
    enum PostBody {
        case bytes([UInt8])
        case stream(Request)
    }

    /// Runs a POST: checks the scope, reads the body within its limit, and honours `Idempotency-Key` — a
    /// repeat of an answered request gets the stored answer (with `Idempotent-Replayed: true`) and runs nothing.
    func post(
        _ request: Request, _ context: PaylogRequestContext, streaming: Bool = false,
        _ handle: (PostBody) async throws -> Answer
    ) async throws -> Response {
        try context.require(.ingest)
        let reader = BodyReader(
            limit: streaming ? configuration.maxStreamBytes : configuration.maxBodyBytes,
            timeout: configuration.requestTimeoutSeconds)
        guard let key = request.headers[HTTPField.Name("Idempotency-Key")!] else {
            let body: PostBody = streaming ? .stream(request) : .bytes(try await reader.collect(request))
            return try await handle(body).response()
        }
        try IdempotencyStore.validate(key)
        let bytes = try await reader.collect(request)
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.uri.path)?\(request.uri.query ?? "")\n".utf8))
        hasher.update(data: bytes)
        let fingerprint = hasher.finalize().map { String(format: "%02x", $0) }.joined()
        let owner = context.apiKey?.name ?? ""
        switch try idempotency.begin(owner: owner, key: key, fingerprint: fingerprint) {
        case .replay(let stored):
            return Answer(stored: stored).response(replayed: true)
        case .proceed:
            let answer: Answer
            do {
                answer = try await handle(.bytes(bytes))
            } catch let error as ServiceError {
                let failure = try Answer(error.status, ["error": ["code": error.code, "message": error.message]])
                idempotency.finish(owner: owner, key: key, response: stored(failure, fingerprint))
                throw error
            } catch {
                idempotency.abandon(owner: owner, key: key)
                throw error
            }
            idempotency.finish(owner: owner, key: key, response: stored(answer, fingerprint))
            return answer.response()
        }
    }

    private func stored(_ answer: Answer, _ fingerprint: String) -> StoredResponse {
        StoredResponse(
            fingerprint: fingerprint, status: answer.status.code, body: answer.body, headers: answer.headers,
            answeredAt: Timestamp.now().rfc3339)
    }
}
