import Glibc

/// Wall-clock time as Unix seconds, and the calendar bits quotectl needs, without Foundation.
public enum UnixTime {
    public static func now() -> Int {
        Int(time(nil))
    }

    /// Days since 1970-01-01 in UTC.
    public static func utcDay(_ seconds: Int) -> Int {
        seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    /// Days since 1970-01-01 in the local time zone (the user's "today").
    public static func localDay(_ seconds: Int) -> Int {
        var t = time_t(seconds)
        var parts = tm()
        localtime_r(&t, &parts)
        return utcDay(seconds + Int(parts.tm_gmtoff))
    }

    /// "2026-11-29" for a day number.
    public static func dateString(day: Int) -> String {
        var t = time_t(day * 86_400)
        var parts = tm()
        gmtime_r(&t, &parts)
        return "\(parts.tm_year + 1900)-\(pad(Int(parts.tm_mon) + 1))-\(pad(Int(parts.tm_mday)))"
    }

    /// "2026-11-29 13:05:09Z".
    public static func timestamp(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        return dateString(day: utcDay(seconds))
            + " \(pad(Int(parts.tm_hour))):\(pad(Int(parts.tm_min))):\(pad(Int(parts.tm_sec)))Z"
    }

    /// "2026-11-30 21:04 KST": local time (TZ) for people; JSON keeps epoch seconds.
    public static func localTimestamp(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        localtime_r(&t, &parts)
        let zone = parts.tm_zone.map { String(cString: $0) } ?? ""
        return "\(parts.tm_year + 1900)-\(pad(Int(parts.tm_mon) + 1))-\(pad(Int(parts.tm_mday))) "
            + "\(pad(Int(parts.tm_hour))):\(pad(Int(parts.tm_min)))" + (zone.isEmpty ? "" : " " + zone)
    }

    /// "3 h ago", "2 d ago", "in 5 min".
    public static func relative(_ seconds: Int, now: Int = now()) -> String {
        // Times come from stores and feeds: a hostile one (Int.min) must not trap the subtraction.
        let difference = now.subtractingReportingOverflow(seconds)
        let delta = difference.overflow ? (seconds > now ? Int.min + 1 : Int.max) : max(difference.partialValue, Int.min + 1)
        let magnitude = abs(delta)
        let amount: String
        switch magnitude {
        case ..<60: amount = "\(magnitude) s"
        case ..<3_600: amount = "\(magnitude / 60) min"
        case ..<172_800: amount = "\(magnitude / 3_600) h"
        default: amount = "\(magnitude / 86_400) d"
        }
        return delta >= 0 ? "\(amount) ago" : "in \(amount)"
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
