/// A moment as `quoted` writes it for people and other tools: "2026-12-01T00:00:00Z" (RFC 3339
/// in UTC, whole seconds), from and to Unix seconds. Years 1 to 9999 only: outside them the text
/// would not be RFC 3339, and a date from an upstream out there is a mistake, not a date.
public enum UTCTimestamp {
    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    public static let earliest = -62_135_596_800
    public static let latest = 253_402_300_799

    /// The text of `seconds`, or nil outside `earliest...latest`.
    public static func format(_ seconds: Int) -> String? {
        guard (earliest...latest).contains(seconds) else { return nil }
        // Floor division: a moment before 1970 is on the day before, at a positive time of day.
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T"
            + digits(time / 3600, 2) + ":" + digits(time / 60 % 60, 2) + ":" + digits(time % 60, 2) + "Z"
    }

    /// The Unix seconds of exactly "YYYY-MM-DDTHH:MM:SSZ" (what `format` writes), or nil.
    public static func parse(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54,
              bytes[13] == 0x3A, bytes[16] == 0x3A, bytes[19] == 0x5A else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              second < 60 else { return nil }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The Unix seconds of a civil time `offset` seconds east of UTC, or nil when a field is out of
    /// its range or the moment falls outside `earliest...latest` (what `format` can write back, so
    /// a date read is always one a spoke or a reader takes). A leap second (`:60`) is the next second.
    public static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int = 0) -> Int? {
        guard (1...9999).contains(year), (1...12).contains(month), (1...daysIn(month, of: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (-86_400...86_400).contains(offset) else { return nil }
        let moment = daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return (earliest...latest).contains(moment) ? moment : nil
    }

    private static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Howard Hinnant's days_from_civil: days since 1970-01-01 in the proleptic Gregorian calendar.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Its inverse, civil_from_days.
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
