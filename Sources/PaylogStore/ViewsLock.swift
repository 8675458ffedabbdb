#if canImport(Glibc)
import Glibc
#endif

/// Which processes may change a store's view generations: a lock on `STORE/views.lock`.
///
/// Each process keeps the generation of each view it reads and writes in memory. A process that replaced a view
/// (a rebuild swaps a new generation in) or deleted one (an open deletes replaced and half-built generations)
/// under another process would leave that one reading and writing databases that are gone: payments answered as
/// unknown, appends refused, a view checkpointed back to the generation it left, LMDB crashing on a dropped
/// database. So every process that opens a store read-write holds this lock shared for as long as it has the store
/// open, and changing generations takes it exclusive: only a process alone with the store does it.
///
/// It is an open file description lock (`fcntl(F_OFD_SETLK)`): released when its descriptor is closed, also when the
/// process dies (nothing stale to clean up), converted between shared and exclusive atomically (no moment without
/// it, in which another process could slip in), and held per descriptor, so two of them conflict even inside one
/// process. Read-only opens take none: a read-only store is for storage that nothing writes.
final class ViewsLock: Sendable {
    /// How the lock is held.
    enum Mode: Sendable {
        /// Beside other holders: the store is open, its view generations must stay as they are.
        case shared
        /// Alone: no other process has the store open; view generations may change.
        case exclusive
    }

    /// The file's name in the store directory.
    static let fileName = "views.lock"

    /// Linux's `F_OFD_SETLK` (Glibc's module leaves it out: it needs `_GNU_SOURCE`); the same on every architecture.
    private static let setOpenFileDescriptionLock: Int32 = 37

    private let descriptor: Int32
    /// The lock file's path, for errors.
    let path: String

    /// Opens (creating when missing, mode `mode`) `directory/views.lock`, holding no lock yet.
    init(directory: String, mode: UInt32 = 0o600) throws(EventStoreError) {
        path = directory + "/" + ViewsLock.fileName
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode_t(mode))
        guard descriptor >= 0 else { throw .storage(.lmdb(code: errno, operation: "open of the views lock \(path)")) }
    }

    deinit { _ = close(descriptor) }

    /// Takes or converts the lock to `mode` without waiting. Returns false when another holder stands in the way
    /// (the lock is then held as before: a failed conversion keeps the mode it had).
    func tryLock(_ mode: Mode) throws(EventStoreError) -> Bool {
        var request = flock()
        request.l_type = Int16(mode == .exclusive ? F_WRLCK : F_RDLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = 0
        request.l_len = 0
        let code = withUnsafeMutablePointer(to: &request) { fcntl(descriptor, ViewsLock.setOpenFileDescriptionLock, $0) }
        if code == 0 { return true }
        if errno == EAGAIN || errno == EACCES { return false }
        throw .storage(.lmdb(code: errno, operation: "lock of \(path)"))
    }

    /// Releases the lock (the descriptor stays open until the lock is freed).
    func unlock() {
        var request = flock()
        request.l_type = Int16(F_UNLCK)
        request.l_whence = Int16(SEEK_SET)
        _ = withUnsafeMutablePointer(to: &request) { fcntl(descriptor, ViewsLock.setOpenFileDescriptionLock, $0) }
    }

    /// Takes or converts the lock to `mode`, trying again every 10 ms for up to `patience`. Returns false when it
    /// could not.
    func lock(_ mode: Mode, patience: Duration) throws(EventStoreError) -> Bool {
        let deadline = ContinuousClock.now + patience
        while true {
            if try tryLock(mode) { return true }
            if ContinuousClock.now >= deadline { return false }
            usleep(10_000)
        }
    }
}
