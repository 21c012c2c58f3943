import Glibc
import QuoteModels

/// `author_pattern`: a POSIX extended regular expression (glibc's `regcomp`, compiled once per
/// list) whose first group is the author of a feed entry that names none, e.g. `~ *([^~]+) *~`
/// for Wikiquote's quote of the day. The whole match is taken out of the text.
final class AuthorPattern: @unchecked Sendable {
    // regexec only reads the compiled pattern: one list's reader uses it from one thread at a time.
    private var compiled = regex_t()

    init(_ pattern: String) throws(ListFailure) {
        let status = regcomp(&compiled, pattern, REG_EXTENDED)
        guard status == 0 else {
            var message = [CChar](repeating: 0, count: 256)
            regerror(status, &compiled, &message, message.count)
            regfree(&compiled)
            throw ListFailure("author_pattern is not a POSIX extended regular expression: "
                              + String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        guard compiled.re_nsub >= 1 else {
            regfree(&compiled)
            throw ListFailure("author_pattern has no group: its first (…) is the author")
        }
    }

    deinit {
        regfree(&compiled)
    }

    /// The first group of the first match, and the text without the whole match; nil when it does not match.
    func match(_ text: String) -> (author: String, rest: String)? {
        var groups = [regmatch_t](repeating: regmatch_t(), count: 2)
        let utf8 = Array(text.utf8)
        // A text with a NUL is refused by RecordText before a pattern sees it; regexec stops at one.
        guard !utf8.contains(0), regexec(&compiled, text, 2, &groups, 0) == 0 else { return nil }
        let whole = Int(groups[0].rm_so)..<Int(groups[0].rm_eo)
        guard groups[1].rm_so >= 0 else { return nil }
        let author = String(decoding: utf8[Int(groups[1].rm_so)..<Int(groups[1].rm_eo)], as: UTF8.self)
        let rest = String(decoding: utf8[..<whole.lowerBound], as: UTF8.self) + String(decoding: utf8[whole.upperBound...], as: UTF8.self)
        return (author, rest)
    }
}
