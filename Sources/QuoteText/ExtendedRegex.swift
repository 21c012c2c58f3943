import Glibc

/// A POSIX extended regular expression, compiled by glibc's regcomp (no hand-written matcher):
/// a feed's `author_pattern`, checked when the configuration is read and matched per entry.
/// Bytes, not characters, are matched (the C locale): a pattern and its text are UTF-8.
public final class ExtendedRegex: @unchecked Sendable {
    // regexec on a compiled pattern only reads it: one pattern serves any thread.
    private var compiled = regex_t()

    /// Why a pattern was refused: regcomp's own message, or a rule of ours.
    public struct Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    /// The longest pattern compiled: a configuration value.
    public static let maximumBytes = 1_024

    /// The number of parenthesised groups.
    public let groups: Int

    public init(_ pattern: String) throws(Invalid) {
        guard !pattern.isEmpty else { throw Invalid(reason: "an empty pattern") }
        guard pattern.utf8.count <= Self.maximumBytes else { throw Invalid(reason: "longer than \(Self.maximumBytes) bytes") }
        guard !pattern.utf8.contains(0) else { throw Invalid(reason: "it contains a NUL character") }
        let status = regcomp(&compiled, pattern, REG_EXTENDED)
        guard status == 0 else {
            var message = [CChar](repeating: 0, count: 256)
            regerror(status, &compiled, &message, message.count)
            throw Invalid(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        groups = Int(compiled.re_nsub)
    }

    deinit {
        regfree(&compiled)
    }

    /// The whole match and each group's text (nil: a group that took no part), or nil when `text` does not match.
    public func match(_ text: String) -> [String?]? {
        guard !text.utf8.contains(0) else { return nil }
        var matches = [regmatch_t](repeating: regmatch_t(), count: groups + 1)
        let bytes = Array(text.utf8)
        guard regexec(&compiled, text, matches.count, &matches, 0) == 0 else { return nil }
        return matches.map { range in
            guard range.rm_so >= 0, range.rm_eo >= range.rm_so, Int(range.rm_eo) <= bytes.count else { return nil }
            return String(decoding: bytes[Int(range.rm_so)..<Int(range.rm_eo)], as: UTF8.self)
        }
    }
}
