import PaylogDomain
import PaylogStore

/// The ``PaymentsProjection``'s ``StreamFolder``: the payments one range of a rebuild holds open, by slot, folded
/// with the projection's in-place fold. Written here, with the concrete ``Payment`` type, so that the per-event
/// path of a rebuild is specialised code (the generic default ran unspecialised from `PaylogStore`). One fold
/// thread uses it, so its payments are `@exclusivity(unchecked)`: Swift's dynamic check of a class's property
/// costs a thread-local lookup per access.
final class PaymentsFolder: StreamFolder {
    private let projection: PaymentsProjection
    @exclusivity(unchecked) private var payments = SlotStates<Payment>()

    init(_ projection: PaymentsProjection) {
        self.projection = projection
    }

    func fold(_ event: FoldEvent, slot: Int, rows: inout ViewRows) throws {
        try projection.fold(event, into: &payments[slot], rows: &rows)
    }

    func finish(slot: Int, stream streamID: String, rows: inout ViewRows) throws {
        if let payment = payments.take(slot) { try projection.finish(payment, stream: streamID, rows: &rows) }
    }

    func discard(slot: Int) {
        _ = payments.take(slot)
    }
}
