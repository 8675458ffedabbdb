import Foundation
import PaylogStore

/// A request's JSON object, read strictly: it must be one object, every field must be one the endpoint
/// knows, and each field must have the expected type. Errors name the field.
struct JSONBody {
    private let object: [String: Any]

    /// Parses `bytes` as one JSON object whose fields are all in `allowed`.
    init(_ bytes: [UInt8], allowed: Set<String>) throws(ServiceError) {
        guard !bytes.isEmpty else { throw .invalidBody("The request needs a JSON object body.") }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: [])
        } catch {
            throw .invalidBody("The body is not valid JSON (\(JSONBody.reason(error))).")
        }
        guard let object = parsed as? [String: Any] else { throw .invalidBody("The body must be a JSON object.") }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .invalidField(unknown, "is not a field of this endpoint (known: \(allowed.sorted().joined(separator: ", ")))")
        }
        self.object = object
    }

    /// True when field `name` is present and not null, whatever its type.
    func has(_ name: String) -> Bool {
        guard let value = object[name] else { return false }
        return !(value is NSNull)
    }

    /// A string field, or nil when absent or null.
    func string(_ name: String) throws(ServiceError) -> String? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw .invalidField(name, "must be a string") }
        return text
    }

    /// A string field that must be present and non-empty.
    func required(_ name: String) throws(ServiceError) -> String {
        guard let text = try string(name) else { throw .invalidField(name, "is required") }
        guard !text.isEmpty else { throw .invalidField(name, "must not be empty") }
        return text
    }

    /// A boolean field, or nil when absent.
    func bool(_ name: String) throws(ServiceError) -> Bool? {
        guard let value = object[name], !(value is NSNull) else { return nil }
        // JSON true/false arrive as a boolean NSNumber; 0 and 1 also bridge to Bool, so check the type's name.
        guard let flag = value as? Bool, String(describing: type(of: value)).contains("Boolean") else {
            throw .invalidField(name, "must be true or false")
        }
        return flag
    }

    /// `key` (the request's retry key, see ``PaylogService/post(_:_:largeBody:_:)``) when the body gives no `at`, the
    /// observation's time then being only when this attempt came; nil when it gives one, which identifies it.
    func retryKey(_ key: String?) -> String? {
        has("at") ? nil : key
    }

    /// The `at` field as a time, or now when absent.
    func observedAt() throws(ServiceError) -> Timestamp {
        guard let text = try string("at") else { return .now() }
        guard let time = Timestamp(rfc3339: text) else {
            if let advice = Timestamp.refusalAdvice(text) { throw .invalidField("at", advice) }
            throw .invalidField("at", "must be an RFC 3339 time like 2026-11-22T09:15:02Z")
        }
        return time
    }

    private static func reason(_ error: any Error) -> String {
        let text = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        return text ?? "cannot be parsed"
    }
}
