/// The function ``WriterStatistics/observeGroupCommits(_:)`` was given, held by reference.
///
/// Why a class: a closure kept directly in a `Mutex` and read with `withLock { $0 }` came back wrapped in one more
/// reabstraction thunk on every read, and the wrapped closure was written back. After n commits a call went through
/// n thunks, so a `paylog serve` got slower with every commit (one-line commits of a 6,000-line body ran at about
/// 2,200 a second, of a 60,000-line one at about 1,000), and releasing the chain at shutdown overflowed the stack: the server
/// died with SIGSEGV after closing the store (exit 139 instead of 0). A class reference is read and written as is.
final class CommitObserver: Sendable {
    /// Called with the number of events each committed write transaction appended.
    let body: @Sendable (Int) -> Void

    /// Holds `body`.
    init(_ body: @escaping @Sendable (Int) -> Void) {
        self.body = body
    }
}
