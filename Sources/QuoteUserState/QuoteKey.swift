import QuoteModels

/// What names a quote in a user's state: its source and the upstream's own id, never the store's
/// row id, so a store rebuilt from the upstreams (new row ids) still finds it.
public struct QuoteKey: Hashable, Sendable, CustomStringConvertible {
    public let source: String
    public let upstreamID: String

    public init(source: String, upstreamID: String) {
        self.source = source
        self.upstreamID = upstreamID
    }

    public init(_ quote: Quote) {
        self.init(source: quote.source, upstreamID: quote.upstreamID)
    }

    /// The seen history's key: a hash of source and upstream id (its file format since `--unseen`).
    public var hash: UInt64 { SeenQuotes.key(source: source, upstreamID: upstreamID) }

    /// `SOURCE:ID`, as `liked --json` prints it and `like`, `hide` and `unhide` accept it.
    public var description: String { source + ":" + upstreamID }

    /// The longest ID a command accepts: a source name and an upstream id (256 characters at most).
    public static let maximumTextBytes = 400

    /// What a command's ID argument says: `SOURCE:ID` (the source a known one) or an upstream id
    /// alone. Nil when it cannot be one: empty, longer than `maximumTextBytes`, or holding a
    /// control character.
    public static func parse(_ text: String) -> (source: String?, upstreamID: String)? {
        guard !text.isEmpty, text.utf8.count <= maximumTextBytes,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        if let colon = text.firstIndex(of: ":") {
            let source = String(text[..<colon]), rest = String(text[text.index(after: colon)...])
            if !rest.isEmpty, SourceName.fixed.contains(source) || SourceName.listName(of: source) != nil || source == importedSource {
                return (source, rest)
            }
        }
        return (nil, text)
    }

    /// The source a liked quote read by `import --liked` is kept under when neither the file nor
    /// the store says where it came from.
    public static let importedSource = "imported"
}
