import PaylogDomain
import PaylogStore

/// The ``PaymentsReadingFloor``'s ``StreamFolder``: every event read and decoded as ``PaymentsFolder`` has it
/// read, no state kept, no row added.
final class PaymentsReadingFloorFolder: StreamFolder {
    private let projection: PaymentsProjection

    init(_ projection: PaymentsProjection) {
        self.projection = projection
    }

    func fold(_ event: FoldEvent, slot: Int, rows: inout ViewRows) throws {
        var none: Payment?
        try projection.fold(event, into: &none, rows: &rows, evolving: false)
    }

    func finish(slot: Int, stream streamID: String, rows: inout ViewRows) throws {}

    func discard(slot: Int) {}
}
