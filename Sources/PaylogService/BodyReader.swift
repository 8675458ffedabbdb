import Dispatch
import Foundation
import Hummingbird

/// Reads request bodies with a size limit (413) and a deadline (408), before anything is decided.
struct BodyReader: Sendable {
    /// The most bytes accepted.
    let limit: Int
    /// How long reading may take.
    let timeout: Double

    /// The whole body. The deadline is kept by a timer racing the read, not only checked as parts arrive: a client
    /// that declares a length and then sends nothing more got no answer at all until the idle timeout closed the
    /// connection.
    func collect(_ request: Request) async throws -> [UInt8] {
        try checkDeclaredLength(request)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        let body = request.body
        let reader = self
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask { try await reader.read(body, deadline: deadline) }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(reader.timeout * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let bytes = try await group.next() ?? nil else { throw reader.timedOut }
            return bytes
        }
    }

    /// Reads `body` up to the limit, checking the deadline as parts arrive.
    private func read(_ body: RequestBody, deadline: UInt64) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        do {
            for try await buffer in body {
                guard bytes.count + buffer.readableBytes <= limit else { throw ServiceError.tooLarge(limit: limit) }
                bytes.append(contentsOf: buffer.readableBytesView)
                try check(deadline)
            }
        } catch let error as ServiceError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // The body's framing could not be read (a malformed Transfer-Encoding, say): the client's request, not
            // a server failure to answer 500 and log as an error.
            throw ServiceError(
                .badRequest, code: "malformed_body",
                "The request body could not be read as HTTP/1.1 framed it (\(error)); nothing was recorded from it.")
        }
        return bytes
    }

    private func checkDeclaredLength(_ request: Request) throws {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw ServiceError.tooLarge(limit: limit)
        }
    }

    private func check(_ deadline: UInt64) throws {
        if DispatchTime.now().uptimeNanoseconds > deadline { throw timedOut }
    }

    /// The 408 answered when the body did not arrive in time.
    private var timedOut: ServiceError {
        ServiceError(
            .requestTimeout, code: "request_timeout",
            "The request body took longer than \(Int(timeout)) s to arrive; nothing was recorded from it. Send it again, faster or in smaller parts.")
    }
}
