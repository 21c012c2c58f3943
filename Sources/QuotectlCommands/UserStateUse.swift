import QuoteBase
import QuoteModels
import QuoteStore
import QuoteUserState

/// What the quote commands ask of this user's state, each failure said in one line on stderr.
enum UserStateUse {
    /// Remembers `quotes` as shown (for like and hide without an ID) and, when `greeting` (printed
    /// by `random --once-per`), as the period's greeting. A history that cannot be written is
    /// said; the quotes stay printed and the exit status is kept.
    static func rememberShown(_ quotes: [Quote], greeting: Bool = false) {
        do throws(UserStateError) {
            try ShownQuotes.record(quotes, now: Run.now())
        } catch {
            Output.flush()
            Output.error(tr("\(error.message); the quote is not remembered as shown"))
        }
        guard greeting else { return }
        do throws(UserStateError) {
            try Greetings.record(quotes, now: Run.now())
        } catch {
            Output.flush()
            Output.error(tr("\(error.message); the quote is not remembered as a greeting"))
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
        guard !hidden.isEmpty, let matches = try? store.quotes.count(filter), matches > 0 else { return nil }
        let count = hidden.entries.count
        return trn(count, "every quote that matches is one you hid (\(count) quote hidden; quotectl unhide ID shows one again)",
                   "every quote that matches is one you hid (\(count) quotes hidden; quotectl unhide ID shows one again)")
    }

    /// `--once-per PERIOD`: true when this user was greeted in the period already. Only greetings
    /// count: the quotes a bar, a follower, a notification or `today` showed are no greeting.
    static func greetedAlready(in period: OncePeriod?) -> Bool {
        guard let period else { return false }
        // Every kept greeting, not the last alone: another session's greeting may have come
        // after this session's, which must still count. A day is the clock's alone: the boot and
        // session are read (from /proc) only for the periods that compare them.
        let now = Run.now(), identity = period == .day ? SessionIdentity.fromEnvironment() : SessionIdentity.current()
        return Greetings.history().contains { period.includes($0, now: now, identity: identity) }
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
