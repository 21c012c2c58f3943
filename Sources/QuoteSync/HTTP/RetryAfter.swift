import Foundation

/// `Retry-After`: either delay-seconds or an HTTP date. Returns Unix seconds.
public enum RetryAfter {
    public static func parse(_ value: String?, now: Int) -> Int? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return now + seconds }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: value) { return max(now, Int(date.timeIntervalSince1970)) }
        }
        return nil
    }
}
