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

    /// The body's lines, as they arrive, without keeping the whole body: `body` is called for each complete
    /// line (without its newline, a trailing `\r` dropped) in order.
    func lines(_ request: Request, _ body: (String) async throws -> Void) async throws {
        try checkDeclaredLength(request)
        var pending: [UInt8] = []
        var total = 0
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        for try await buffer in request.body {
            total += buffer.readableBytes
            guard total <= limit else { throw ServiceError.tooLarge(limit: limit) }
            try check(deadline)
            for byte in buffer.readableBytesView {
                if byte == UInt8(ascii: "\n") {
                    try await body(BodyReader.line(pending))
                    pending.removeAll(keepingCapacity: true)
                } else {
                    pending.append(byte)
                }
            }
        }
        if !pending.isEmpty { try await body(BodyReader.line(pending)) }
    }

    private static func line(_ bytes: [UInt8]) -> String {
        var bytes = bytes
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
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
