import QuoteBase
import Glibc
import Synchronization

/// A POSIX extended regular expression, compiled by glibc's regcomp (no hand-written matcher):
/// a feed's `author_pattern`, checked when the configuration is read and matched per entry.
/// Characters are UTF-8 ones (`[-—]` is two characters, not four bytes): the pattern is compiled
/// and matched under glibc's C.UTF-8 character type, set for this thread alone while it runs
/// (`uselocale`), so the process's locale is never changed.
public final class ExtendedRegex: Sendable {
    /// The compiled pattern and C.UTF-8's character type (nil where the system lacks it: then bytes
    /// are matched). Both are C state that Swift cannot check: they live inside the lock, and the
    /// lock's storage in this object never moves, so regcomp's `regex_t` is never copied.
    private struct Compiled {
        var pattern = regex_t()
        var locale: locale_t?
        var isCompiled = false
        var groups = 0
    }

    private let compiled: Mutex<Compiled>

    /// Why a pattern was refused: regcomp's own message, or a rule of ours.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The longest pattern compiled: a configuration value.
    public static let maximumBytes = 1_024

    /// The number of parenthesised groups.
    public var groups: Int { compiled.withLock { $0.groups } }

    public init(_ pattern: String) throws(Invalid) {
        compiled = Mutex(Compiled())
        guard !pattern.isEmpty else { throw Invalid(reason: tr("an empty pattern")) }
        guard pattern.utf8.count <= Self.maximumBytes else { throw Invalid(reason: tr("longer than \(Self.maximumBytes) bytes")) }
        guard !pattern.utf8.contains(0) else { throw Invalid(reason: tr("it contains a NUL character")) }
        let refused = compiled.withLock { state -> String? in
            state.locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
            let status = Self.under(state.locale) { regcomp(&state.pattern, pattern, REG_EXTENDED) }
            guard status == 0 else {
                var message = [CChar](repeating: 0, count: 256)
                regerror(status, &state.pattern, &message, message.count)
                return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            state.isCompiled = true
            state.groups = Int(state.pattern.re_nsub)
            return nil
        }
        if let refused { throw Invalid(reason: refused) }
    }

    deinit {
        compiled.withLock { state in
            if state.isCompiled { regfree(&state.pattern) }
            if let locale = state.locale { freelocale(locale) }
        }
    }

    /// Runs `work` with `locale` as this thread's, then puts the thread's own back.
    private static func under<T>(_ locale: locale_t?, _ work: () -> T) -> T {
        guard let locale else { return work() }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        return work()
    }

    /// The whole match and each group's text (nil: a group that took no part), or nil when `text` does not match.
    public func match(_ text: String) -> [String?]? {
        guard let ranges = matchRanges(text) else { return nil }
        let bytes = Array(text.utf8)
        return ranges.map { range in range.map { String(decoding: bytes[$0], as: UTF8.self) } }
    }

    /// The byte ranges (in `text.utf8`) of the whole match and of each group, or nil when `text` does not match.
    public func matchRanges(_ text: String) -> [Range<Int>?]? {
        guard !text.utf8.contains(0) else { return nil }
        let count = text.utf8.count
        // Uncontended in practice (one list's reader matches on one thread): the lock is what
        // makes a pattern shared by threads sound, not a wait.
        let found = compiled.withLock { state -> [regmatch_t]? in
            var matches = [regmatch_t](repeating: regmatch_t(), count: state.groups + 1)
            guard Self.under(state.locale, { regexec(&state.pattern, text, matches.count, &matches, 0) }) == 0 else { return nil }
            return matches
        }
        guard let matches = found else { return nil }
        return matches.map { range in
            guard range.rm_so >= 0, range.rm_eo >= range.rm_so, Int(range.rm_eo) <= count else { return nil }
            return Int(range.rm_so)..<Int(range.rm_eo)
        }
    }
}
