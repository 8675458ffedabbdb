import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1.1 channel with ``HTTP10CloseHandler`` placed right after its HTTP/1 decoder, the one
/// place in its pipeline where a request's protocol version is still known.
struct PaylogHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    /// The channel that does the work.
    let base: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            try pipeline.addHandler(HTTP10CloseHandler(), position: .after(decoder))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }

    /// A server of this channel, for `Application(server:)`.
    static func server(configuration: HTTP1Channel.Configuration) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            PaylogHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: configuration))
        }
    }
}
