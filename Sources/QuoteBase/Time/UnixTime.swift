import Glibc

/// Wall-clock time as Unix seconds, and the days and texts quotectl and the logs need, without
/// Foundation. Its calendar is `CivilDate`'s, its local zone `LocalTime`'s.
public enum UnixTime {
    public static func now() -> Int {
        Int(time(nil))
    }

    /// Days since 1970-01-01 in UTC.
    public static func utcDay(_ seconds: Int) -> Int {
        CivilDate.dayAndTime(of: seconds).day
    }

    /// The first second of the UTC day after the one `seconds` is in (Int.max past the last day an Int holds).
    public static func nextUTCMidnight(after seconds: Int) -> Int {
        let next = (utcDay(seconds) + 1).multipliedReportingOverflow(by: CivilDate.secondsPerDay)
        return next.overflow ? Int.max : next.partialValue
    }

    /// Days since 1970-01-01 in the local time zone (the user's "today").
    public static func localDay(_ seconds: Int) -> Int {
        let local = seconds.addingReportingOverflow(LocalTime(seconds).offset)
        return utcDay(local.overflow ? seconds : local.partialValue)
    }

    /// "2026-11-29" for a day number (the year as many digits as it has, as gmtime(3) gives it).
    public static func dateString(day: Int) -> String {
        let date = CivilDate(daysSince1970: day)
        return "\(date.year)-\(pad(date.month))-\(pad(date.day))"
    }

    /// "2026-11-29 13:05:09Z".
    public static func timestamp(_ seconds: Int) -> String {
        dateAndTime(seconds, separator: " ")
    }

    /// "2026-11-29T13:05:09Z": RFC 3339 for years 1000 to 9999 (an Atom export's dates), where
    /// `UTCTimestamp` would refuse a moment outside 1 to 9999 that a store may still hold.
    public static func rfc3339(_ seconds: Int) -> String {
        dateAndTime(seconds, separator: "T")
    }

    private static func dateAndTime(_ seconds: Int, separator: String) -> String {
        let (day, time) = CivilDate.dayAndTime(of: seconds)
        return dateString(day: day) + separator + "\(pad(time / 3_600)):\(pad(time / 60 % 60)):\(pad(time % 60))Z"
    }

    /// "2026-11-30 21:04 KST": local time (TZ) for people, laid out as the user's language
    /// writes a date (Korean "2026년 11월 30일 21:04 KST"); JSON keeps epoch seconds.
    public static func localTimestamp(_ seconds: Int) -> String {
        let local = LocalTime(seconds)
        // TRANSLATORS: a strftime(3) format for a local date and time in status and lists (the
        // time zone's name follows it): %Y year, %m month, %-m month without a leading zero,
        // %d day, %-d day without a leading zero, %H hour (00-23), %M minutes.
        let layout = tr("%Y-%m-%d %H:%M")
        let text = local.formatted(layout) ?? local.formatted("%Y-%m-%d %H:%M") ?? ""
        return text + (local.zoneName.isEmpty ? "" : " " + local.zoneName)
    }

    /// "3 h ago", "2 d ago", "in 5 min": English always (the sync engine's stored results and
    /// the --format fields of scripts read it; people's text takes `relativeForPeople`).
    public static func relative(_ seconds: Int, now: Int = now()) -> String {
        let (amount, unit, past) = distance(seconds, now: now)
        let text = "\(amount) \(unit.rawValue)"
        return past ? "\(text) ago" : "in \(text)"
    }

    /// "3 h ago", "in 5 min" in the user's language (Korean "3시간 전", "5분 후"), for status
    /// tables and notes a person reads.
    public static func relativeForPeople(_ seconds: Int, now: Int = now()) -> String {
        let (count, unit, past) = distance(seconds, now: now)
        let amount: String
        switch unit {
        // TRANSLATORS: a number of seconds, as in "5 s ago".
        case .seconds: amount = tr("\(count) s")
        // TRANSLATORS: a number of minutes, as in "3 min ago".
        case .minutes: amount = tr("\(count) min")
        // TRANSLATORS: a number of hours, as in "3 h ago".
        case .hours: amount = tr("\(count) h")
        // TRANSLATORS: a number of days, as in "2 d ago".
        case .days: amount = tr("\(count) d")
        }
        // TRANSLATORS: a time in the past; the value is an amount such as "3 min".
        if past { return tr("\(amount) ago") }
        // TRANSLATORS: a time in the future; the value is an amount such as "3 min".
        return tr("in \(amount)")
    }

    enum Unit: String {
        case seconds = "s", minutes = "min", hours = "h", days = "d"
    }

    /// How far `seconds` is from `now`, in the largest unit that reads well, and whether it is past.
    private static func distance(_ seconds: Int, now: Int) -> (Int, Unit, Bool) {
        // Times come from stores and feeds: a hostile one (Int.min) must not trap the subtraction.
        let difference = now.subtractingReportingOverflow(seconds)
        let delta = difference.overflow ? (seconds > now ? Int.min + 1 : Int.max) : max(difference.partialValue, Int.min + 1)
        let magnitude = abs(delta)
        switch magnitude {
        case ..<60: return (magnitude, .seconds, delta >= 0)
        case ..<3_600: return (magnitude / 60, .minutes, delta >= 0)
        case ..<172_800: return (magnitude / 3_600, .hours, delta >= 0)
        default: return (magnitude / 86_400, .days, delta >= 0)
        }
    }

    /// Two digits at least: a month, a day, an hour, a minute, a second.
    static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
