import PaylogDomain

extension PaymentEvent {
    /// The routing keys the event makes known (`ref:…`, `ctx:…`, `tx:…`): what later callbacks and report lines
    /// are routed to its payment by. Declared as the event's tags when it is appended (``EventCodec/encode(_:id:observedAt:correlationID:causationID:actor:)``),
    /// so that the store indexes them; the status view derives them from the payload only for events recorded
    /// before log format 5, which declare none.
    public var routingKeys: [String] {
        var keys: [String] = []
        PaymentsProjection.forEachRoute(of: self) { kind, value in keys.append("\(kind)\(value)") }
        return keys
    }
}
