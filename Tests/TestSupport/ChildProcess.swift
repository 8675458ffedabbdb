import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, with the part of Foundation's `Process` interface the tests use.
///
/// Why not `Process`: on Linux, swift-corelibs-foundation's `Process.run()` (Swift 6.3.1) lists `/proc/self/fd` to find
/// the highest open descriptor and copies 256 bytes of each entry's name, past the end of the short entries glibc
/// returns (swiftlang/swift-corelibs-foundation#5472, fixed upstream after 6.3.2). With more than about 1,350
/// descriptors open, the last entries lie within 256 bytes of the end of `readdir`'s buffer, and where the memory
/// after it is not mapped the whole test process dies with SIGSEGV. The suite holds 1,600–1,700 descriptors at its
/// peak (a few hundred stores open at once, and a sorter test with a thousand run files), and one CI run died so.
/// Here the child's descriptors past standard error are closed by `posix_spawn` itself
/// (`posix_spawn_file_actions_addclosefrom_np`, glibc 2.34 or later; where it is missing `run()` throws a
/// ``SpawnError`` naming it), with no listing.
///
/// Standard input, output and error take a `Pipe` (the child gets the matching end, and the parent's copy of that
/// end is closed once the child runs, as `Process` does) or a `FileHandle` (`FileHandle.nullDevice`: `/dev/null`);
/// nil leaves this process's own.
public final class ChildProcess: @unchecked Sendable {
    /// The program to run.
    public var executableURL: URL?
    /// Its arguments, without the program's name.
    public var arguments: [String] = []
    /// Its whole environment; nil: this process's.
    public var environment: [String: String]?
    /// Its working directory; nil: this process's.
    public var currentDirectoryURL: URL?
    /// Its standard input: a `Pipe`, a `FileHandle`, or nil for this process's.
    public var standardInput: Any?
    /// Its standard output: a `Pipe`, a `FileHandle`, or nil for this process's.
    public var standardOutput: Any?
    /// Its standard error: a `Pipe`, a `FileHandle`, or nil for this process's.
    public var standardError: Any?

    /// The child's process id once it runs (0 before).
    public var processIdentifier: Int32 { pid.load(ordering: .relaxed) }
    private let pid = Atomic<Int32>(0)
    /// Its `waitpid` status once reaped. Signals are sent with this locked, so never to a reaped (recycled) pid.
    private let reaped = Mutex<Int32?>(nil)

    /// A child not yet started.
    public init() {}

    /// Starts the child.
    public func run() throws {
        guard let executableURL else { throw SpawnError(operation: "run without an executable", code: EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Any?, Int32, Bool)] = [(standardInput, 0, true), (standardOutput, 1, false), (standardError, 2, false)]
        for (stream, target, isInput) in streams {
            guard let descriptor = ChildProcess.childDescriptor(of: stream, isInput: isInput) else { continue }
            if descriptor < 0 {
                // `FileHandle.nullDevice` has no descriptor of its own in this process.
                try ChildProcess.check(
                    posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0), "posix_spawn_file_actions_addopen")
            } else {
                try ChildProcess.check(posix_spawn_file_actions_adddup2(&actions, descriptor, target), "posix_spawn_file_actions_adddup2")
            }
        }
        try ChildProcess.check(ChildProcess.closeFrom(&actions, 3), "posix_spawn_file_actions_addclosefrom_np")
        if let currentDirectoryURL {
            try ChildProcess.check(ChildProcess.changeDirectory(&actions, currentDirectoryURL.path), "posix_spawn_file_actions_addchdir_np")
        }
        let path = executableURL.path
        let argv = ([path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let environment = (self.environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        defer { environment.forEach { free($0) } }
        // The child starts with no signal blocked and every signal at its default, as `Process` does: it would
        // otherwise inherit the spawning thread's mask, and a Dispatch worker blocks SIGTERM among others.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        try ChildProcess.check(posix_spawnattr_setsigmask(&attributes, &noSignals), "posix_spawnattr_setsigmask")
        try ChildProcess.check(posix_spawnattr_setsigdefault(&attributes, &allSignals), "posix_spawnattr_setsigdefault")
        try ChildProcess.check(
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)), "posix_spawnattr_setflags")
        var pid: pid_t = 0
        let code = (argv + [nil]).withUnsafeBufferPointer { argvPointer in
            (environment + [nil]).withUnsafeBufferPointer { environmentPointer in
                posix_spawn(&pid, path, &actions, &attributes, argvPointer.baseAddress!, environmentPointer.baseAddress!)
            }
        }
        try ChildProcess.check(code, "posix_spawn of \(path)")
        self.pid.store(pid, ordering: .relaxed)
        // The child holds its ends now; the parent's copies would keep a reader of the output from ever seeing its end.
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        if let pipe = standardOutput as? Pipe { try? pipe.fileHandleForWriting.close() }
        if let pipe = standardError as? Pipe { try? pipe.fileHandleForWriting.close() }
    }

    /// Kills (SIGKILL) and reaps a child still running, so that none outlives its test as a process or a zombie.
    deinit {
        guard processIdentifier > 0 else { return }
        send(SIGKILL)
        while reapNow() == nil { usleep(1_000) }
    }

    /// Whether the child was started and has not ended yet.
    public var isRunning: Bool {
        guard processIdentifier > 0 else { return false }
        return reapNow() == nil
    }

    /// Waits for the child to end (looking every millisecond, so that other calls on it never wait behind this one).
    public func waitUntilExit() {
        guard processIdentifier > 0 else { return }
        while reapNow() == nil { usleep(1_000) }
    }

    /// Sends the child SIGTERM, unless it has ended.
    public func terminate() {
        send(SIGTERM)
    }

    /// Sends the child `signal`, unless it was not started or has ended (then its pid may be another process's).
    public func send(_ signal: Int32) {
        let pid = processIdentifier
        guard pid > 0 else { return }
        reaped.withLock { reaped in
            if reaped == nil { _ = kill(pid, signal) }
        }
    }

    /// Its exit status, or the number of the signal that ended it; -1 while it runs (no exit status or signal is -1,
    /// so an expectation of either fails).
    public var terminationStatus: Int32 {
        guard let status = reapNow() else { return -1 }
        return ChildProcess.signalled(status) ? status & 0x7f : (status >> 8) & 0xff
    }

    /// Why it ended; ``TerminationReason/stillRunning`` while it runs.
    public var terminationReason: TerminationReason {
        guard let status = reapNow() else { return .stillRunning }
        return ChildProcess.signalled(status) ? .uncaughtSignal : .exit
    }

    /// The child's `waitpid` status once it ended, reaping it then; nil while it runs or before it was started.
    private func reapNow() -> Int32? {
        let pid = processIdentifier
        guard pid > 0 else { return nil }
        return reaped.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            while true {
                let result = waitpid(pid, &status, WNOHANG)
                if result == pid {
                    reaped = status
                    return status
                }
                if result == 0 { return nil }
                if errno == EINTR { continue }
                // Only this object reaps its child: ECHILD means something else did, and its status is lost.
                preconditionFailure("waitpid of child \(pid) failed: errno \(errno)")
            }
        }
    }

    private static func signalled(_ status: Int32) -> Bool {
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f
    }

    /// The descriptor the child gets from `stream`: the read end of an input pipe, the write end of an output one,
    /// a file handle's own (negative for `FileHandle.nullDevice`, which the child then opens as `/dev/null`).
    private static func childDescriptor(of stream: Any?, isInput: Bool) -> Int32? {
        switch stream {
        case let pipe as Pipe: isInput ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle: handle === FileHandle.nullDevice ? -1 : handle.fileDescriptor
        default: nil
        }
    }

    private static func check(_ code: Int32, _ operation: String) throws {
        if code != 0 { throw SpawnError(operation: operation, code: code) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), looked up at run time: Swift's Glibc
    /// module does not declare it.
    private static func closeFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32 {
        typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            return ENOSYS
        }
        return unsafeBitCast(symbol, to: Function.self)(actions, from)
    }

    /// glibc's `posix_spawn_file_actions_addchdir_np` (2.29 and later), looked up at run time like ``closeFrom(_:_:)``.
    private static func changeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        typealias Function = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else {
            return ENOSYS
        }
        return path.withCString { unsafeBitCast(symbol, to: Function.self)(actions, $0) }
    }
}
