import Glibc

/// A moment in the local time zone (TZ), as glibc's localtime_r reads it: only glibc knows the
/// zone's rules, so this is the one caller of localtime_r and strftime. UTC needs neither
/// (`CivilDate`). A moment whose year a `tm` cannot hold reads as glibc leaves it: all zero.
public struct LocalTime {
    private var parts = tm()

    public init(_ seconds: Int) {
        var moment = time_t(seconds)
        localtime_r(&moment, &parts)
    }

    public var year: Int { Int(parts.tm_year) + 1900 }
    /// 1 (January) to 12.
    public var month: Int { Int(parts.tm_mon) + 1 }
    public var day: Int { Int(parts.tm_mday) }
    public var hour: Int { Int(parts.tm_hour) }
    public var minute: Int { Int(parts.tm_min) }
    public var second: Int { Int(parts.tm_sec) }
    /// Seconds east of UTC (summer time included).
    public var offset: Int { Int(parts.tm_gmtoff) }
    /// "KST", "CEST"; empty when the zone has no name.
    public var zoneName: String { parts.tm_zone.map { String(cString: $0) } ?? "" }

    /// "2026-11-29 13:05:09": the daemon's log lines. Plain padding, not String(format:): that one
    /// wakes up Foundation's locale machinery, megabytes of resident memory in a daemon that
    /// otherwise never needs it.
    public var dateAndTime: String {
        "\(year)-\(UnixTime.pad(month))-\(UnixTime.pad(day)) \(UnixTime.pad(hour)):\(UnixTime.pad(minute)):\(UnixTime.pad(second))"
    }

    /// Through strftime(3), or nil when the format gives nothing (empty, or too long). It follows
    /// LC_TIME: for people's layouts of numbers only, never for a name a machine reads (HTTP's and
    /// RSS's day and month names are English in every locale).
    public func formatted(_ format: String) -> String? {
        var copy = parts
        var buffer = [CChar](repeating: 0, count: 256)
        let length = strftime(&buffer, buffer.count, format, &copy)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
