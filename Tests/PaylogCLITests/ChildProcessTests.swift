import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("The tests' child processes (TestSupport.ChildProcess)")
struct ChildProcessTests {
    /// Runs `script` under `/bin/sh` with `input` on its standard input; returns its status, reason and output.
    static func shell(_ script: String, input: String = "") throws -> (Int32, ChildProcess.TerminationReason, String) {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", script]
        let stdin = Pipe()
        let stdout = Pipe()
        child.standardInput = stdin
        child.standardOutput = stdout
        child.standardError = FileHandle.nullDevice
        try child.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        child.waitUntilExit()
        #expect(!child.isRunning)
        return (child.terminationStatus, child.terminationReason, String(decoding: output, as: UTF8.self))
    }

    @Test("standard input reaches the child, its output comes back, and its exit status is kept")
    func pipesAndStatus() throws {
        let (status, reason, output) = try Self.shell("tr a-z A-Z; exit 3", input: "paylog\n")
        #expect(status == 3)
        #expect(reason == .exit)
        #expect(output == "PAYLOG\n")
    }

    @Test("a child killed by a signal reports the signal, and terminate() sends SIGTERM")
    func signals() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        #expect(child.isRunning)
        #expect(child.processIdentifier > 0)
        #expect(child.terminationReason == .stillRunning)
        #expect(child.terminationStatus == -1)
        child.terminate()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)
        // Once reaped, its pid may be another process's: nothing more is sent to it.
        child.send(SIGKILL)
        #expect(child.terminationStatus == SIGTERM)
    }

    @Test("a child dropped while it runs is killed and reaped, leaving no zombie")
    func droppedChildIsReaped() throws {
        var pid: Int32 = 0
        do {
            let child = ChildProcess()
            child.executableURL = URL(fileURLWithPath: "/bin/sleep")
            child.arguments = ["30"]
            try child.run()
            pid = child.processIdentifier
            #expect(child.isRunning)
        }
        try #require(pid > 0)
        // Reaped: the pid is no longer this process's child (a zombie would still be).
        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == -1 && errno == ECHILD)
    }

    @Test("the child inherits no descriptor past standard error, however high, close-on-exec or not")
    func descriptorsNotInherited() throws {
        // Foundation's Process.run() lists /proc/self/fd to find the highest descriptor, and reads past the end of
        // the listing's buffer once more than about 1,350 are open (swift-corelibs-foundation#5472): the reason
        // ChildProcess exists. It lists nothing; posix_spawn closes every descriptor from 3 up.
        let low = open("/dev/null", O_RDONLY)
        try #require(low >= 0, "open /dev/null: errno \(errno)")
        defer { _ = close(low) }
        let high = fcntl(low, F_DUPFD, 1_500)
        try #require(high >= 1_500, "F_DUPFD: errno \(errno)")
        defer { _ = close(high) }
        let (status, _, output) = try Self.shell("ls /proc/self/fd")
        #expect(status == 0)
        // The shell's 0, 1 and 2, and the descriptor `ls` lists the directory with.
        let listed = output.split(separator: "\n").compactMap { Int32($0) }
        #expect(!listed.contains(low) && !listed.contains(high), "\(low) or \(high) reached the child: \(listed)")
        #expect(listed.count <= 4, "\(listed)")
    }

    @Test("a child runs in the directory it is given, and a missing program is an error naming the call")
    func directoryAndMissingProgram() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/pwd")
        child.currentDirectoryURL = URL(fileURLWithPath: dir.path)
        let stdout = Pipe()
        child.standardOutput = stdout
        try child.run()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        let expected = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path
        #expect(output.trimmingCharacters(in: .newlines) == expected)

        let missing = ChildProcess()
        missing.executableURL = URL(fileURLWithPath: dir.path + "/no-such-program")
        #expect {
            try missing.run()
        } throws: { error in
            (error as? ChildProcess.SpawnError)?.code == ENOENT
        }
    }
}
