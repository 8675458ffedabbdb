import Foundation

/// A point in time with microsecond precision, stored as microseconds since 1970-01-01T00:00:00Z (UTC).
///
/// The log stores integers, never floating-point dates, so a recorded time reads back exactly.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Microseconds since the Unix epoch, UTC.
    public var microseconds: Int64

    /// A timestamp from microseconds since the Unix epoch.
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// The timestamp nearest to `date`.
    public init(_ date: Date) {
        self.microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// Orders timestamps by time.
    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }

    /// The current wall-clock time.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }

    /// The same instant as a `Date` (sub-microsecond rounding may apply).
    public var date: Date { Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }

    /// RFC 3339 in UTC with microseconds, e.g. `2026-11-22T09:15:02.123456Z`.
    public var rfc3339: String {
        // Floor division without overflow: `microseconds - 999_999` trapped near `Int64.min`, and a time in the log
        // (an import's, before imports checked their range) must never crash a reader.
        var seconds = microseconds / 1_000_000
        var fraction = microseconds % 1_000_000
        if fraction < 0 {
            seconds -= 1
            fraction += 1_000_000
        }
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let fractionText = String(fraction)
        let padded = String(repeating: "0", count: 6 - fractionText.count) + fractionText
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%@Z",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), padded)
    }

    /// The RFC 3339 form.
    public var description: String { rfc3339 }

    /// The earliest time paylog records: 0000-01-01T00:00:00Z, the first RFC 3339 can write.
    public static let earliestRecordable = Timestamp(microseconds: -62_167_219_200_000_000)

    /// The latest time paylog records: 9999-12-31T23:59:59.999999Z, the last RFC 3339 can write.
    public static let latestRecordable = Timestamp(microseconds: 253_402_300_799_999_999)

    /// Whether paylog can record this time: it lies in ``earliestRecordable``…``latestRecordable``, the times
    /// ``init(rfc3339:)`` accepts and ``rfc3339`` writes with a four-digit year.
    public var isRecordable: Bool { (Self.earliestRecordable...Self.latestRecordable).contains(self) }

    /// What to tell someone whose time `text` was refused, when the reason is one people meet: a leap second
    /// (``leapSecondAdvice(_:)``), or a date and time without the offset RFC 3339 requires (`2026-11-21T09:40:30`,
    /// which could be any time zone's). Nil for anything else, which the caller's general message covers.
    public static func refusalAdvice(_ text: String) -> String? {
        if let leap = leapSecondAdvice(text) { return leap }
        guard Timestamp(rfc3339: text + "Z") != nil else { return nil }
        return "it has no offset, and a time without one could be any time zone's: add Z for UTC (\(text)Z) or the "
            + "offset it was taken in (\(text)+01:00)"
    }

    /// What to tell someone whose time `text` was refused for its leap second (`…:60`, with or without a fraction),
    /// or nil when it has none: paylog keeps Unix time to the microsecond, which has no second 60.
    public static func leapSecondAdvice(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        // `YYYY-MM-DDThh:mm:60`: the seconds are bytes 17 and 18.
        guard bytes.count >= 19, bytes[16] == UInt8(ascii: ":"), bytes[17] == UInt8(ascii: "6"), bytes[18] == UInt8(ascii: "0")
        else { return nil }
        return "second 60 (a leap second) has no Unix time of its own, and paylog keeps Unix time to the microsecond: "
            + "write it as second 59 with a fraction (e.g. 23:59:59.999999) or as the next second"
    }

    /// Parses RFC 3339 (`2026-11-22T09:15:02Z`, `…02.5+01:00`, up to 9 fractional digits, `T` or space,
    /// `Z` or a numeric offset). Returns nil for anything else, and for a leap second (`:60`, which RFC 3339
    /// allows but Unix time cannot hold apart from the second before it). A timestamp keeps microseconds: a 7th to
    /// 9th fractional digit is dropped.
    public init?(rfc3339 text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
            expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
            let second = number(2)
        else { return nil }
        // Second 60 (a leap second) is refused: Unix time has none, and folding it into second 59 made two
        // observations a second apart one, the later dropped as already recorded (see ``leapSecondAdvice``).
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var micros = 0
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            var digits = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if digits < 6 { micros = micros * 10 + Int(bytes[index] - 48) }
                digits += 1
                index += 1
            }
            guard digits > 0, digits <= 9 else { return nil }
            // Up to 6 digits scale to microseconds; a 7th to 9th (nanoseconds) are dropped. (`digits..<6` with
            // more than 6 digits is an invalid range, which traps: the `where` clause filters after it is built.)
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        var offsetSeconds = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
        } else {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            guard expect("+-"), let offsetHours = number(2), expect(":"), let offsetMinutes = number(2),
                offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offsetSeconds = sign * (offsetHours * 3600 + offsetMinutes * 60)
        }
        guard index == bytes.count else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let epochSeconds = Int64(timegm(&parts)) - Int64(offsetSeconds)
        // Reject dates timegm normalised (e.g. February 30th).
        var check = time_t(epochSeconds + Int64(offsetSeconds))
        var back = tm()
        gmtime_r(&check, &back)
        guard Int(back.tm_mday) == day, Int(back.tm_mon) == month - 1 else { return nil }
        self.microseconds = epochSeconds * 1_000_000 + Int64(micros)
        // An offset can carry year 0000 or 9999 past what a four-digit year writes: not a time paylog records.
        guard isRecordable else { return nil }
    }
}
