import Foundation
import PaylogService
import Testing
import TestSupport

/// A configuration the server could not run with is refused when it is read.
@Suite("Service configuration")
struct ServiceConfigurationTests {
    @Test("a timeout over a day is refused naming the field and the maximum, before the server starts",
          arguments: ["request_timeout_seconds", "idle_timeout_seconds"])
    func hugeTimeout(_ field: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.json"
        for (value, accepted) in [("1e11", false), ("86401", false), ("86400", true), ("0", false)] {
            try #"{"\#(field)":\#(value)}"#.write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try ServiceConfiguration.load(from: path)
                #expect(accepted, "\(field) \(value) was accepted")
            } catch {
                #expect(!accepted, "\(field) \(value): \(error)")
                #expect("\(error)".contains(field) && "\(error)".contains("86400"), "\(error)")
            }
        }
    }

    @Test("a file that is not JSON, or a field of the wrong type, is named in words, each sentence ended once")
    func unreadableFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.path + "/config.json"
        for (text, expected) in [("{bad", "is not valid JSON"), (#"{"port":"8080"}"#, #"the field "port" is not a whole number"#)] {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            #expect {
                _ = try ServiceConfiguration.load(from: path)
            } throws: { error in
                let message = "\(error)"
                return message.hasPrefix("Invalid configuration in \(path): ") && message.contains(expected)
                    && !message.contains("..") && !message.contains("DecodingError")
            }
        }
    }
}
