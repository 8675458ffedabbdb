import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import PaylogPresentation

/// Answers a request that cannot be read as HTTP/1.1 at all — an over-long request line or header block, a
/// `Content-Length` that is not a number, a method or target HTTP does not allow — with paylog's JSON error
/// (`400 malformed_request`, naming what was wrong), then closes the connection.
///
/// Without it, Hummingbird answers such a request with an empty 400 before any route or middleware sees it, so
/// the client learns nothing of what to fix. An error inside a body is left to the route reading it
/// (`malformed_body`), unless that request is already answered (say, 401 before its body was read): then the
/// connection is closed, since a request gets one answer. One that follows pipelined requests whose responses are
/// not all written yet is answered after the last of them, since a response cannot be written into the middle of
/// another.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// Request heads read on this connection.
    private var requestsRead = 0
    /// Responses written to their end on this connection.
    private var responsesEnded = 0
    /// A request's head was read and its end was not yet.
    private var readingBody = false
    /// The parser's error waiting for the responses before it to be written.
    private var pending: HTTPParserError?
    /// A request's body could not be read: the connection ends once that request has its answer.
    private var bodyUnreadable = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requestsRead += 1
            readingBody = true
        case .end:
            readingBody = false
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if bodyUnreadable, responsesEnded == requestsRead {
            // A response to no request: Hummingbird's empty 400 for a body it could not read after the route had
            // answered (a 401 before reading it, or the route's own `malformed_body`). A request gets one answer; the
            // connection, whose bytes can no longer be framed, is closed instead.
            promise?.succeed(())
            if case .end = unwrapOutboundIn(data) { context.close(promise: nil) }
            return
        }
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        responsesEnded += 1
        context.write(data, promise: promise)
        if let error = pending, responsesEnded == requestsRead {
            pending = nil
            answer(error, context: context)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError, readingBody {
            // Left to the route reading the body (`malformed_body`); but once the request has its answer, whatever
            // Hummingbird writes for it after is dropped (see ``write(context:data:promise:)``).
            bodyUnreadable = true
        }
        guard let parserError = error as? HTTPParserError, !readingBody, pending == nil else {
            context.fireErrorCaught(error)
            return
        }
        if responsesEnded == requestsRead {
            answer(parserError, context: context)
        } else {
            // The server still owes earlier requests their answers; this one follows them.
            pending = parserError
        }
    }

    /// Writes the JSON 400 for `error`, then closes the connection once it is out (closing at once could drop it).
    private func answer(_ error: HTTPParserError, context: ChannelHandlerContext) {
        let body = (try? JSONText.data(["error": ["code": "malformed_request", "message": Self.message(for: error)]])) ?? Data()
        var head = HTTPResponse(status: .badRequest)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = String(body.count)
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(context.channel.allocator.buffer(bytes: body))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        written.futureResult.whenComplete { [channel = context.channel] _ in channel.close(promise: nil) }
    }

    /// What was wrong, in words a client's developer can act on.
    static func message(for error: HTTPParserError) -> String {
        let what = switch error {
        case .headerOverflow:
            "the request line or the headers are longer than the server reads; shorten the URL or the headers"
        case .invalidContentLength, .unexpectedContentLength:
            "the Content-Length header is not a valid length, or contradicts Transfer-Encoding"
        case .invalidMethod:
            "the method is not a valid HTTP method"
        case .invalidURL, .invalidPath, .invalidQueryString, .invalidFragment, .invalidHost, .invalidPort:
            "the request target is not a valid URL path"
        case .invalidVersion:
            "the HTTP version is not HTTP/1.0 or HTTP/1.1"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected, .invalidConstant:
            "the request line or a header holds characters HTTP/1.1 does not allow there"
        default:
            "it breaks HTTP/1.1 (\(error))"
        }
        return "The request could not be read as HTTP/1.1: \(what). Nothing was recorded. See Docs/http-api.md."
    }
}
