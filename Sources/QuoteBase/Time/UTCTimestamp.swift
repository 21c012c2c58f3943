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
        let (day, time) = CivilDate.dayAndTime(of: seconds)
        let date = CivilDate(daysSince1970: day)
        return digits(date.year, 4) + "-" + digits(date.month, 2) + "-" + digits(date.day, 2) + "T"
            + digits(time / 3600, 2) + ":" + digits(time / 60 % 60, 2) + ":" + digits(time % 60, 2) + "Z"
    }

    /// The Unix seconds of exactly "YYYY-MM-DDTHH:MM:SSZ" (what `format` writes), or nil.
    public static func parse(_ text: String) -> Int? {
        var cursor = DateCursor(text.utf8)
        guard let year = cursor.digits(4), cursor.take("-"), let month = cursor.digits(2), cursor.take("-"),
              let day = cursor.digits(2), cursor.take("T"), let hour = cursor.digits(2), cursor.take(":"),
              let minute = cursor.digits(2), cursor.take(":"), let second = cursor.digits(2), cursor.take("Z"),
              cursor.atEnd, second < 60 else { return nil }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// The Unix seconds of a civil time `offset` seconds east of UTC, or nil when a field is out of
    /// its range or the moment falls outside `earliest...latest` (what `format` can write back, so
    /// a date read is always one a spoke or a reader takes). A leap second (`:60`) is the next second.
    public static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int = 0) -> Int? {
        guard (1...9999).contains(year), let date = CivilDate(year: year, month: month, day: day),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
              (-86_400...86_400).contains(offset) else { return nil }
        let moment = date.daysSince1970 * CivilDate.secondsPerDay + hour * 3600 + minute * 60 + second - offset
        return (earliest...latest).contains(moment) ? moment : nil
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
