import CLMDB

/// An error from the zstd layer: what zstd refused, with its own message, and what to do about it.
public enum ZstdError: Error, Sendable, Equatable, CustomStringConvertible {
    /// zstd could not load the dictionary's bytes (not a dictionary zstd can use).
    case badDictionary(reason: String)
    /// zstd could not allocate a compression or decompression context.
    case outOfMemory
    /// A frame did not decompress: its bytes are damaged, or it was compressed with another dictionary.
    case damagedFrame(reason: String)

    /// zstd's message for a result `code` that `ZSTD_isError` flagged.
    static func message(_ code: Int) -> String { String(cString: ZSTD_getErrorName(code)) }

    /// What went wrong and what to do about it.
    public var description: String {
        switch self {
        case .badDictionary(let reason):
            return "zstd could not load the compression dictionary (\(reason)); the dictionary's bytes are damaged: keep a "
                + "copy of the store directory and run `paylog verify --read-only`, which names what it cannot read, "
                + "then restore from a backup or an export"
        case .outOfMemory:
            return "zstd could not allocate a compression context: free memory and retry"
        case .damagedFrame(let reason):
            return "a compressed frame does not decompress (\(reason)): its bytes are damaged or it was compressed with "
                + "another dictionary; `paylog verify` names the damaged events"
        }
    }
}
