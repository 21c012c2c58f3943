/// RFC 822 as RSS 2.0 writes it (`Wed, 01 May 2024 04:30:00 GMT`), to Unix seconds: the day's
/// name optional, a month by its first three letters, two-digit years as RFC 2822 reads them,
/// seconds optional, the zone numeric or named (none: UTC). Each field in its range and the
/// moment within what `UTCTimestamp` can write back; anything else is nil.
public enum RFC822Date {
    public static func parse(_ text: String) -> Int? {
        var words = text.prefix(64).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        // The day's name says nothing the date does not.
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }
        guard words.count == 5 || words.count == 4, let day = DateCursor.number(words[0], digits: 1...2),
              let month = MonthName.number(words[1].prefix(3)), var year = DateCursor.number(words[2], digits: 2...4),
              words[2].utf8.count != 3 else { return nil }
        // RFC 2822: 00-49 are 20xx, 50-99 19xx.
        if words[2].utf8.count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = words[3].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 2 || time.count == 3, let hour = DateCursor.number(time[0], digits: 2...2),
              let minute = DateCursor.number(time[1], digits: 2...2),
              let second = time.count == 3 ? DateCursor.number(time[2], digits: 2...2) : 0,
              let offset = words.count == 5 ? zone(words[4]) : 0 else { return nil }
        return UTCTimestamp.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// `+0200`, `-0530`, UT/UTC/GMT/Z and the North American names, as seconds east of UTC.
    static func zone(_ text: some StringProtocol) -> Int? {
        let named = ["UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
                     "MST": -7, "MDT": -6, "PST": -8, "PDT": -7]
        if let hours = named[text.uppercased()] { return hours * 3600 }
        var cursor = DateCursor(text.utf8)
        guard text.utf8.count == 5, let sign = cursor.sign(), let hours = cursor.digits(2), let minutes = cursor.digits(2),
              hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
