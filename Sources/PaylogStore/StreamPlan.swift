/// The whole streams one step of a stream-order rebuild folds: their ids and the positions of their events up
/// to the rebuild's snapshot, in version order.
struct StreamPlan: Sendable {
    /// One stream.
    struct Stream: Sendable {
        var id: [UInt8]
        var positions: [UInt64]
    }

    var streams: [Stream]

    /// The number of events in the plan.
    var events: Int { streams.reduce(0) { $0 + $1.positions.count } }
}
