/// Stream states by slot, for a ``StreamFolder``: an array that grows to the highest slot used.
///
/// Inlinable, so that a projection's own folder (another module) stores its concrete state type without
/// generic code on the per-event path.
public struct SlotStates<State> {
    @usableFromInline var states: [State?] = []

    /// No states.
    @inlinable public init() {}

    /// The state in `slot` (nil when empty), to fold into.
    @inlinable public subscript(slot: Int) -> State? {
        get { slot < states.count ? states[slot] : nil }
        _modify {
            if slot >= states.count { states.append(contentsOf: repeatElement(nil, count: slot - states.count + 1)) }
            yield &states[slot]
        }
    }

    /// Empties `slot`, returning what it held.
    @inlinable public mutating func take(_ slot: Int) -> State? {
        guard slot < states.count else { return nil }
        var state: State?
        swap(&state, &states[slot])
        return state
    }
}
