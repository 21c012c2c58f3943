import Glibc
@testable import QuoteBase
import Testing

/// The one calendar: days from 1970 and back, exact for every day an Int of seconds can reach,
/// the same as glibc's gmtime_r wherever that one answers, and no trap at Int's ends.
@Suite struct CivilDateTests {
    static func fields(_ date: CivilDate) -> [Int] { [date.year, date.month, date.day] }

    @Test(arguments: [
        (1970, 1, 1, 0), (1969, 12, 31, -1), (2000, 2, 29, 11_016), (1900, 3, 1, -25_508), (2100, 3, 1, 47_541),
        (1, 1, 1, -719_162), (0, 1, 1, -719_528), (0, 2, 29, -719_469), (9999, 12, 31, 2_932_896), (10_000, 1, 1, 2_932_897),
        (-1, 12, 31, -719_529), (-400, 2, 29, -865_566), (-292_277_022_657, 1, 27, -106_751_991_167_301),
        (292_277_026_596, 12, 4, 106_751_991_167_300),
    ] as [(Int, Int, Int, Int)])
    func daysAndDatesAreOneAnother(year: Int, month: Int, day: Int, days: Int) throws {
        let date = try #require(CivilDate(year: year, month: month, day: day))
        #expect(date.daysSince1970 == days)
        let back = CivilDate(daysSince1970: days)
        #expect(Self.fields(back) == [year, month, day])
        #expect(back == date)
    }

    @Test func february29IsALeapYearsOnly() {
        #expect(CivilDate(year: 1900, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2100, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 0, month: 2, day: 29) != nil, "year 0 is 1 BC, a leap year")
        #expect(CivilDate(year: -100, month: 2, day: 29) == nil)
        #expect(CivilDate(year: -400, month: 2, day: 29) != nil)
        #expect([1900, 2100, 2023, -100, -1].allSatisfy { !CivilDate.isLeapYear($0) })
        #expect([2000, 2024, 0, -4, -400].allSatisfy { CivilDate.isLeapYear($0) })
    }

    @Test(arguments: [
        (2026, 0, 1), (2026, 13, 1), (2026, 1, 0), (2026, 1, 32), (2026, 4, 31), (2026, 6, 31), (2026, 9, 31), (2026, 11, 31),
        (2026, 2, 30), (Int.max, 1, 1), (Int.min, 1, 1), (292_277_026_597, 1, 1), (-292_277_022_658, 12, 31),
        (2026, Int.max, 1), (2026, 1, Int.min),
    ] as [(Int, Int, Int)])
    func aDayTheCalendarDoesNotHaveIsNone(year: Int, month: Int, day: Int) {
        #expect(CivilDate(year: year, month: month, day: day) == nil)
    }

    /// From 1 BC to AD 10000, each day is the one after the day before, and reads back as its number.
    @Test func everyDayOfTenThousandYearsRoundTrips() {
        var previous = CivilDate(daysSince1970: -719_529)
        var wrong: [Int] = []
        for days in -719_528...2_932_897 where wrong.count < 10 {
            let date = CivilDate(daysSince1970: days)
            let monthEnded = previous.day == CivilDate.numberOfDays(inMonth: previous.month, of: previous.year)
            let follows = monthEnded
                ? date.day == 1 && (previous.month == 12 ? date.month == 1 && date.year == previous.year + 1
                                                          : date.month == previous.month + 1 && date.year == previous.year)
                : date.day == previous.day + 1 && date.month == previous.month && date.year == previous.year
            if !follows || CivilDate(year: date.year, month: date.month, day: date.day)?.daysSince1970 != days { wrong.append(days) }
            previous = date
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// glibc's own calendar, where it has one (its year is an Int32): the same days.
    @Test func glibcAgrees() {
        for days in stride(from: -5_000_000, through: 5_000_000, by: 9_973) {
            var moment = time_t(days * 86_400)
            var parts = tm()
            guard gmtime_r(&moment, &parts) != nil else {
                Issue.record("gmtime_r refused \(days) days")
                continue
            }
            let glibc = [Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday)]
            #expect(Self.fields(CivilDate(daysSince1970: days)) == glibc, "\(days)")
        }
    }

    @Test func anyIntIsADayAndATime() {
        func split(_ seconds: Int) -> [Int] {
            let parts = CivilDate.dayAndTime(of: seconds)
            return [parts.day, parts.secondOfDay]
        }
        #expect(split(0) == [0, 0])
        #expect(split(-1) == [-1, 86_399])
        #expect(split(-86_400) == [-1, 0])
        #expect(split(86_399) == [0, 86_399])
        #expect(split(Int.max) == [106_751_991_167_300, 55_807])
        #expect(split(Int.min) == [-106_751_991_167_301, 30_592])
        // Days no second reaches still have a date, and no trap.
        #expect(Self.fields(CivilDate(daysSince1970: Int.max)) == [25_252_734_927_768_524, 7, 27])
        #expect(Self.fields(CivilDate(daysSince1970: Int.min)) == [-25_252_734_927_764_585, 6, 7])
    }
}
