import Synchronization

/// Shared between the reader task and the test of ``BlueGreenTests``.
final class Probe: Sendable {
    let stop = Atomic<Bool>(false)
    let halfBuilt = Atomic<Int>(0)
    let reads = Atomic<Int>(0)
}
