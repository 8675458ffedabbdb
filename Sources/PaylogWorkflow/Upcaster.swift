import Foundation

/// Turns the payload of one event type from one schema version into the next. Chains of upcasters bring any
/// older payload to ``EventCodec/currentSchemaVersion`` on read; the stored bytes are never rewritten.
public struct Upcaster: Sendable {
    /// The event type it applies to.
    public var type: String
    /// The schema version it reads; it produces `fromVersion + 1`.
    public var fromVersion: UInt32
    /// The conversion.
    public var upcast: @Sendable (Data) throws -> Data

    /// An upcaster for `type` from `fromVersion` to `fromVersion + 1`.
    public init(type: String, fromVersion: UInt32, upcast: @escaping @Sendable (Data) throws -> Data) {
        self.type = type
        self.fromVersion = fromVersion
        self.upcast = upcast
    }

    /// The upcasters paylog ships. Empty while every event type is at schema 1; when a payload changes meaning,
    /// bump ``EventCodec/currentSchemaVersion`` for it and add the old → new conversion here, with a test and a
    /// golden log of the old version.
    public static let registered: [Upcaster] = []
}
