/// RFC 3339 as feeds write it, to Unix seconds: Atom's dates (`2024-05-01T06:30:00+02:00`) and
/// RSS 1.0's `dc:date`, which may be a date alone. Laxer than `UTCTimestamp.parse` (any offset,
/// a fraction, `t`/`z`/a space), as strict on fields (each in its range, the day in its month),
/// and the moment within what `UTCTimestamp` can write back. Anything else is nil.
public enum RFC3339Date {
    public static func parse(_ text: String) -> Int? {
        var cursor = DateCursor(text.utf8.prefix(64))
        guard let year = cursor.digits(4), cursor.take("-"), let month = cursor.digits(2), cursor.take("-"),
              let day = cursor.digits(2) else { return nil }
        // A date alone is its midnight in UTC.
        if cursor.atEnd { return UTCTimestamp.seconds(year: year, month: month, day: day, hour: 0, minute: 0, second: 0) }
        guard cursor.take("T") || cursor.take("t") || cursor.take(" "), let hour = cursor.digits(2), cursor.take(":"),
              let minute = cursor.digits(2), cursor.take(":"), let second = cursor.digits(2) else { return nil }
        if cursor.take(".") {
            guard cursor.skipDigits() else { return nil }
        }
        let offset: Int
        if cursor.take("Z") || cursor.take("z") {
            offset = 0
        } else if let sign = cursor.sign(), let hours = cursor.digits(2), cursor.take(":"), let minutes = cursor.digits(2),
                  hours < 24, minutes < 60 {
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard cursor.atEnd else { return nil }
        return UTCTimestamp.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }
}
