import Foundation
import TestSupport

/// Runs the built `paylog` executable as a real child process.
struct PaylogProcess {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func binary() throws -> String { try BuiltProduct.path("paylog") }

    /// Runs `paylog` (or `executable`, say a shell that runs it under limits) with `arguments`, and `environment`
    /// added to this process's, in `directory` (this process's working directory when nil).
    static func run(
        _ arguments: [String], stdin: String? = nil, executable: String? = nil, environment: [String: String] = [:],
        directory: String? = nil
    ) throws -> Result {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: try executable ?? binary())
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory, isDirectory: true) }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: error, as: UTF8.self))
    }

    /// Records `paylog request` of a 12.50 EUR SumUp payment `payment` into the store at `store` (created when
    /// missing): a payment for a test to act on.
    static func requestPayment(_ payment: String = "pay-1", store: String) throws -> Result {
        try run([
            "request", "--store", store, "--provider", "sumup", "--payment", payment, "--amount", "12.50",
            "--currency", "EUR", "--callback", "https://shop.example/cb", "--client-id", "affiliate-key-1",
        ])
    }

    static func jsonObject(_ text: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
    }
}
