import Dispatch
import Foundation
import Hummingbird

/// Reads request bodies with a size limit (413) and a deadline (408), before anything is decided.
struct BodyReader: Sendable {
    /// The most bytes accepted.
    let limit: Int
    /// How long reading may take.
    let timeout: Double

    /// The whole body.
    func collect(_ request: Request) async throws -> [UInt8] {
        try checkDeclaredLength(request)
        var bytes: [UInt8] = []
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        for try await buffer in request.body {
            guard bytes.count + buffer.readableBytes <= limit else { throw ServiceError.tooLarge(limit: limit) }
            bytes.append(contentsOf: buffer.readableBytesView)
            try check(deadline)
        }
        return bytes
    }

    private func checkDeclaredLength(_ request: Request) throws {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw ServiceError.tooLarge(limit: limit)
        }
    }

    private func check(_ deadline: UInt64) throws {
        if DispatchTime.now().uptimeNanoseconds > deadline {
            throw ServiceError(
                .requestTimeout, code: "request_timeout",
                "The request body took longer than \(Int(timeout)) s to arrive; nothing was recorded from it. Send it again, faster or in smaller parts.")
        }
    }
}
