import QuoteModels
import QuoteText

/// `author_pattern`: a POSIX extended regular expression (QuoteText's `ExtendedRegex`, compiled
/// once per list) whose first group is the author of a feed entry that names none, e.g.
/// `~ *([^~]+) *~` for Wikiquote's quote of the day. The whole match is taken out of the text.
struct AuthorPattern: Sendable {
    private let regex: ExtendedRegex

    init(_ pattern: String) throws(ListFailure) {
        do throws(ExtendedRegex.Invalid) {
            regex = try ExtendedRegex(pattern)
        } catch {
            throw ListFailure("author_pattern is not a POSIX extended regular expression: \(error)")
        }
        guard regex.groups >= 1 else { throw ListFailure("author_pattern has no group: its first (…) is the author") }
    }

    /// The first group of the first match, and the text without the whole match; nil when it does not match.
    func match(_ text: String) -> (author: String, rest: String)? {
        guard let ranges = regex.matchRanges(text), let whole = ranges[0], let group = ranges[1] else { return nil }
        let bytes = Array(text.utf8)
        let author = String(decoding: bytes[group], as: UTF8.self)
        let rest = String(decoding: bytes[..<whole.lowerBound], as: UTF8.self) + String(decoding: bytes[whole.upperBound...], as: UTF8.self)
        return (author, rest)
    }
}
