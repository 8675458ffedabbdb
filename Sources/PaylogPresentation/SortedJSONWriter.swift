import Foundation
import Synchronization

/// Writes exactly the bytes `JSONSerialization` writes with `[.sortedKeys, .withoutEscapingSlashes]`, for the values
/// paylog's outputs hold (strings, integers, booleans, `NSNull`, arrays, dictionaries with ASCII string keys), about
/// six times faster; nil for any other value (a floating-point number, a key beyond ASCII), which ``JSONText`` then
/// leaves to `JSONSerialization`.
///
/// `JSONSerialization` orders each dictionary's keys by `String.compare(_:options:range:locale:)` with `.numeric`,
/// `.caseInsensitive` and `.forcedOrdering` in the system locale, through ICU's collation: about 90 µs of a payment's
/// object (`paylog status --json`, every HTTP answer). Here each distinct set of keys is ordered once by that same
/// comparison and the order remembered, and the values are written directly. `SortedJSONWriterTests` holds the two
/// byte for byte equal over random objects.
struct SortedJSONWriter {
    /// Key orders already worked out: the keys in UTF-8 byte order, to the same keys in `JSONSerialization`'s order.
    private static let orders = Mutex<[[String]: [String]]>([:])
    /// The most key sets remembered: objects keyed by data (a failure code's counts) would otherwise grow it forever.
    private static let maximumOrders = 4_096

    private var out: [UInt8] = []

    /// `object` as `JSONSerialization` writes it with sorted keys and unescaped slashes, or nil when it holds a value
    /// this writer leaves to `JSONSerialization`.
    static func bytes(_ object: Any) -> [UInt8]? {
        // `JSONSerialization` refuses anything but an array or a dictionary at the top.
        guard object is [Any] || object is [String: Any] else { return nil }
        var writer = SortedJSONWriter()
        writer.out.reserveCapacity(256)
        guard writer.write(object) else { return nil }
        return writer.out
    }

    /// The keys in the order `JSONSerialization` writes them.
    static func order(of keys: [String]) -> [String] {
        let canonical = keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        if let known = orders.withLock({ $0[canonical] }) { return known }
        let ordered = canonical.sorted { a, b in
            a.compare(
                b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
                locale: NSLocale.system) == .orderedAscending
        }
        orders.withLock { if $0.count < maximumOrders { $0[canonical] = ordered } }
        return ordered
    }

    /// Appends `value`; false when it is not a value this writer writes.
    private mutating func write(_ value: Any) -> Bool {
        switch value {
        case let text as String:
            string(text)
        case let flag as Bool:
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case let number as Int:
            out.append(contentsOf: String(number).utf8)
        case let number as Int64:
            out.append(contentsOf: String(number).utf8)
        case let number as Int32:
            out.append(contentsOf: String(number).utf8)
        case let number as UInt64:
            out.append(contentsOf: String(number).utf8)
        case let number as UInt32:
            out.append(contentsOf: String(number).utf8)
        case is NSNull:
            out.append(contentsOf: "null".utf8)
        case let array as [Any]:
            out.append(UInt8(ascii: "["))
            for (index, element) in array.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                guard write(element) else { return false }
            }
            out.append(UInt8(ascii: "]"))
        case let dictionary as [String: Any]:
            // Only ASCII keys: ICU orders them strictly, whatever order they come in, and no two differ only by
            // their Unicode form (as "é" and "e\u{301}", one key to Swift). Others are left to JSONSerialization.
            guard dictionary.keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return false }
            out.append(UInt8(ascii: "{"))
            for (index, key) in Self.order(of: Array(dictionary.keys)).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                string(key)
                out.append(UInt8(ascii: ":"))
                guard let element = dictionary[key], write(element) else { return false }
            }
            out.append(UInt8(ascii: "}"))
        default:
            return false
        }
        return true
    }

    /// Appends `text` as a JSON string literal, escaped as `JSONSerialization` escapes it (``JSONText/quoted(_:)``).
    private mutating func string(_ text: String) {
        out.append(contentsOf: JSONText.quoted(text).utf8)
    }
}
