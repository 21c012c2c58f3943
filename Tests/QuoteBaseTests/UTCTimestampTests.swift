@testable import QuoteBase
import Testing

/// The project's own moments, "2026-12-01T00:00:00Z": written and read back exactly, years 1 to 9999 only.
@Suite struct UTCTimestampTests {
    @Test(arguments: [
        (0, "1970-01-01T00:00:00Z"), (-1, "1969-12-31T23:59:59Z"), (1_796_083_200, "2026-12-01T00:00:00Z"),
        (951_782_400, "2000-02-29T00:00:00Z"), (UTCTimestamp.earliest, "0001-01-01T00:00:00Z"),
        (UTCTimestamp.latest, "9999-12-31T23:59:59Z"),
    ])
    func timestampsRoundTrip(seconds: Int, text: String) {
        #expect(UTCTimestamp.format(seconds) == text)
        #expect(UTCTimestamp.parse(text) == seconds)
    }

    @Test(arguments: [
        "", "2026-12-01", "2026-12-01T00:00:00", "2026-12-01T00:00:00+00:00", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z",
        "2026-12-01T24:00:00Z", "2026-12-01T00:60:00Z", "0000-01-01T00:00:00Z", "２026-12-01T00:00:00Z", "-026-12-01T00:00:00Z",
        "2026-12-01T00:00:00Zjunk",
        // The edges of the calendar and of the format.
        "1900-02-29T00:00:00Z", "2100-02-29T00:00:00Z", "10000-01-01T00:00:00Z", "9999-12-31T23:59:60Z",
        "2026-12-01t00:00:00z", "2026-12-01 00:00:00Z", "2026-12-01T00:00:00.5Z", "+2026-12-01T00:00:00Z",
        "2026-12-00T00:00:00Z", "2026-00-01T00:00:00Z", "2026-04-31T00:00:00Z", " 2026-12-01T00:00:00Z",
    ])
    func notATimestamp(text: String) {
        #expect(UTCTimestamp.parse(text) == nil)
    }

    @Test(arguments: [UTCTimestamp.earliest - 1, UTCTimestamp.latest + 1, Int.max, Int.min])
    func outOfRangeIsNotWritten(seconds: Int) {
        #expect(UTCTimestamp.format(seconds) == nil)
    }

    @Test func leapDaysAreTheCalendarsOwn() {
        #expect(UTCTimestamp.parse("2000-02-29T00:00:00Z") == 951_782_400)
        #expect(UTCTimestamp.parse("2024-02-29T12:00:00Z") == 1_709_208_000)
        #expect(UTCTimestamp.format(1_709_208_000) == "2024-02-29T12:00:00Z")
    }

    @Test func fieldsOutOfTheirRangeAreNoMoment() {
        #expect(UTCTimestamp.seconds(year: 2026, month: 12, day: 1, hour: 0, minute: 0, second: 0) == 1_796_083_200)
        #expect(UTCTimestamp.seconds(year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTimestamp.seconds(year: 10_000, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTimestamp.seconds(year: Int.max, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTimestamp.seconds(year: Int.min, month: 1, day: 1, hour: 0, minute: 0, second: 0) == nil)
        #expect(UTCTimestamp.seconds(year: 2026, month: 1, day: 1, hour: 0, minute: 0, second: 0, offset: Int.max) == nil)
        #expect(UTCTimestamp.seconds(year: 2026, month: 1, day: 1, hour: Int.max, minute: 0, second: 0) == nil)
        // A leap second is the next second; an offset moves the moment west or east.
        #expect(UTCTimestamp.seconds(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60)
                == UTCTimestamp.parse("2017-01-01T00:00:00Z"))
        #expect(UTCTimestamp.seconds(year: 2024, month: 5, day: 1, hour: 2, minute: 0, second: 0, offset: 7_200) == 1_714_521_600)
    }
}
