import QuoteBase
import QuoteModels

/// The quotes `random --once-per` printed: the greetings, newest last, each with its time, boot
/// and session, and all that `--once-per` asks about. Kept apart from `ShownQuotes`, which a bar,
/// a follower, a notification and `today` fill all day: none of them is a greeting, and none
/// uses up the day's (or the boot's, or the session's) login quote.
public enum Greetings {
    public static let fileName = "greeted"

    /// The greetings kept, oldest first (malformed lines skipped).
    public static func history(_ folder: StateFolder = .current()) -> [ShownQuote] {
        ShownQuotes.history(of: fileName, folder)
    }

    /// Records `quotes` as a greeting given now; throws only when the file cannot be written.
    public static func record(_ quotes: [Quote], now: Int = UnixTime.now(), identity: SessionIdentity = .current(),
                              folder: StateFolder = .current()) throws(UserStateError) {
        try ShownQuotes.record(quotes, into: fileName, now: now, identity: identity, folder: folder)
    }
}
