/// A day of the proleptic Gregorian calendar (year 0 is 1 BC), with its number of days from
/// 1970-01-01: the one home of calendar arithmetic, for Unix time, RFC 3339, HTTP and RSS dates.
///
/// Howard Hinnant's days_from_civil and civil_from_days, in integers: exact for every day, and no
/// Int overflows on any input. Not glibc's timegm: it rolls "February 31" into March instead of
/// refusing it, and its `tm` holds a year in 32 bits; gmtime_r gives up past them too.
public struct CivilDate: Hashable, Sendable {
    public static let secondsPerDay = 86_400
    /// The years a Unix second (an Int) can fall in: Int.min is in -292277022657, Int.max in 292277026596.
    public static let years = -292_277_022_657...292_277_026_596

    public let year: Int
    /// 1 (January) to 12.
    public let month: Int
    /// 1 to the month's last day.
    public let day: Int
    /// Days from 1970-01-01: negative before it.
    public let daysSince1970: Int

    /// Nil for a month outside 1...12, a day the month does not have (February 29 of 1900 or
    /// 2100), or a year outside `years`.
    public init?(year: Int, month: Int, day: Int) {
        guard Self.years.contains(year), (1...12).contains(month),
              (1...Self.numberOfDays(inMonth: month, of: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
        // days_from_civil, its year starting on March 1 so that February's leap day comes last.
        let y = month <= 2 ? year - 1 : year
        let era = Self.floorDivision(y, 400).quotient
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        daysSince1970 = era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01 (before it when negative), for any Int.
    public init(daysSince1970 days: Int) {
        daysSince1970 = days
        // civil_from_days, counted from 0000-03-01 (719,468 days before 1970). The shift is added
        // to the remainder within a 400-year era, not to `days`, so that Int.max cannot overflow.
        let (eraShift, rest) = Self.floorDivision(days, 146_097)
        let shifted = rest + 719_468
        let era = eraShift + shifted / 146_097
        let dayOfEra = shifted % 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        self.month = month
        self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// 28 to 31; 31 for a month outside 1...12.
    public static func numberOfDays(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The day a Unix second falls on and the seconds past that day's midnight (UTC), for any Int:
    /// a moment before 1970 is on the day before, at a positive time of day.
    public static func dayAndTime(of seconds: Int) -> (day: Int, secondOfDay: Int) {
        let split = floorDivision(seconds, secondsPerDay)
        return (split.quotient, split.remainder)
    }

    /// `value` divided by a positive `divisor`, rounded down, and the remainder (0..<divisor):
    /// no Int overflows, Int.min included.
    static func floorDivision(_ value: Int, _ divisor: Int) -> (quotient: Int, remainder: Int) {
        let (quotient, remainder) = (value / divisor, value % divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
