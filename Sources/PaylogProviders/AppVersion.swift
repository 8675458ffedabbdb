/// A provider app version such as `1.53.2`, compared component by component (`1.69` > `1.8`).
///
/// Missing trailing components count as zero, so `1.53` equals `1.53.0`.
public struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numeric components, e.g. `[1, 53, 2]`.
    public let components: [Int]

    /// Reads dotted decimal numbers; returns `nil` for anything else (`"v1.2"`, `"1..2"`, `""`).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        components = numbers
    }

    /// The dotted form.
    public var description: String { components.map(String.init).joined(separator: ".") }

    /// Compares component by component, padding the shorter version with zeros.
    public static func < (lhs: AppVersion, rhs: AppVersion) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }

    /// Equal when all components are equal after padding with zeros.
    public static func == (lhs: AppVersion, rhs: AppVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    /// Hashes the components without trailing zeros, consistent with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        var trimmed = components[...]
        while trimmed.last == 0 { trimmed = trimmed.dropLast() }
        hasher.combine(Array(trimmed))
    }
}
