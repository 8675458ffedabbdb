import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue` as soon as the request's head is read, so that the client sends
/// its body at once.
///
/// curl sends the header with every body over 1 MiB (as do .NET's and Java's HTTP clients for some requests) and,
/// with no interim answer, waits a second before sending the body anyway: a 10 MB JSON Lines body took a second
/// longer than it needed to. The request is answered as usual afterwards (a 401, a 413 or the route's answer); the
/// server does not decide anything before the body arrives. Pipelined requests are given to this handler one at a
/// time (NIO's pipelining handler holds the next until the previous one's answer ends), so the interim answer is
/// never written into another request's response.
final class ContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let request) = unwrapInboundIn(data),
            let expect = request.headerFields[.expect],
            expect.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue"
        {
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
        }
        context.fireChannelRead(data)
    }
}
