import Crypto
import Foundation
import LMDBKit
import PaylogStore

/// Adds, lists, revokes and checks API keys.
///
/// A key reads `pk_<id>_<secret>`: 8 random bytes of id and 32 of secret, in hex. Only the SHA-256 of the
/// secret is stored, under the id; a presented key is found by its id and its secret's hash compared in
/// constant time, so neither a stolen database nor response timing gives the key away.
public struct APIKeyStore: Sendable {
    let database: ServiceDatabase

    /// The keys kept in `database`.
    public init(database: ServiceDatabase) {
        self.database = database
    }

    /// Checks that `name` may name a key: 1–64 ASCII letters, digits, `-`, `_` or `.`.
    /// - Throws: ``APIKeyError/invalidName(_:)`` when it may not.
    public static func checkName(_ name: String) throws(APIKeyError) {
        guard (1...64).contains(name.count),
            name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0)) })
        else { throw .invalidName(name) }
    }

    /// Adds a key named `name` with `scopes` and returns it: the only time its full text exists.
    public func add(name: String, scopes: [APIKeyScope], now: Timestamp = .now()) throws(APIKeyError) -> IssuedAPIKey {
        try APIKeyStore.checkName(name)
        guard !scopes.isEmpty else { throw .noScopes }
        let id = APIKeyStore.randomHex(bytes: 8), secret = APIKeyStore.randomHex(bytes: 32)
        let record = APIKey(
            name: name, id: id, secretHash: APIKeyStore.sha256Hex(secret), scopes: Array(Set(scopes)).sorted(),
            createdAt: now.rfc3339)
        let outcome: Result<Void, APIKeyError> = try storage {
            try database.environment.write { txn in
                if try APIKeyStore.all(txn, database.keys).contains(where: { $0.name == name }) {
                    return Result<Void, APIKeyError>.failure(.duplicateName(name))
                }
                try txn.put(Array(try JSONEncoder().encode(record)), for: Array(id.utf8), in: database.keys)
                return .success(())
            }
        }
        try outcome.get()
        return IssuedAPIKey(name: name, key: "pk_\(id)_\(secret)", scopes: record.scopes)
    }

    /// Every key, by name.
    public func list() throws(APIKeyError) -> [APIKey] {
        try storage { try database.environment.read { txn in try APIKeyStore.all(txn, database.keys) } }
    }

    /// Removes the key named `name`; requests with it fail with 401 from then on.
    public func revoke(name: String) throws(APIKeyError) {
        let removed = try storage {
            try database.environment.write { txn -> Bool in
                guard let key = try APIKeyStore.all(txn, database.keys).first(where: { $0.name == name }) else { return false }
                return try txn.delete(Array(key.id.utf8), in: database.keys)
            }
        }
        if !removed { throw .unknownName(name) }
    }

    /// The key `presented` is, or nil when it is malformed, unknown, revoked or its secret does not match.
    /// - Throws: ``APIKeyError/storage(_:)`` when the key database cannot be read: the key may well be valid, so
    ///   the caller must not answer "unknown key" (the service answers 503).
    public func authenticate(_ presented: String) throws(APIKeyError) -> APIKey? {
        let parts = presented.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "pk", parts[1].count == 16, parts[2].count == 64 else { return nil }
        let record: [UInt8]?
        do {
            record = try database.environment.read { txn in try txn.value(for: Array(parts[1].utf8), in: database.keys) }
        } catch {
            throw .storage("\(error)")
        }
        // A record that does not decode is no key anyone holds: refused as unknown.
        let stored = record.flatMap { try? JSONDecoder().decode(APIKey.self, from: Data($0)) }
        // Hash and compare even when the id is unknown, so both paths take the same time.
        let expected = Array((stored?.secretHash ?? String(repeating: "0", count: 64)).utf8)
        let actual = Array(APIKeyStore.sha256Hex(String(parts[2])).utf8)
        guard APIKeyStore.constantTimeEqual(expected, actual), let key = stored else { return nil }
        return key
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    static func all(_ txn: borrowing Transaction, _ db: Database) throws -> [APIKey] {
        try txn.withCursor(db) { cursor in
            var keys: [APIKey] = []
            var found = try cursor.move(.first)
            while found {
                keys.append(try cursor.withCurrent { _, value in try JSONDecoder().decode(APIKey.self, from: Data(value)) })
                found = try cursor.move(.next)
            }
            return keys.sorted { $0.name < $1.name }
        }
    }

    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private func storage<R>(_ body: () throws -> R) throws(APIKeyError) -> R {
        do { return try body() } catch let error as APIKeyError { throw error } catch { throw .storage("\(error)") }
    }
}
