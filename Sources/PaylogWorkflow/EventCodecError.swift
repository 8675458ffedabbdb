/// Why a stored payment event could not be read.
public enum EventCodecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The event type is not one of the six payment events.
    case unknownType(String, position: UInt64)
    /// The event was written with a newer payload schema than this build knows.
    case newerSchema(type: String, version: UInt32, supported: UInt32, position: UInt64)
    /// The payload bytes do not decode, or a field holds an impossible value.
    case undecodable(type: String, position: UInt64, reason: String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unknownType(let type, let position):
            return "Event at position \(position) has type \(type.debugDescription), which is not a payment event. "
                + "The log may have been written by a newer paylog; read it with that release."
        case .newerSchema(let type, let version, let supported, let position):
            return "Event \(type) at position \(position) uses payload schema \(version); this build knows up to \(supported). "
                + "Upgrade paylog to read it — nothing is skipped silently."
        case .undecodable(let type, let position, let reason):
            return "Event \(type) at position \(position) does not decode: \(reason). Run `paylog verify` to check the log."
        }
    }
}
