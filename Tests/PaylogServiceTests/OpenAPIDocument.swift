import Foundation
import Yams

/// `Docs/openapi.yaml`, loaded, with a small JSON-schema validator for the subset it uses: `$ref`, `type`,
/// `nullable`, `required`, `properties`, `additionalProperties`, `items`, `enum`, `allOf`, `oneOf`, `anyOf`,
/// `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`.
struct OpenAPIDocument: @unchecked Sendable {  // immutable after init
    let root: [String: Any]

    init() throws {
        root = try Yams.load(yaml: try RepositoryFiles.text("Docs/openapi.yaml")) as? [String: Any] ?? [:]
    }

    /// Every documented `(METHOD, path template)`.
    var operations: [(method: String, path: String)] {
        let paths = root["paths"] as? [String: Any] ?? [:]
        return paths.flatMap { path, item in
            (item as? [String: Any] ?? [:]).keys
                .filter { ["get", "post", "put", "patch", "delete"].contains($0) }
                .map { (method: $0.uppercased(), path: path) }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }

    /// The values `components.schemas.Error.properties.error.properties.code.enum` lists; nil when it is missing.
    var errorCodes: [String]? {
        var node: Any? = root
        for key in ["components", "schemas", "Error", "properties", "error", "properties", "code", "enum"] {
            node = (node as? [String: Any])?[key]
        }
        return node as? [String]
    }

    /// The response object documented for `status` on an operation, or nil when the status is undocumented.
    func response(method: String, path: String, status: Int) -> [String: Any]? {
        guard let item = (root["paths"] as? [String: Any])?[path] as? [String: Any],
            let operation = item[method.lowercased()] as? [String: Any],
            let responses = operation["responses"] as? [String: Any]
        else { return nil }
        guard let response = (responses[String(status)] ?? responses["default"]) as? [String: Any] else { return nil }
        return resolve(response)
    }

    /// Checks `body` against the documented response; returns the problems (empty when it conforms).
    func problems(method: String, path: String, status: Int, contentType: String?, body: String) -> [String] {
        guard let response = response(method: method, path: path, status: status) else {
            return ["\(method) \(path): status \(status) is not documented"]
        }
        guard let content = response["content"] as? [String: Any] else {
            return body.isEmpty ? [] : ["\(method) \(path) \(status): a body was sent but none is documented"]
        }
        if let media = content["application/json"] as? [String: Any], let schema = media["schema"] {
            guard contentType?.hasPrefix("application/json") == true else {
                return ["\(method) \(path) \(status): Content-Type \(contentType ?? "none") is not application/json"]
            }
            guard let value = try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) else {
                return ["\(method) \(path) \(status): the body is not JSON"]
            }
            var found: [String] = []
            validate(value, against: schema, at: "$", into: &found)
            return found.map { "\(method) \(path) \(status): \($0)" }
        }
        let documented = content.keys.contains { contentType?.hasPrefix($0.split(separator: ";")[0]) == true }
        return documented ? [] : ["\(method) \(path) \(status): Content-Type \(contentType ?? "none") is not documented"]
    }

    private func resolve(_ node: [String: Any]) -> [String: Any] {
        guard let reference = node["$ref"] as? String, reference.hasPrefix("#/") else { return node }
        var current: Any = root
        for part in reference.dropFirst(2).split(separator: "/") {
            current = (current as? [String: Any])?[String(part)] ?? [:]
        }
        return resolve(current as? [String: Any] ?? [:])
    }

    private func validate(_ value: Any, against schemaNode: Any, at path: String, into problems: inout [String]) {
        let schema = resolve(schemaNode as? [String: Any] ?? [:])
        if value is NSNull {
            if schema["nullable"] as? Bool != true && schema["type"] != nil { problems.append("\(path) is null but not nullable") }
            return
        }
        if let all = schema["allOf"] as? [Any] { for part in all { validate(value, against: part, at: path, into: &problems) } }
        for key in ["oneOf", "anyOf"] {
            guard let options = schema[key] as? [Any] else { continue }
            let passing = options.filter { option in
                var local: [String] = []
                validate(value, against: option, at: path, into: &local)
                return local.isEmpty
            }.count
            if passing == 0 || (key == "oneOf" && passing > 1) {
                problems.append("\(path) matches \(passing) of the \(key) schemas")
            }
        }
        if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == "\(value)" }) {
            problems.append("\(path) = \(value) is not one of \(options)")
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { return problems.append("\(path) is not an object") }
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(path).\(name) is required but missing")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (name, item) in object {
                if let property = properties[name] {
                    validate(item, against: property, at: "\(path).\(name)", into: &problems)
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path).\(name) is not documented")
                } else if let additional = schema["additionalProperties"] as? [String: Any] {
                    validate(item, against: additional, at: "\(path).\(name)", into: &problems)
                }
            }
        case "array":
            guard let array = value as? [Any] else { return problems.append("\(path) is not an array") }
            if let items = schema["items"] {
                for (index, item) in array.enumerated() { validate(item, against: items, at: "\(path)[\(index)]", into: &problems) }
            }
        case "string":
            guard let text = value as? String else { return problems.append("\(path) is not a string") }
            if let minimum = schema["minLength"] as? Int, text.count < minimum { problems.append("\(path) is shorter than \(minimum)") }
            if let maximum = schema["maxLength"] as? Int, text.count > maximum { problems.append("\(path) is longer than \(maximum)") }
            if let pattern = schema["pattern"] as? String, text.range(of: pattern, options: .regularExpression) == nil {
                problems.append("\(path) = \(text) does not match \(pattern)")
            }
        case "integer", "number":
            guard let number = value as? NSNumber, !(String(describing: type(of: value)).contains("Boolean")) else {
                return problems.append("\(path) is not a number")
            }
            if schema["type"] as? String == "integer", number.doubleValue != number.doubleValue.rounded() {
                problems.append("\(path) is not an integer")
            }
            if let minimum = schema["minimum"] as? Double ?? (schema["minimum"] as? Int).map(Double.init), number.doubleValue < minimum {
                problems.append("\(path) is below \(minimum)")
            }
            if let maximum = schema["maximum"] as? Double ?? (schema["maximum"] as? Int).map(Double.init), number.doubleValue > maximum {
                problems.append("\(path) is above \(maximum)")
            }
        case "boolean":
            if !(String(describing: type(of: value)).contains("Boolean")) { problems.append("\(path) is not a boolean") }
        default:
            break
        }
    }
}
