import QuoteBase
import QuoteText

/// `author_pattern` (and `quotectl import --author-pattern`): a POSIX extended regular expression
/// (QuoteText's `ExtendedRegex`) whose first group is the author of a feed entry that names none,
/// e.g. `~ *([^~]+[^~ ]) *~` for Wikiquote's quote of the day; the whole match is taken out of the
/// text. One rule for the configuration, the command line and the feed reader.
public struct AuthorPattern: Sendable {
    /// Why a pattern is refused, worded to follow the setting's name ("author_pattern has no group…").
    public enum Invalid: Error, Equatable, Sendable, CustomStringConvertible {
        case notARegex(String)
        case noGroup

        /// The sentence about the configuration's setting; `message(for:)` names another.
        public var description: String { message(for: "author_pattern") }

        /// The whole sentence about `setting` (author_pattern, --author-pattern).
        public func message(for setting: String) -> String {
            switch self {
            case .notARegex(let reason): return tr("\(setting): \(reason) (a POSIX extended regular expression)")
            case .noGroup: return tr("\(setting) has no group: put the author's part in parentheses, such as '~ *([^~]+[^~ ]) *~'")
            }
        }
    }

    private let regex: ExtendedRegex

    public init(_ pattern: String) throws(Invalid) {
        do throws(ExtendedRegex.Invalid) {
            regex = try ExtendedRegex(pattern)
        } catch {
            throw .notARegex(error.reason)
        }
        guard regex.groups >= 1 else { throw .noGroup }
    }

    /// The first group of the first match, and the text without the whole match; nil when it does not match.
    public func match(_ text: String) -> (author: String, rest: String)? {
        guard let ranges = regex.matchRanges(text), let whole = ranges[0], let group = ranges[1] else { return nil }
        let bytes = Array(text.utf8)
        let author = String(decoding: bytes[group], as: UTF8.self)
        let rest = String(decoding: bytes[..<whole.lowerBound], as: UTF8.self) + String(decoding: bytes[whole.upperBound...], as: UTF8.self)
        return (author, rest)
    }
}
