#if canImport(Glibc)
import Glibc
#endif

/// `paylog serve` could not listen on its address. The ``description`` says why and what to do.
public struct ListenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host the server was to listen on.
    public var host: String
    /// The port the server was to listen on.
    public var port: Int
    /// The `errno` the kernel refused the address with (`EADDRINUSE`, `EACCES`, `EADDRNOTAVAIL`, …); 0 when the host
    /// did not resolve.
    public var code: Int32
    /// The resolver's words when `host` is neither an IP address nor a name that resolves (`Name or service not known`);
    /// nil when the kernel refused the address.
    public var unresolved: String?

    /// The error of an address the kernel refused with `errno` `code`.
    public init(host: String, port: Int, code: Int32) {
        self.host = host
        self.port = port
        self.code = code
    }

    /// The error of a host that did not resolve, with the resolver's words.
    public init(host: String, port: Int, unresolved: String) {
        self.init(host: host, port: port, code: 0)
        self.unresolved = unresolved
    }

    /// What went wrong and what to do.
    public var description: String {
        let address = "\(host):\(port)"
        if let unresolved {
            return "Cannot listen on \(address): \(host.debugDescription) is not an IP address, and as a name it does not "
                + "resolve (\(unresolved)). Pass an address of this machine with --host (127.0.0.1, or 0.0.0.0 for all)."
        }
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
