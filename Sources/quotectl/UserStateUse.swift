import QuoteBase
import QuoteModels
import QuoteStore
import QuoteUserState

/// What the quote commands ask of this user's state, each failure said in one line on stderr.
enum UserStateUse {
    /// Remembers `quotes` as shown (for like and hide without an ID, and --once-per). A history
    /// that cannot be written is said; the quotes stay printed and the exit status is kept.
    static func rememberShown(_ quotes: [Quote]) {
        do throws(UserStateError) {
            try ShownQuotes.record(quotes)
        } catch {
            Output.flush()
            Output.error(tr("\(error.message); the quote is not remembered as shown"))
        }
    }

    /// The quotes this user hid; a file that could not be read whole is said, and what could be
    /// read of it still holds.
    static func hidden() -> KeptList {
        let hidden = KeptList.hidden()
        if let problem = hidden.problem { Output.error(tr("\(problem.message); reading what could be read")) }
        return hidden
    }

    /// Nothing was drawn although quotes match: every one of them is hidden. Said so (exit 66),
    /// rather than "no quote matches".
    static func everyMatchHidden(_ filter: QuoteFilter, store: Store, hidden: KeptList) -> String? {
        guard !hidden.isEmpty, let matches = try? QuotePicker(database: store.database).count(filter), matches > 0 else { return nil }
        let count = hidden.entries.count
        return trn(count, "every quote that matches is one you hid (\(count) quote hidden; quotectl unhide ID shows one again)",
                   "every quote that matches is one you hid (\(count) quotes hidden; quotectl unhide ID shows one again)")
    }

    /// `--once-per PERIOD`: true when this user was shown a quote in the period already.
    static func shownAlready(in period: OncePeriod?) -> Bool {
        guard let period else { return false }
        // Every kept line, not the last alone: a bar's follower in another session records a
        // quote every few minutes, and this session's greeting must still count.
        let now = UnixTime.now(), identity = SessionIdentity.current()
        return ShownQuotes.history().contains { period.includes($0, now: now, identity: identity) }
    }

    /// `random --liked`: up to `count` of the liked quotes, in random order.
    static func likedDraw(count: Int) throws -> [Quote] {
        let liked = KeptList.liked()
        if let problem = liked.problem { Output.error(tr("\(problem.message); drawing among what could be read")) }
        guard !liked.isEmpty else { throw NoMatch(message: tr("no liked quotes yet: quotectl like keeps the last quote shown")) }
        // A quote both liked and hidden (an import --liked of one hidden since) stays hidden.
        let hidden = Self.hidden()
        let drawable = liked.entries.filter { !hidden.contains($0.key) }
        guard !drawable.isEmpty else { throw NoMatch(message: tr("every quote you liked is one you hid (quotectl unhide ID shows one again)")) }
        return drawable.shuffled().prefix(count).map(\.quote)
    }
}
