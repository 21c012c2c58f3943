/// How a custom list is written, as the configuration (`format =`, `items =`, `fields =`,
/// `split =`, `author_pattern =`, `archive =`) or `quotectl import --format` says. Plain data: the
/// readers that follow it are QuoteFormats'.
public struct ListFormat: Sendable, Equatable {
    public enum Kind: String, CaseIterable, Sendable {
        /// Decided from the Content-Type and the first bytes; the sync's line says what was decided.
        case auto, json, fortune, text, csv, atom, rss
    }

    /// Where a text file's quotes end.
    public enum Split: String, CaseIterable, Sendable {
        case line, paragraph
    }

    /// The parts of a quote a mapping can name.
    public enum Field: String, CaseIterable, Sendable {
        case id, text, author, category
    }

    public var kind: Kind
    /// A JSON Pointer (RFC 6901) to the array of quotes; "" is the top level.
    public var items = ""
    /// Which JSON member or CSV column holds each field; a field not named takes the format's default.
    public var fields: [Field: String] = [:]
    public var split = Split.line
    /// A POSIX extended regular expression whose first group is the author, matched against a
    /// feed entry's text (and removed from it) where the feed names no author.
    public var authorPattern: String?
    /// Whether quotes stay when the list no longer has them (nil: the format's default — feeds keep
    /// their entries as an archive, lists are the truth).
    public var archive: Bool?

    public init(kind: Kind = .json) {
        self.kind = kind
    }

    /// The formats each mapping setting applies to, by its configuration key (`auto` reads
    /// whichever it decides, so it takes theirs): one rule for quoted.conf and `quotectl import`.
    public static let keyFormats: [String: Set<Kind>] = [
        "items": [.json, .auto],
        "fields": [.json, .csv, .auto],
        "split": [.text],
        "author_pattern": [.atom, .rss, .auto],
    ]

    /// The Gist's list and the hub's feed files: JSON with the default fields.
    public static let json = ListFormat()

    /// Whether a list read as `decided` keeps the quotes it no longer has.
    public func keepsArchive(decided: Kind?) -> Bool {
        if let archive { return archive }
        return decided == .atom || decided == .rss
    }
}
