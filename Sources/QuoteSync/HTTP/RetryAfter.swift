import QuoteScheduling

/// `Retry-After`: delay-seconds or an HTTP date (RFC 9110: IMF-fixdate, and the obsolete
/// RFC 850 and asctime forms). The number is the server's word, so it is parsed without
/// any arithmetic that could overflow, and no wait is longer than `maximumWait`.
public enum RetryAfter {
    /// 7 days: an upstream that asks for longer gets asked again after a week.
    public static let maximumWait = Schedule.maximumBlock

    public struct Wait: Equatable, Sendable {
        /// Unix seconds: no request before then.
        public let until: Int
        /// The upstream asked for longer than `maximumWait`.
        public let capped: Bool
    }

    public static func parse(_ value: String?, now: Int) -> Wait? {
        guard let text = value.map({ Substring($0).trimmingASCIIWhitespace() }), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            // More digits than an Int holds is still "a very long time", not an error.
            let seconds = text.utf8.count > 18 ? Int.max : Int(text) ?? Int.max
            return wait(seconds: seconds, now: now)
        }
        guard let date = HTTPDate.parse(text) else { return nil }
        return wait(seconds: date > now ? date - now : 0, now: now)
    }

    public static func wait(seconds: Int, now: Int) -> Wait {
        seconds > maximumWait ? Wait(until: now + maximumWait, capped: true) : Wait(until: now + max(0, seconds), capped: false)
    }
}

/// The three date forms HTTP allows, in GMT, to Unix seconds; nil for anything else.
enum HTTPDate {
    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String) -> Int? {
        // "Sun, 06 Nov 1994 08:49:37 GMT" / "Sunday, 06-Nov-94 08:49:37 GMT" / "Sun Nov  6 08:49:37 1994"
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { $0.lowercased() }
        var day: Int?, month: Int?, year: Int?, clock: [Int]?
        if words.count == 5, let index = months.firstIndex(of: words[1]) {  // asctime
            (month, day, clock, year) = (index + 1, Int(words[2]), time(words[3]), Int(words[4]))
        } else if words.count == 5, words[4] == "gmt" || words[4] == "utc" {
            let date = words[1].split(separator: "-").map(String.init)
            if date.count == 3, let index = months.firstIndex(of: date[1]) {  // RFC 850
                (day, month, year) = (Int(date[0]), index + 1, Int(date[2]).map { $0 < 70 ? $0 + 2_000 : $0 < 100 ? $0 + 1_900 : $0 })
                clock = time(words[2])
            }
        } else if words.count == 6, words[5] == "gmt" || words[5] == "utc", let index = months.firstIndex(of: words[2]) {
            (day, month, year, clock) = (Int(words[1]), index + 1, Int(words[3]), time(words[4]))
        }
        guard let day, let month, let year, let clock, (1...31).contains(day), (1970...9999).contains(year) else { return nil }
        return (daysFromCivil(year: year, month: month, day: day) * 86_400) + clock[0] * 3_600 + clock[1] * 60 + clock[2]
    }

    private static func time(_ text: String) -> [Int]? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 3, (0...23).contains(parts[0]), (0...59).contains(parts[1]), (0...60).contains(parts[2]) else { return nil }
        return parts
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm), for years 1970...9999.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
