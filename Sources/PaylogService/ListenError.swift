#if canImport(Glibc)
import Glibc
#endif

/// `paylog serve` could not listen on its address. The ``description`` says why and what to do.
public struct ListenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host the server was to listen on.
    public var host: String
    /// The port the server was to listen on.
    public var port: Int
    /// The `errno` the kernel refused the address with (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`, …).
    public var code: Int32

    /// What went wrong and what to do.
    public var description: String {
        let address = "\(host):\(port)"
        switch code {
        case EADDRINUSE:
            return "Cannot listen on \(address): the address is already in use (another paylog serve, or another "
                + "program, listens there; `ss -ltnp` names it). Stop it, or pass another --port (0 picks a free one)."
        case EACCES:
            return "Cannot listen on \(address): permission denied (ports below 1024 need privileges). Pass a port of "
                + "1024 or more, and put a proxy in front if clients need port \(port)."
        case EADDRNOTAVAIL:
            return "Cannot listen on \(address): no network interface of this machine has that address. Pass one "
                + "it has (127.0.0.1, or 0.0.0.0 for all) with --host."
        default:
            return "Cannot listen on \(address): \(String(cString: strerror(code))) (errno \(code)). Check --host and "
                + "--port."
        }
    }
}
