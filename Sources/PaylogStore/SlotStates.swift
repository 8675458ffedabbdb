/// Stream states by slot, for a ``StreamFolder``: a buffer that grows to the highest slot used, whose states are
/// folded where they lie.
///
/// Noncopyable and owning its buffer, so that ``subscript(_:)`` yields a state's own address: folding a large state
/// (a `Payment` is 257 bytes) copies nothing. Over a Swift array of optionals, a fold copied each payment out of
/// the array and back about five times per event (`memcpy` of 257 bytes, `perf`, Docs/performance.md).
/// Inlinable, so that a projection's own folder (another module) stores its concrete state type without
/// generic code on the per-event path.
public struct SlotStates<State>: ~Copyable {
    /// `capacity` states, each initialised (nil for an empty slot).
    @usableFromInline var base: UnsafeMutablePointer<State?>
    @usableFromInline var capacity: Int

    /// No states.
    @inlinable public init() {
        capacity = 16
        base = .allocate(capacity: capacity)
        base.initialize(repeating: nil, count: capacity)
    }

    deinit {
        base.deinitialize(count: capacity)
        base.deallocate()
    }

    /// The state in `slot` (nil when empty), to fold into in place.
    @inlinable public subscript(slot: Int) -> State? {
        get { slot < capacity ? base[slot] : nil }
        _modify {
            if slot >= capacity { grow(toHold: slot) }
            yield &base[slot]
        }
    }

    /// Empties `slot`, returning what it held.
    @inlinable public mutating func take(_ slot: Int) -> State? {
        guard slot < capacity else { return nil }
        let state = (base + slot).move()
        (base + slot).initialize(to: nil)
        return state
    }

    /// Moves the states to a buffer at least twice as large that holds `slot`; the new slots are empty.
    @usableFromInline mutating func grow(toHold slot: Int) {
        var larger = capacity * 2
        while larger <= slot { larger *= 2 }
        let moved = UnsafeMutablePointer<State?>.allocate(capacity: larger)
        moved.moveInitialize(from: base, count: capacity)
        (moved + capacity).initialize(repeating: nil, count: larger - capacity)
        base.deallocate()
        base = moved
        capacity = larger
    }
}
