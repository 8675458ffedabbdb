import Foundation

extension DecodingError {
    /// Why a JSON text did not decode, in words for the person who wrote it: which field is missing, null or of the
    /// wrong type, or that the text is not JSON at all. The default description (`DecodingError.dataCorrupted(…)`)
    /// names Swift's types and repeats "Debug description", which says nothing to an operator.
    public var reason: String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        // Foundation's sentences end with a period; the caller's sentence goes on after this reason.
        func trimmed(_ text: String) -> String { text.hasSuffix(".") ? String(text.dropLast()) : text }
        switch self {
        case .keyNotFound(let key, let context):
            let path = field(context.codingPath + [key])
            return "the field \"\(path)\" is missing"
        case .valueNotFound(_, let context):
            return "the field \"\(field(context.codingPath))\" is null"
        case .typeMismatch(let type, let context):
            return "the field \"\(field(context.codingPath))\" is not \(Self.kind(of: type))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let underlying = (context.underlyingError as? NSError)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return "it is not valid JSON" + (underlying.map { " (\(trimmed($0)))" } ?? "")
        case .dataCorrupted(let context):
            return "the field \"\(field(context.codingPath))\" is invalid: \(trimmed(context.debugDescription))"
        @unknown default:
            return trimmed("\(self)")
        }
    }

    /// What a JSON value of `type` looks like, for ``reason``.
    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type: "a whole number"
        case is any BinaryFloatingPoint.Type, is Decimal.Type: "a number"
        case is [Any].Type: "an array"
        default: "of the expected type"
        }
    }
}
