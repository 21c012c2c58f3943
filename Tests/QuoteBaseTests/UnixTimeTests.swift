@testable import QuoteBase
import Testing

/// UnixTime's days and UTC texts at the calendar's edges and Int's: the texts they always gave, and no trap.
@Suite struct UnixTimeTests {
    @Test(arguments: [
        (0, "1970-01-01 00:00:00Z"), (-1, "1969-12-31 23:59:59Z"), (951_825_600, "2000-02-29 12:00:00Z"),
        (253_402_300_799, "9999-12-31 23:59:59Z"), (253_402_300_800, "10000-01-01 00:00:00Z"),
        (-62_135_596_800, "1-01-01 00:00:00Z"), (-62_167_219_200, "0-01-01 00:00:00Z"),
        (Int.max, "292277026596-12-04 15:30:07Z"), (Int.min, "-292277022657-01-27 08:29:52Z"),
    ] as [(Int, String)])
    func timestampsAtTheEdges(seconds: Int, text: String) {
        #expect(UnixTime.timestamp(seconds) == text)
        #expect(UnixTime.rfc3339(seconds) == text.replacing(" ", with: "T"))
    }

    @Test func daysAreUTCDaysRoundedDown() {
        #expect(UnixTime.utcDay(0) == 0 && UnixTime.utcDay(86_399) == 0 && UnixTime.utcDay(86_400) == 1)
        #expect(UnixTime.utcDay(-1) == -1 && UnixTime.utcDay(-86_400) == -1 && UnixTime.utcDay(-86_401) == -2)
        #expect(UnixTime.utcDay(Int.min) == -106_751_991_167_301)
        #expect(UnixTime.dateString(day: 0) == "1970-01-01")
        #expect(UnixTime.dateString(day: 11_016) == "2000-02-29")
        #expect(UnixTime.dateString(day: 20_000) == "2024-10-04")
        #expect(UnixTime.dateString(day: -25_508) == "1900-03-01")
        #expect(UnixTime.dateString(day: Int.max) == "25252734927768524-07-27")
    }

    @Test func theNextUTCMidnight() {
        #expect(UnixTime.nextUTCMidnight(after: 0) == 86_400)
        #expect(UnixTime.nextUTCMidnight(after: 86_399) == 86_400)
        #expect(UnixTime.nextUTCMidnight(after: 1_796_083_200) == 1_796_169_600)
        #expect(UnixTime.nextUTCMidnight(after: -1) == 0)
        #expect(UnixTime.nextUTCMidnight(after: Int.max) == Int.max)
        #expect(UnixTime.nextUTCMidnight(after: Int.min) == -106_751_991_167_300 * 86_400)
    }

    /// The local zone is glibc's (TZ): whatever it is here, local days and texts agree with it.
    @Test func localTimeIsTheZonesAndNeverTraps() {
        let now = 1_800_000_000
        let local = LocalTime(now)
        #expect(UnixTime.localDay(now) == UnixTime.utcDay(now + local.offset))
        #expect(UnixTime.dateString(day: UnixTime.localDay(now)) == local.dateAndTime.prefix(10).description)
        #expect(local.dateAndTime.wholeMatch(of: #/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/#) != nil, "\(local.dateAndTime)")
        #expect(local.formatted("%Y") == String(local.year))
        #expect(local.formatted("") == nil)
        for seconds in [Int.max, Int.min, Int.max - 86_400, -1] {
            _ = UnixTime.localDay(seconds)
            _ = UnixTime.localTimestamp(seconds)
            _ = LocalTime(seconds).dateAndTime
        }
    }
}
