import PaylogStore
import Testing

@Suite("Timestamps")
struct TimestampTests {
    @Test("RFC 3339 parses with offsets and fractions and formats back in UTC with microseconds")
    func rfc3339() throws {
        let utc = try #require(Timestamp(rfc3339: "2026-11-22T09:15:02.123456Z"))
        #expect(utc.rfc3339 == "2026-11-22T09:15:02.123456Z")
        let offset = try #require(Timestamp(rfc3339: "2026-11-22T10:15:02.5+01:00"))
        #expect(offset.rfc3339 == "2026-11-22T09:15:02.500000Z")
        #expect(Timestamp(rfc3339: "1970-01-01T00:00:00Z")?.microseconds == 0)
        #expect(Timestamp(rfc3339: "1969-12-31T23:59:59.5Z")?.rfc3339 == "1969-12-31T23:59:59.500000Z")
        for bad in ["", "2026-11-22", "2026-02-30T00:00:00Z", "2026-11-22T25:00:00Z", "2026-11-22T09:15:02", "yesterday"] {
            #expect(Timestamp(rfc3339: bad) == nil, "\(bad) must not parse")
        }
    }

    @Test("7 to 9 fractional digits parse, the sub-microsecond digits dropped; 10 are refused")
    func nanosecondFractions() throws {
        #expect(Timestamp(rfc3339: "2026-11-21T09:00:03.1234567Z")?.rfc3339 == "2026-11-21T09:00:03.123456Z")
        #expect(Timestamp(rfc3339: "2026-11-21T09:00:03.12345678Z")?.rfc3339 == "2026-11-21T09:00:03.123456Z")
        #expect(Timestamp(rfc3339: "2026-11-21T09:00:03.999999999+01:00")?.rfc3339 == "2026-11-21T08:00:03.999999Z")
        #expect(Timestamp(rfc3339: "2026-11-21T09:00:03.1234567890Z") == nil)
        #expect(Timestamp(rfc3339: "2026-11-21T09:00:03.Z") == nil)
    }

    @Test("a leap second is refused with advice, never folded into second 59")
    func leapSecond() {
        #expect(Timestamp(rfc3339: "2016-12-31T23:59:60Z") == nil)
        #expect(Timestamp(rfc3339: "2016-12-31T23:59:60.5Z") == nil)
        #expect(Timestamp(rfc3339: "2026-11-21T09:00:60+01:00") == nil)
        #expect(Timestamp.leapSecondAdvice("2016-12-31T23:59:60.5Z")?.contains("leap second") == true)
        #expect(Timestamp.leapSecondAdvice("2016-12-31T23:59:59.5Z") == nil)
        #expect(Timestamp(rfc3339: "2016-12-31T23:59:59.999999Z")?.rfc3339 == "2016-12-31T23:59:59.999999Z")
    }

    @Test("a time without its offset is refused with advice naming the missing offset; other refusals get none")
    func missingOffset() {
        #expect(Timestamp(rfc3339: "2026-11-21T09:40:30") == nil)
        let advice = Timestamp.refusalAdvice("2026-11-21T09:40:30")
        #expect(advice?.contains("no offset") == true && advice?.contains("2026-11-21T09:40:30Z") == true, "\(advice ?? "")")
        #expect(Timestamp.refusalAdvice("2026-11-21T09:40:30.25")?.contains("no offset") == true)
        #expect(Timestamp.refusalAdvice("2016-12-31T23:59:60Z")?.contains("leap second") == true)
        for other in ["yesterday", "2026-11-21", "2026-11-21T25:00:00", "2026-11-21T09:40:30Q", ""] {
            #expect(Timestamp.refusalAdvice(other) == nil, "\(other)")
        }
    }

    @Test("every Int64 of microseconds prints without trapping")
    func extremes() {
        // `microseconds - 999_999` trapped near Int64.min: a log holding such a time (imported) crashed every reader.
        #expect(Timestamp(microseconds: .min).rfc3339.hasSuffix(".224192Z"))
        #expect(Timestamp(microseconds: .max).rfc3339.hasSuffix(".775807Z"))
        #expect(Timestamp(microseconds: -1).rfc3339 == "1969-12-31T23:59:59.999999Z")
    }

    @Test("the range paylog records is the one RFC 3339 parsing gives: years 0000 to 9999 in UTC")
    func recordableRange() throws {
        let earliest = try #require(Timestamp(rfc3339: "0000-01-01T00:00:00Z"))
        let latest = try #require(Timestamp(rfc3339: "9999-12-31T23:59:59.999999Z"))
        #expect(earliest.rfc3339 == "0000-01-01T00:00:00.000000Z" && latest.rfc3339 == "9999-12-31T23:59:59.999999Z")
        #expect(earliest.isRecordable && latest.isRecordable)
        #expect(!Timestamp(microseconds: earliest.microseconds - 1).isRecordable)
        #expect(!Timestamp(microseconds: latest.microseconds + 1).isRecordable)
        // An offset carrying the year past four digits is not a time paylog records.
        #expect(Timestamp(rfc3339: "0000-01-01T00:00:00+01:00") == nil)
        #expect(Timestamp(rfc3339: "9999-12-31T23:30:00-01:00") == nil)
    }
}
