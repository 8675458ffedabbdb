import Hummingbird

/// The service's routes as method and path pattern (a `:name` segment matches any one segment): what tells a path
/// no route serves (404) from a path served only with other methods (405, with `Allow` listing them).
struct RouteTable: Sendable {
    private var routes: [(method: HTTPRequest.Method, segments: [Substring])] = []

    /// An empty table.
    init() {}

    /// Notes that `method` is served on `path`.
    mutating func add(_ method: HTTPRequest.Method, _ path: String) {
        routes.append((method, path.split(separator: "/")))
    }

    /// The methods served on `path`, in the order the routes were added (empty: no route matches the path).
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        var methods: [HTTPRequest.Method] = []
        for route in routes where RouteTable.matches(route.segments, segments) && !methods.contains(route.method) {
            methods.append(route.method)
        }
        return methods
    }

    /// The template of the route that matches `path` whatever its method, as the router names it (`/v1/payments/{id}`),
    /// or nil when none does: how a 405 is counted under its route.
    func template(for path: String) -> String? {
        let segments = path.split(separator: "/")
        guard let route = routes.first(where: { RouteTable.matches($0.segments, segments) }) else { return nil }
        return "/" + route.segments.map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    private static func matches(_ pattern: [Substring], _ segments: [Substring]) -> Bool {
        guard pattern.count == segments.count else { return false }
        return zip(pattern, segments).allSatisfy { pattern, segment in pattern.hasPrefix(":") || pattern == segment }
    }
}
