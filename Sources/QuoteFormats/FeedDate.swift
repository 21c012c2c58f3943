import QuoteText
/// A feed entry's date as Unix seconds: Atom's RFC 3339 (`2024-05-01T06:30:00+02:00`, also RSS
/// 1.0's `dc:date`) and RSS 2.0's RFC 822 (`Wed, 01 May 2024 04:30:00 GMT`, with numeric or named
/// zones). A date that cannot be read is nil: the entry is kept without one.
enum FeedDate {
    static func rfc3339(_ text: String) -> Int? {
        let bytes = Array(text.utf8.prefix(64))
        var cursor = Cursor(bytes: bytes)
        guard let year = cursor.digits(4), cursor.take("-"), let month = cursor.digits(2), cursor.take("-"),
              let day = cursor.digits(2) else { return nil }
        // A date alone (dc:date may be one) is its midnight in UTC.
        if cursor.atEnd { return seconds(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, offset: 0) }
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
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    static func rfc822(_ text: String) -> Int? {
        var words = text.prefix(64).split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
        // The day's name is optional, and says nothing the date does not.
        if let first = words.first, first.first?.isLetter == true { words.removeFirst() }
        guard words.count == 5 || words.count == 4, words[0].count <= 2, words[2].allSatisfy(\.isASCII),
              words[0].allSatisfy(\.isASCII), let day = Int(words[0]), day >= 0,
              let month = months.firstIndex(of: words[1].prefix(3).lowercased()).map({ $0 + 1 }),
              var year = Int(words[2]), year >= 0, words[2].count == 4 || words[2].count == 2 else { return nil }
        // RFC 822's two-digit years: RFC 2822 reads 00-49 as 20xx.
        if words[2].count == 2 { year += year < 50 ? 2000 : 1900 }
        let time = words[3].split(separator: ":", omittingEmptySubsequences: false)
        guard time.count == 2 || time.count == 3, time.allSatisfy({ $0.count == 2 }),
              let hour = Int(time[0]), let minute = Int(time[1]) else { return nil }
        guard let second = time.count == 3 ? Int(time[2]) : 0 else { return nil }
        guard let offset = words.count == 5 ? zone(words[4]) : 0 else { return nil }
        return seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// RFC 822's zones: `+0200`, `-0530`, UT/GMT/Z and the North American names.
    static func zone(_ text: String) -> Int? {
        let named = ["UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5,
                     "MST": -7, "MDT": -6, "PST": -8, "PDT": -7]
        if let hours = named[text.uppercased()] { return hours * 3600 }
        let bytes = Array(text.utf8)
        var cursor = Cursor(bytes: bytes)
        guard bytes.count == 5, let sign = cursor.sign(), let hours = cursor.digits(2), let minutes = cursor.digits(2),
              hours < 24, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    /// Seconds since 1970 in UTC (QuoteText's `UTCTimestamp`: the range a stored date can be written back in).
    static func seconds(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offset: Int) -> Int? {
        UTCTimestamp.seconds(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    struct Cursor {
        let bytes: [UInt8]
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }

        mutating func skipDigits() -> Bool {
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            return index > start
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }
    }
}
