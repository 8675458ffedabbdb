import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// What went wrong starting a child, and with which call.
    public struct SpawnError: Error, CustomStringConvertible {
        /// The call that failed.
        public let operation: String
        /// Its `errno`.
        public let code: Int32

        /// The call, the error and its number.
        public var description: String { "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))" }
    }
}
