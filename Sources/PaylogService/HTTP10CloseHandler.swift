import NIOCore
import NIOHTTP1

/// Marks an HTTP/1.0 request that did not ask to keep its connection (`Connection: keep-alive`) with
/// `Connection: close`, so that the connection is closed once it is answered, as HTTP/1.0 expects.
///
/// Hummingbird reads requests through HTTP types that carry no protocol version, so it kept such a connection open
/// until the idle timeout: a client that reads its answer to the end of the connection (HTTP/1.0 clients may)
/// waited that long. It sits right after the HTTP/1 decoder, where the version is still known
/// (``PaylogHTTP1Channel``).
final class HTTP10CloseHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.version == .http1_0, !head.isKeepAlive else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "Connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }
}
