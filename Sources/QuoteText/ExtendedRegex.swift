import Glibc

/// A POSIX extended regular expression, compiled by glibc's regcomp (no hand-written matcher):
/// a feed's `author_pattern`, checked when the configuration is read and matched per entry.
/// Characters are UTF-8 ones (`[-—]` is two characters, not four bytes): the pattern is compiled
/// and matched under glibc's C.UTF-8 character type, set for this thread alone while it runs
/// (`uselocale`), so the process's locale is never changed.
public final class ExtendedRegex: @unchecked Sendable {
    // regexec on a compiled pattern only reads it: one pattern serves any thread.
    private var compiled = regex_t()
    /// C.UTF-8's character type; nil where the system lacks it (then bytes are matched).
    private let utf8: locale_t?
    /// deinit runs for a throwing init too: a pattern regcomp refused has nothing to free.
    private var isCompiled = false

    /// Why a pattern was refused: regcomp's own message, or a rule of ours.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The longest pattern compiled: a configuration value.
    public static let maximumBytes = 1_024

    /// The number of parenthesised groups.
    public private(set) var groups = 0

    public init(_ pattern: String) throws(Invalid) {
        guard !pattern.isEmpty else { throw Invalid(reason: "an empty pattern") }
        guard pattern.utf8.count <= Self.maximumBytes else { throw Invalid(reason: "longer than \(Self.maximumBytes) bytes") }
        guard !pattern.utf8.contains(0) else { throw Invalid(reason: "it contains a NUL character") }
        utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)
        let status = Self.under(utf8) { regcomp(&compiled, pattern, REG_EXTENDED) }
        guard status == 0 else {
            var message = [CChar](repeating: 0, count: 256)
            regerror(status, &compiled, &message, message.count)
            throw Invalid(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        isCompiled = true
        groups = Int(compiled.re_nsub)
    }

    deinit {
        if isCompiled { regfree(&compiled) }
        if let utf8 { freelocale(utf8) }
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
        guard !text.utf8.contains(0) else { return nil }
        var matches = [regmatch_t](repeating: regmatch_t(), count: groups + 1)
        let bytes = Array(text.utf8)
        guard Self.under(utf8, { regexec(&compiled, text, matches.count, &matches, 0) }) == 0 else { return nil }
        return matches.map { range in
            guard range.rm_so >= 0, range.rm_eo >= range.rm_so, Int(range.rm_eo) <= bytes.count else { return nil }
            return String(decoding: bytes[Int(range.rm_so)..<Int(range.rm_eo)], as: UTF8.self)
        }
    }
}
