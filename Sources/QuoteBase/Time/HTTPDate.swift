/// The three date forms HTTP allows (RFC 9110 §5.6.7), to Unix seconds; nil for anything else:
///
///     Sun, 06 Nov 1994 08:49:37 GMT     IMF-fixdate
///     Sunday, 06-Nov-94 08:49:37 GMT    RFC 850 (obsolete): years 00-69 are 20xx, 70-99 19xx
///     Sun Nov  6 08:49:37 1994          asctime (obsolete)
///
/// In any case, "UTC" taken for "GMT"; the day's name is not checked (it says nothing the date
/// does not). Numbers are ASCII digits (the day and the clock's fields one or two, a year four),
/// each field in its range, the day in its month, the year 1970 to 9999.
public enum HTTPDate {
    public static func parse(_ text: String) -> Int? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() }
        if words.count == 5, let month = MonthName.number(words[1]) {
            return moment(day: words[2], month: month, year: DateCursor.number(words[4], digits: 4...4), clock: words[3])
        }
        if words.count == 4, isGMT(words[3]) {
            let date = words[1].split(separator: "-", omittingEmptySubsequences: false)
            guard date.count == 3, let month = MonthName.number(date[1]) else { return nil }
            return moment(day: date[0], month: month, year: twoDigitYear(date[2]), clock: words[2])
        }
        if words.count == 6, isGMT(words[5]), let month = MonthName.number(words[2]) {
            return moment(day: words[1], month: month, year: DateCursor.number(words[3], digits: 4...4), clock: words[4])
        }
        return nil
    }

    private static func isGMT(_ word: String) -> Bool {
        word == "gmt" || word == "utc"
    }

    /// RFC 850's year: two digits (a pivot at 70), or four as some servers write it.
    private static func twoDigitYear(_ text: some StringProtocol) -> Int? {
        guard let year = DateCursor.number(text, digits: 2...4), text.utf8.count != 3 else { return nil }
        guard text.utf8.count == 2 else { return year }
        return year < 70 ? year + 2_000 : year + 1_900
    }

    private static func moment(day dayText: some StringProtocol, month: Int, year: Int?, clock: String) -> Int? {
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard let year, (1970...9999).contains(year), let day = DateCursor.number(dayText, digits: 1...2), fields.count == 3,
              let hour = DateCursor.number(fields[0], digits: 1...2), let minute = DateCursor.number(fields[1], digits: 1...2),
              let second = DateCursor.number(fields[2], digits: 1...2) else { return nil }
        return UTCTimestamp.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
