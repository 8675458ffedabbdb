import Foundation
import PaylogWorkflow

/// One analytics cell as a JSON object: a line of `paylog analytics --format jsonl`, an element of
/// `GET /v1/analytics`.
public enum AnalyticsJSON {
    /// Every field of the cell; numbers as numbers, empty figures as null, failure codes as an object.
    public static func object(_ cell: AnalyticsCell) -> [String: Any] {
        var object: [String: Any] = [:]
        for (key, value) in cell.fields {
            if let number = Int64(value) {
                object[key] = number
            } else if value.isEmpty {
                object[key] = NSNull()
            } else {
                object[key] = value
            }
        }
        object["failure_codes"] = cell.failureCodes
        return object
    }
}
