import QuoteBase
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
