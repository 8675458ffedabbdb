import Foundation
import LMDBKit

/// A text dump of an LMDB environment as `mdb_dump -a` prints it (`format=bytevalue`): how tests keep a store
/// written by an earlier paylog as a readable fixture, and load it into a fresh directory.
public struct MDBDump: Sendable {
    /// One named database of the dump and its entries in key order. paylog's databases take no flags (a dump
    /// with `duplicates=1` or the like is refused as an unknown header line).
    public struct Section: Sendable {
        /// The database's name.
        public var name: String
        /// Its entries, key then value, in the dump's order.
        public var entries: [(key: [UInt8], value: [UInt8])]
    }

    /// Why a dump could not be read.
    public struct ParseError: Error, CustomStringConvertible {
        /// What was wrong, and on which line.
        public let description: String
    }

    /// The dump's named databases (the main database's own entries, which only name them, are left out).
    public private(set) var sections: [Section] = []

    /// Reads the dump in `text`.
    public init(_ text: String) throws {
        var current: Section?
        var inData = false
        var pendingKey: [UInt8]?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            if inData {
                if line == "DATA=END" {
                    if let section = current, !section.name.isEmpty { sections.append(section) }
                    guard pendingKey == nil else { throw ParseError(description: "line \(number): a key without a value") }
                    current = nil
                    inData = false
                } else if line.first == " " {
                    let bytes = try Self.hex(line.dropFirst(), line: number)
                    if let key = pendingKey {
                        current?.entries.append((key, bytes))
                        pendingKey = nil
                    } else {
                        pendingKey = bytes
                    }
                } else if !line.isEmpty {  // mdb_dump prints an empty value as a lone space, never an empty line
                    throw ParseError(description: "line \(number): expected a hex line or DATA=END, found \(line)")
                }
                continue
            }
            if line.isEmpty { continue }
            if current == nil { current = Section(name: "", entries: []) }
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            switch (parts.first, parts.count == 2 ? parts[1] : nil) {
            case ("HEADER", "END"?): inData = true
            case ("database", let name?): current?.name = name
            case ("format", let format?) where format != "bytevalue":
                throw ParseError(description: "line \(number): only format=bytevalue dumps are read, found \(format)")
            case ("VERSION", _), ("format", _), ("type", _), ("mapsize", _), ("maxreaders", _), ("db_pagesize", _),
                ("mapaddr", _):
                break
            default:
                throw ParseError(description: "line \(number): unknown header line \(line)")
            }
        }
        guard current == nil, !inData else { throw ParseError(description: "the dump ends inside a database") }
    }

    /// Writes every database of the dump into a new LMDB environment in directory `path`, in one transaction.
    public func load(into path: String) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let environment = try Environment(path: path, options: EnvironmentOptions(maxDatabases: 64))
        defer { environment.close() }
        try environment.write { txn in
            for section in sections {
                guard let database = try txn.openDatabase(section.name, create: true) else {
                    throw ParseError(description: "could not create database \(section.name)")
                }
                for entry in section.entries { try txn.put(entry.value, for: entry.key, in: database) }
            }
        }
    }

    private static func hex(_ text: Substring, line: Int) throws -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { throw ParseError(description: "line \(line): an odd number of hex digits") }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
                throw ParseError(description: "line \(line): not a hex digit")
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
