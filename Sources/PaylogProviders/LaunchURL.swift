import Foundation

/// Assembles a launch URL from fixed parts and strictly percent-encoded query items.
enum LaunchURL {
    static func make(scheme: String, host: String, path: String, items: [(String, String)]) -> String {
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.path = path
        components.percentEncodedQueryItems = items.map {
            URLQueryItem(name: $0.0.percentEncodedStrictly, value: $0.1.percentEncodedStrictly)
        }
        guard let url = components.string else {
            preconditionFailure("a URL from a fixed scheme, host, path and strictly encoded query is valid")
        }
        return url
    }
}
