import Foundation
import HTTPTypes
import Hummingbird
import PaylogPresentation

/// A JSON answer before it becomes a `Response`: what a POST's idempotency record stores.
struct Answer: Sendable {
    /// The HTTP status.
    var status: HTTPResponse.Status
    /// The JSON body.
    var body: Data
    /// Extra headers, e.g. `Location`.
    var headers: [String: String] = [:]

    /// `object` serialized with sorted keys.
    init(_ status: HTTPResponse.Status, _ object: Any, headers: [String: String] = [:]) throws {
        self.status = status
        self.body = try JSONText.data(object)
        self.headers = headers
    }

    /// A body already written as JSON text (``PaylogPresentation/AnalyticsJSON``, for numbers and keys that
    /// `JSONSerialization` cannot write).
    init(_ status: HTTPResponse.Status, json: String, headers: [String: String] = [:]) {
        self.status = status
        self.body = Data(json.utf8)
        self.headers = headers
    }

    /// `value` encoded with sorted keys.
    init<T: Encodable>(_ status: HTTPResponse.Status, encodable value: T) throws {
        self.status = status
        self.body = Data(try JSONText.encode(encodable: value).utf8)
    }

    /// An answer rebuilt from its idempotency record.
    init(stored: StoredResponse) {
        status = HTTPResponse.Status(code: stored.status)
        body = stored.body
        headers = stored.headers
    }

    /// The HTTP response.
    func response(replayed: Bool = false) -> Response {
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        if replayed { fields[HTTPField.Name("Idempotent-Replayed")!] = "true" }
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
